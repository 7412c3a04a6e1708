// explain's text and JSON, and the comment blocks of build --annotate.
#include <queueforge/explain.hpp>

#include <nlohmann/json.hpp>

namespace queueforge {

const char* derivation_name(Derivation d) {
    switch (d) {
    case Derivation::Object: return "object";
    case Derivation::Written: return "written";
    case Derivation::Share: return "share";
    case Derivation::TeamDefaults: return "teamDefaults";
    case Derivation::Default: return "default";
    case Derivation::Target: return "target";
    case Derivation::ZeroFilled: return "zero-filled";
    case Derivation::Formed: return "formed";
    case Derivation::Generated: return "generated";
    }
    return "written";
}

}  // namespace queueforge

namespace queueforge::explain {

namespace {

// One line of the site text, without its line break; empty when out of range.
std::string_view source_line(const SourceText& src, int line) {
    if (line < 1) return {};
    std::size_t begin = 0;
    for (int l = 1; l < line; ++l) {
        begin = src.text.find('\n', begin);
        if (begin == std::string::npos) return {};
        ++begin;
    }
    std::size_t end = src.text.find('\n', begin);
    std::string_view v(src.text.data() + begin, (end == std::string::npos ? src.text.size() : end) - begin);
    if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
    return v;
}

std::string value_text(const Node* n) {
    if (!n) return "";
    if (n->is_map()) return n->size() ? "(map of " + std::to_string(n->size()) + ")" : "{}";
    if (n->is_seq()) return n->size() ? "(list of " + std::to_string(n->size()) + ")" : "[]";
    if (n->is_null()) return "null";
    return n->text();
}

std::string position(const FieldOrigin& f, const RenderOptions& o) {
    std::string s = o.display_file;
    if (f.mark.known()) s += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.col);
    return s;
}

std::string via(const FieldOrigin& f) {
    if (f.own) return "";
    return f.from.empty() ? " (inherited from the object)" : " (inherited from " + f.from + ")";
}

// The site line and a caret under the column, as render_text shows findings.
void excerpt(std::string& out, const FieldOrigin& f, const RenderOptions& o) {
    if (!o.site || !f.mark.known()) return;
    std::string_view line = source_line(*o.site, f.mark.line);
    if (line.empty() || line.size() > 400) return;
    out += "    ";
    out += line;
    out += "\n    ";
    for (int i = 1; i < f.mark.col && static_cast<std::size_t>(i - 1) < line.size(); ++i)
        out += line[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
    out += "^\n";
}

void add_origin(nlohmann::ordered_json& j, const FieldOrigin& f, const RenderOptions& o) {
    j["file"] = o.display_file;
    j["line"] = f.mark.line;
    j["column"] = f.mark.col;
    j["derivation"] = derivation_name(f.how);
    j["rule"] = f.rule;
    j["from"] = f.from;
    j["own"] = f.own;
    std::string_view line = o.site && f.mark.known() ? source_line(*o.site, f.mark.line) : std::string_view{};
    if (!line.empty()) j["source"] = std::string(line);
}

// Anything the JSON library would refuse (invalid UTF-8) is replaced, not thrown.
std::string dump(const nlohmann::ordered_json& j) {
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string render_text(const Resolver& r, const std::vector<FieldOrigin>& fields, const RenderOptions& opts) {
    std::string out;
    const FieldOrigin whole = r.whole();
    out += object_ref(r.object()) + "\n";
    out += "  " + position(whole, opts) + ": " + whole.rule + "\n";
    excerpt(out, whole, opts);
    for (const auto& f : fields) {
        out += "\n" + f.path + ": " + value_text(f.value) + "\n";
        out += "  " + position(f, opts) + ": " + f.rule + via(f) + "\n";
        excerpt(out, f, opts);
    }
    return out;
}

std::string render_json(const Resolver& r, const std::vector<FieldOrigin>& fields, const RenderOptions& opts) {
    const Object& o = r.object();
    nlohmann::ordered_json j;
    nlohmann::ordered_json obj;
    obj["apiVersion"] = o.api_version;
    obj["kind"] = o.kind;
    if (!o.namespace_.empty()) obj["namespace"] = o.namespace_;
    obj["name"] = o.name;
    nlohmann::ordered_json origin;
    add_origin(origin, r.whole(), opts);
    obj["origin"] = std::move(origin);
    j["object"] = std::move(obj);
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const auto& f : fields) {
        nlohmann::ordered_json e;
        e["path"] = f.path;
        if (f.value && f.value->is_scalar() && !f.value->is_null()) e["value"] = f.value->text();
        else e["value"] = value_text(f.value);
        add_origin(e, f, opts);
        arr.push_back(std::move(e));
    }
    j["fields"] = std::move(arr);
    return dump(j);
}

std::string annotation(const Object& o, const std::string& display_file) {
    // A rule is free text; a line break in it must not end the comment.
    auto comment = [](std::string s) {
        for (char& c : s)
            if (c == '\n' || c == '\r') c = ' ';
        return s;
    };
    Resolver r(o);
    RenderOptions opts{display_file, nullptr};
    const FieldOrigin whole = r.whole();
    std::string out = "# " + comment(object_ref(o) + " from " + position(whole, opts) + " (" + whole.rule + ")") + "\n";
    // Generated labels and annotations say the same for every object: they
    // are left to `queueforge explain`.
    for (const auto& f : r.recorded())
        if (f.how != Derivation::Generated)
            out += "#   " + comment(f.path + " from " + position(f, opts) + " (" + f.rule + ")") + "\n";
    return out;
}

}  // namespace queueforge::explain
