#include "lower/passthrough.hpp"

#include <queueforge/base/provenance.hpp>
#include <queueforge/base/node_read.hpp>

#include <charconv>
#include <map>
#include <tuple>

namespace queueforge::lower {

namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name

std::string short_text(const Node& n) {
    if (n.is_map()) return "a map";
    if (n.is_seq()) return "a list";
    std::string t = n.text();
    if (t.size() > 60) t = t.substr(0, 57) + "...";
    return "\"" + t + "\"";
}

// Adds what `src` has and `dst` lacks. A value both have must be equal: a
// patch that overrode what the site produces would make the site say one
// thing and apply another.
// Every node of a subtree a patch added answers with the patch (explain).
void record_patched(Object& obj, const std::string& at, const Node& n, Mark fallback, const std::string& rule) {
    provenance::record(obj, at, n.mark().known() ? n.mark() : fallback, Derivation::Written, rule);
    if (n.is_map())
        for (const auto& e : n.entries()) record_patched(obj, provenance::append_key(at, e.key), e.value, e.key_mark(), rule);
    else if (n.is_seq())
        for (std::size_t i = 0; i < n.items().size(); ++i)
            record_patched(obj, provenance::append_index(at, i), n.items()[i], n.mark(), rule);
}

// What the patch adds is recorded for explain at `obj` (whose document holds
// `dst`), so the answer names the patch rather than a bare site position.
void merge(Context& ctx, Object& obj, Node& dst, const Node& src, const std::string& path, const std::string& what) {
    for (const auto& e : src.entries()) {
        const std::string at = provenance::append_key(path, e.key);
        Node* have = dst.find(e.key);
        if (!have) {
            dst.set(e.key, e.value);
            record_patched(obj, at, e.value, e.key_mark(), what + ": a field the site format has no setting for (kept by queueforge import)");
        } else if (have->is_map() && e.value.is_map()) {
            merge(ctx, obj, *have, e.value, at, what);
        } else if (!have->same_as(e.value)) {
            ctx.error(e.value.mark().known() ? e.value.mark() : e.key_mark(),
                      what + " sets " + at + " to " + short_text(e.value) + ", but the site produces " +
                          short_text(*have) + "; change the site's own field instead",
                      "site.patch-conflict");
        }
    }
}

int default_wave(const std::string& kind) {
    if (kind == "Namespace") return -20;
    if (kind == "ClusterQueue") return 1;
    if (kind == "LocalQueue") return 2;
    if (kind == "DataScienceCluster") return 10;
    return 0;
}

}  // namespace

void apply_patches(Context& ctx) {
    if (ctx.site.patches.empty()) return;
    std::map<Key, std::size_t> index;
    for (std::size_t i = 0; i < ctx.objects.size(); ++i) {
        const auto& o = ctx.objects[i];
        index.try_emplace({o.kind, o.namespace_, o.name}, i);
    }
    for (const auto& p : ctx.site.patches) {
        const std::string id = p.kind.value + " \"" +
                               (p.namespace_.value.empty() ? "" : p.namespace_.value + "/") + p.name.value + "\"";
        auto it = index.find({p.kind.value, p.namespace_.value, p.name.value});
        if (it == index.end()) {
            ctx.error(p.mark,
                      "patch for " + id + ": the site produces no such object (a patch adds fields to an object "
                      "the site produces; put whole manifests under spec.passthrough)",
                      "site.patch-target");
            continue;
        }
        Object& target = ctx.objects[it->second];
        merge(ctx, target, target.doc, p.merge, "", "patch for " + id);
    }
}

void add_passthrough(Context& ctx) {
    for (const auto& m : ctx.site.passthrough) {
        Object o;
        o.api_version = text_at(m, {"apiVersion"});
        o.kind = text_at(m, {"kind"});
        o.name = text_at(m, {"metadata", "name"});
        o.namespace_ = text_at(m, {"metadata", "namespace"});
        o.doc = m;
        o.origin = m.mark();
        provenance::record(o, "", m.mark(), Derivation::Written,
                        "spec.passthrough: a whole manifest the site format cannot express, emitted as written");
        // The manifest's own sync wave places it in the stream; otherwise the
        // wave queueforge gives that kind, so the stream keeps apply order.
        o.wave = default_wave(o.kind);
        if (const Node* meta = m.find("metadata"); meta && meta->is_map())
            if (const Node* ann = meta->find("annotations"); ann && ann->is_map())
                if (const Node* w = ann->find("argocd.argoproj.io/sync-wave"); w && w->is_scalar()) {
                    const std::string& t = w->text();
                    int v = 0;
                    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
                    if (ec == std::errc() && end == t.data() + t.size() && v >= -1000000 && v <= 1000000) o.wave = v;
                }
        o.kind_rank = 6;
        ctx.objects.push_back(std::move(o));
    }
}

}  // namespace queueforge::lower
