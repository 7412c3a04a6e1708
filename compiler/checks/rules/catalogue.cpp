// The rule catalogue: compiler/checks/rules/catalogue/*.yaml and the built-in
// policies, read from the copies embedded in the binary.
#include <queueforge/checks/rule_catalogue.hpp>
#include <queueforge/base/node_read.hpp>

#include "checks/policy/builtin.hpp"
#include "frontend/site/reader.hpp"

#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace queueforge::rules {

namespace {

constexpr std::string_view kCatalogueFolder = "compiler/checks/rules/catalogue/";

const std::vector<std::string_view>& origins() {
    static const std::vector<std::string_view> o = {"kueue-webhook", "crd", "api-server", "queueforge", "policy"};
    return o;
}

std::optional<Severity> severity_of(std::string_view s) {
    if (s == "error") return Severity::Error;
    if (s == "warning") return Severity::Warning;
    if (s == "note") return Severity::Note;
    return std::nullopt;
}

// Trailing newlines of block scalars are not part of the text.
std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

void read_catalogue_file(const std::string& path, std::string_view source, std::map<std::string, RuleInfo>& out,
                         Diagnostics& diags) {
    auto docs = load_yaml(path, std::string(source), diags);
    if (docs.size() != 1) return;
    const Node* rules = docs[0].root.is_map() ? docs[0].root.find("rules") : nullptr;
    if (!rules || !rules->is_seq()) {
        diags.error(path, docs[0].start, "a catalogue file holds one map with a list `rules`", "catalogue.invalid");
        return;
    }
    for (const Node& e : rules->items()) {
        const Node* id = e.is_map() ? e.find("id") : nullptr;
        if (!id || text(id).empty()) {
            diags.error(path, e.mark(), "catalogue entry without an id", "catalogue.invalid");
            continue;
        }
        RuleInfo r;
        r.id = id->text();
        r.defined_in = path;
        auto sev = severity_of(text(e.find("severity")));
        r.origin = text(e.find("origin"));
        r.summary = trimmed(text(e.find("summary")));
        r.description = trimmed(text(e.find("description")));
        r.bad = trimmed(text(e.find("bad")));
        r.good = trimmed(text(e.find("good")));
        if (!sev) diags.error(path, id->mark(), r.id + ": severity must be error, warning or note", "catalogue.invalid");
        if (std::find(origins().begin(), origins().end(), r.origin) == origins().end())
            diags.error(path, id->mark(), r.id + ": origin must be kueue-webhook, crd, api-server, queueforge or policy",
                        "catalogue.invalid");
        if (r.summary.empty()) diags.error(path, id->mark(), r.id + ": summary is missing", "catalogue.invalid");
        r.severity = sev.value_or(Severity::Error);
        auto [it, fresh] = out.emplace(r.id, r);
        if (!fresh)
            diags.error(path, id->mark(), r.id + " is catalogued twice (also in " + it->second.defined_in + ")",
                        "catalogue.invalid");
    }
}

// A built-in policy: the file's leading comment is its explanation; a
// catalogue entry with the same id may add the examples.
RuleInfo policy_entry(const policy::BuiltinFile& f, Diagnostics& diags) {
    RuleInfo r;
    r.defined_in = f.path;
    r.origin = "policy";
    std::istringstream in{std::string(f.text)};
    std::string line, comment;
    while (std::getline(in, line) && line.starts_with("#")) {
        std::string body = line.size() > 1 && line[1] == ' ' ? line.substr(2) : line.substr(1);
        comment += body + "\n";
    }
    r.description = trimmed(comment);
    auto docs = load_yaml(f.path, std::string(f.text), diags);
    if (docs.empty() || !docs[0].root.is_map()) return r;
    const Node& root = docs[0].root;
    const Node* meta = root.find("metadata");
    const Node* spec = root.find("spec");
    r.id = text(meta && meta->is_map() ? meta->find("name") : nullptr);
    if (spec && spec->is_map()) {
        r.summary = trimmed(text(spec->find("description")));
        r.severity = severity_of(text(spec->find("severity"))).value_or(Severity::Error);
    }
    return r;
}

}  // namespace

const RuleInfo* Catalogue::find(std::string_view id) const {
    auto it = std::lower_bound(rules_.begin(), rules_.end(), id, [](const RuleInfo& r, std::string_view k) { return r.id < k; });
    return it != rules_.end() && it->id == id ? &*it : nullptr;
}

std::vector<std::string> Catalogue::ids() const {
    std::vector<std::string> out;
    out.reserve(rules_.size());
    for (const auto& r : rules_) out.push_back(r.id);
    return out;
}

std::string Catalogue::suggest(std::string_view id) const { return site::did_you_mean(id, ids()); }

Catalogue load_catalogue(Diagnostics& diags) {
    std::map<std::string, RuleInfo> by_id;
    for (const auto& path : embedded_paths(kCatalogueFolder))
        if (path.ends_with(".yaml"))
            if (auto text = find_embedded(path)) read_catalogue_file(path, *text, by_id, diags);
    for (const auto& f : policy::builtin_policy_files()) {
        RuleInfo p = policy_entry(f, diags);
        if (p.id.empty()) continue;
        auto it = by_id.find(p.id);
        if (it != by_id.end()) {
            // The catalogue adds examples to a policy; the policy file owns the rest.
            p.bad = it->second.bad;
            p.good = it->second.good;
            if (p.description.empty()) p.description = it->second.description;
        }
        by_id[p.id] = std::move(p);
    }
    Catalogue c;
    for (auto& [id, r] : by_id) c.rules_.push_back(std::move(r));
    return c;
}

std::string rule_anchor(std::string_view id) {
    std::string out;
    for (char ch : id) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
        else if (ch == '-' || ch == '.' || ch == '_') out += '-';
    }
    return out;
}

std::string rule_help_uri(std::string_view id) { return "https://queueforge.io/docs/rules.md#" + rule_anchor(id); }

}  // namespace queueforge::rules
