// The gate over a run's findings: suppression annotations, then the
// configured level of each rule.
#include <queueforge/checks/gate.hpp>
#include <queueforge/base/node_read.hpp>

#include "frontend/site/reader.hpp"

#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <limits>
#include <iterator>
#include <map>
#include <optional>
#include <unordered_map>

namespace queueforge::gate {

namespace {

constexpr const char* kUnknownRule = "config.unknown-rule";

// A place whose findings the user asked to drop: an annotated object's
// document, or a site team / pool.
struct Suppression {
    std::string file;
    Mark at;                 // the annotation or `ignore:` field
    Mark from, to;           // the span of the object or site element
    ObjectRef object;        // the annotated object (empty for site elements)
    std::string what;        // "ClusterQueue/team-a", "team team-a"
    std::vector<std::string> rules;
    std::map<std::string, int> dropped;
};

bool before_or_at(Mark a, Mark b) { return a.line < b.line || (a.line == b.line && a.col <= b.col); }

// The last position inside `n`: its own mark or its deepest, latest child.
// Bounded by the size of the tree (iterative over the last children).
Mark last_mark(const Node& n) {
    Mark m = n.mark();
    const Node* cur = &n;
    for (int depth = 0; depth < 512; ++depth) {
        if (cur->is_map() && !cur->entries().empty()) {
            const auto& e = cur->entries().back();
            if (before_or_at(m, e.key_mark())) m = e.key_mark();
            cur = &e.value;
        } else if (cur->is_seq() && !cur->items().empty()) {
            cur = &cur->items().back();
        } else {
            break;
        }
        if (before_or_at(m, cur->mark())) m = cur->mark();
    }
    // Whole last line.
    m.col = std::numeric_limits<int>::max();
    return m;
}

std::vector<std::string> split_ids(const Node& n) {
    std::vector<std::string> out;
    auto add = [&](const Node& s) {
        if (!s.is_scalar() || s.is_null()) return;
        for (auto& id : split_rule_ids(s.text())) out.push_back(std::move(id));
    };
    if (n.is_seq())
        for (const Node& i : n.items()) add(i);
    else
        add(n);
    return out;
}

void object_suppression(const std::string& file, const Node& obj, std::vector<Suppression>& out) {
    const Node* annotations = at_path(obj, {"metadata", "annotations"});
    if (!annotations || !annotations->is_map()) return;
    const Node::Entry* e = annotations->find_entry(kIgnoreAnnotation);
    if (!e) return;
    Suppression s;
    s.file = file;
    s.at = e->key_mark();
    s.from = obj.mark();
    s.to = last_mark(obj);
    s.object = {text_at(obj, {"apiVersion"}), text_at(obj, {"kind"}), text_at(obj, {"metadata", "namespace"}),
                text_at(obj, {"metadata", "name"})};
    s.what = s.object.display();
    s.rules = split_ids(e->value);
    out.push_back(std::move(s));
}

void site_suppressions(const std::string& file, const Node& site, std::vector<Suppression>& out) {
    for (const char* section : {"teams", "pools"}) {
        const Node* list = at_path(site, {"spec", section});
        if (!list || !list->is_seq()) continue;
        for (const Node& item : list->items()) {
            if (!item.is_map()) continue;
            const Node::Entry* e = item.find_entry("ignore");
            if (!e) continue;
            Suppression s;
            s.file = file;
            s.at = e->key_mark();
            s.from = item.mark();
            s.to = last_mark(item);
            s.what = std::string(section == std::string("teams") ? "team " : "pool ") + text_at(item, {"name"});
            s.rules = split_ids(e->value);
            out.push_back(std::move(s));
        }
    }
}

}  // namespace

bool may_hold_suppressions(std::string_view text) {
    return text.find(kIgnoreAnnotation) != std::string_view::npos ||
           (text.find("ignore") != std::string_view::npos && text.find("queueforge.io/") != std::string_view::npos);
}

namespace {

// Only sources that mention an ignore list are parsed again.
std::vector<Suppression> find_suppressions(const std::vector<SourceText>& sources) {
    std::vector<Suppression> out;
    for (const auto& src : sources) {
        if (!may_hold_suppressions(src.text)) continue;
        const bool annotated = src.text.find(kIgnoreAnnotation) != std::string::npos;
        Diagnostics quiet;  // the command has reported this file's problems already
        for (const auto& doc : load_yaml(src.path, src.text, quiet)) {
            const Node& root = doc.root;
            if (!root.is_map()) continue;
            const std::string kind = text_at(root, {"kind"});
            if (kind == "Site" && text_at(root, {"apiVersion"}).starts_with("queueforge.io/")) {
                site_suppressions(src.path, root, out);
                continue;
            }
            if (annotated) {
                object_suppression(src.path, root, out);
                if (kind.ends_with("List"))
                    if (const Node* items = root.find("items"); items && items->is_seq())
                        for (const Node& i : items->items())
                            if (i.is_map()) object_suppression(src.path, i, out);
            }
        }
    }
    return out;
}

bool covers(const Suppression& s, const Diagnostic& d) {
    if (d.file != s.file) return false;
    if (std::find(s.rules.begin(), s.rules.end(), d.rule) == s.rules.end()) return false;
    if (!s.object.empty() && !d.object.empty())
        return d.object.kind == s.object.kind && d.object.name == s.object.name &&
               d.object.namespace_ == s.object.namespace_;
    return d.mark.known() && before_or_at(s.from, d.mark) && before_or_at(d.mark, s.to);
}

// The suppressions a finding is matched against, found without trying each
// (a repository with an annotation on each of 100,000 objects, and a finding
// on each, made the linear search 10^10 checks). A finding is covered by the
// first suppression, in `all`'s order, that covers() it; the index yields
// the same one: the first object suppression naming its object, or the
// first whose span holds its position.
class SuppressionIndex {
public:
    explicit SuppressionIndex(const std::vector<Suppression>& all) : all_(all) {
        std::unordered_map<std::string, std::vector<std::size_t>> per_key;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Suppression& s = all[i];
            for (const auto& rule : s.rules) {
                if (!s.object.empty())
                    by_object_.try_emplace(object_key(s.file, rule, s.object.kind, s.object.namespace_, s.object.name), i);
                auto& list = per_key[file_rule(s.file, rule)];
                if (list.empty() || list.back() != i) list.push_back(i);
            }
        }
        // Spans nest (a List and its items) or lie apart (documents, a
        // site's teams and pools). Each file and rule's spans are split into
        // layers by how many spans hold their start: the spans of one layer
        // never overlap, so a binary search finds the one span of each layer
        // that may hold a position. Layers are as many as spans nest deep
        // (two in practice).
        for (auto& [key, list] : per_key) {
            std::stable_sort(list.begin(), list.end(),
                             [&](std::size_t a, std::size_t b) { return before(all_[a].from, all_[b].from); });
            auto& layers = layers_[key];
            std::vector<std::size_t> open;
            for (std::size_t i : list) {
                while (!open.empty() && before(all_[open.back()].to, all_[i].from)) open.pop_back();
                if (layers.size() <= open.size()) layers.resize(open.size() + 1);
                layers[open.size()].push_back(i);
                open.push_back(i);
            }
        }
    }

    // The index in `all` of the suppression that covers `d`, if any.
    std::optional<std::size_t> covering(const Diagnostic& d) const {
        std::size_t best = kNone;
        if (!d.object.empty()) {
            auto it = by_object_.find(object_key(d.file, d.rule, d.object.kind, d.object.namespace_, d.object.name));
            if (it != by_object_.end()) best = it->second;
        }
        if (d.mark.known()) {
            auto it = layers_.find(file_rule(d.file, d.rule));
            if (it != layers_.end())
                for (const auto& layer : it->second) {
                    // The last span of the layer that starts at or before the finding.
                    auto after = std::upper_bound(layer.begin(), layer.end(), d.mark, [&](const Mark& m, std::size_t i) {
                        return before(m, all_[i].from);
                    });
                    if (after == layer.begin()) continue;
                    const std::size_t i = *std::prev(after);
                    if (i < best && covers(all_[i], d)) best = i;
                }
        }
        if (best == kNone) return std::nullopt;
        return best;
    }

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    static bool before(const Mark& a, const Mark& b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }
    static std::string file_rule(const std::string& file, const std::string& rule) {
        std::string k = file;
        k += '\0';
        k += rule;
        return k;
    }
    static std::string object_key(const std::string& file, const std::string& rule, const std::string& kind,
                                  const std::string& ns, const std::string& name) {
        std::string k = file_rule(file, rule);
        for (const std::string* part : {&kind, &ns, &name}) {
            k += '\0';
            k += *part;
        }
        return k;
    }

    const std::vector<Suppression>& all_;
    std::unordered_map<std::string, std::size_t> by_object_;  // the first object suppression per object and rule
    std::unordered_map<std::string, std::vector<std::vector<std::size_t>>> layers_;  // per file and rule
};

Severity severity_of(Level l) {
    return l == Level::Error ? Severity::Error : l == Level::Warning ? Severity::Warning : Severity::Note;
}

}  // namespace

void apply(const Gate& gate, const std::vector<SourceText>& sources, Diagnostics& diags) {
    std::vector<Suppression> suppressions = find_suppressions(sources);
    const bool names_rules = gate.catalogue || !suppressions.empty();
    if (!names_rules) return;  // nothing configured, nothing annotated: findings stay as they are
    std::optional<rules::Catalogue> loaded;
    if (!gate.catalogue) {
        Diagnostics ignored;
        loaded = rules::load_catalogue(ignored);
    }
    const rules::Catalogue& catalogue = gate.catalogue ? *gate.catalogue : *loaded;
    std::vector<std::string> known = catalogue.ids();
    known.insert(known.end(), gate.extra_ids.begin(), gate.extra_ids.end());
    std::sort(known.begin(), known.end());
    auto is_known = [&](const std::string& id) { return std::binary_search(known.begin(), known.end(), id); };
    Diagnostics extra;
    auto unknown = [&](const std::string& id, const std::string& where, const std::string& file, Mark m) {
        if (is_known(id)) return;
        std::string msg = where + ": no rule has the id \"" + id + "\"";
        const std::string hint = site::did_you_mean(id, known);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        msg += " (`queueforge rules` lists them)";
        extra.warning(file, m, msg, kUnknownRule);
    };
    for (const auto& [id, s] : gate.config.rules) unknown(id, "rules", s.file, s.mark);
    for (const auto& o : gate.config.overrides)
        for (const auto& [id, s] : o.rules) unknown(id, "overrides[].rules", s.file, s.mark);
    for (const auto& id : gate.options.disable) unknown(id, "--disable", "", {});
    for (const auto& id : gate.options.enable) unknown(id, "--enable", "", {});

    for (const auto& s : suppressions)
        for (const auto& id : s.rules) unknown(id, s.what + ": " + kIgnoreAnnotation, s.file, s.at);

    std::map<std::pair<std::string, std::string>, std::optional<Level>> levels;
    Diagnostics kept;
    const SuppressionIndex index(suppressions);
    for (const auto& d : diags.all()) {
        if (auto i = index.covering(d)) {
            ++suppressions[*i].dropped[d.rule];
            continue;
        }
        auto key = std::make_pair(d.rule, d.file);
        auto it = levels.find(key);
        if (it == levels.end()) it = levels.emplace(key, gate.configured(d.rule, d.file)).first;
        if (!it->second) {
            kept.add(d);
        } else if (*it->second != Level::Off) {
            Diagnostic c = d;
            c.severity = severity_of(*it->second);
            kept.add(std::move(c));
        }
    }
    for (const auto& s : suppressions) {
        if (s.dropped.empty()) continue;
        int total = 0;
        std::string list;
        for (const auto& [rule, n] : s.dropped) {
            total += n;
            list += (list.empty() ? "" : ", ") + rule + (n > 1 ? " (" + std::to_string(n) + ")" : "");
        }
        Diagnostic note;
        note.severity = Severity::Note;
        note.file = s.file;
        note.mark = s.at;
        note.rule = "gate.suppressed";
        note.object = s.object;
        note.message = s.what + ": " + std::to_string(total) + (total == 1 ? " finding" : " findings") +
                       " suppressed by " + (s.object.empty() ? std::string("ignore") : std::string(kIgnoreAnnotation)) +
                       ": " + list;
        kept.add(std::move(note));
    }
    // Warnings about the configuration itself are findings like any other.
    for (const auto& d : extra.all()) {
        auto lvl = gate.configured(d.rule, d.file);
        if (lvl && *lvl == Level::Off) continue;
        Diagnostic c = d;
        if (lvl) c.severity = severity_of(*lvl);
        kept.add(std::move(c));
    }
    diags = std::move(kept);
}

}  // namespace queueforge::gate
