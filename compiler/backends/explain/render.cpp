// explain's text and JSON, and the comment blocks of build --annotate.
#include <queueforge/backends/explain.hpp>

#include <nlohmann/json.hpp>

#include <optional>

namespace queueforge::explain {

namespace {

std::string value_text(const Node* n) {
    if (!n) return "";
    if (n->is_map()) return n->size() ? "(map of " + std::to_string(n->size()) + ")" : "{}";
    if (n->is_seq()) return n->size() ? "(list of " + std::to_string(n->size()) + ")" : "[]";
    if (n->is_null()) return "null";
    return n->text();
}

// The file that set the value: the site, or the base it extends that set it.
const std::string& file_of(const FieldOrigin& f, const RenderOptions& o) {
    return f.mark.file && !f.mark.file->empty() ? *f.mark.file : o.display_file;
}

// The lines of the file that set the value; null when its text is not known.
std::optional<SourceLines> lines_of(const FieldOrigin& f, const RenderOptions& o) {
    if (!o.sources) return std::nullopt;
    const std::string& file = file_of(f, o);
    for (const auto& s : *o.sources)
        if (s.path == file) return SourceLines(s);
    return std::nullopt;
}

std::string position(const FieldOrigin& f, const RenderOptions& o) {
    std::string s = file_of(f, o);
    if (f.mark.known()) s += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.col);
    return s;
}

std::string via(const FieldOrigin& f) {
    if (f.own) return "";
    return f.from.empty() ? " (inherited from the object)" : " (inherited from " + f.from + ")";
}

// The site line and a caret under the column, as render_text shows findings.
void excerpt(std::string& out, const FieldOrigin& f, const RenderOptions& o) {
    const auto site = lines_of(f, o);
    if (site && f.mark.known()) out += caret_excerpt(site->line(f.mark.line), f.mark.col, "    ");
}

void add_origin(nlohmann::ordered_json& j, const FieldOrigin& f, const RenderOptions& o) {
    const auto lines = lines_of(f, o);
    const SourceLines* site = lines ? &*lines : nullptr;
    j["file"] = file_of(f, o);
    j["line"] = f.mark.line;
    j["column"] = f.mark.col;
    j["derivation"] = derivation_name(f.how);
    j["rule"] = f.rule;
    j["from"] = f.from;
    j["own"] = f.own;
    std::string_view line = site && f.mark.known() ? site->line(f.mark.line) : std::string_view{};
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
