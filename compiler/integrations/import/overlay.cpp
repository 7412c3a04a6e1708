// import --into ... --extends BASE: the imported cluster written as an overlay
// of a base already in the repository, keeping only what differs from it --
// the inverse of the merge rules of spec.extends (site/merge.cpp).
#include <queueforge/backends/emit.hpp>
#include <queueforge/integrations/import.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/yaml_load.hpp>

#include "frontend/site/extends.hpp"

#include <algorithm>
#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

namespace {

std::string child_shape(const std::string& shape, const std::string& key) {
    return shape.empty() ? key : shape + "." + key;
}

const Node* find_named(const Node& list, const std::string& field, const std::string& key) {
    for (const auto& i : list.items())
        if (const Node* v = i.is_map() ? i.find(field) : nullptr; v && v->is_scalar() && v->text() == key) return &i;
    return nullptr;
}

// What to write over `base` so that the merge gives `site`; nullopt when
// nothing needs writing.
// With `remove` false, keys the site leaves out keep the base's value (an
// import knows nothing of a pool's nodes, say); with it true they are
// removed (`key: null`).
std::optional<Node> difference(const Node& base, const Node& site, const std::string& shape, bool remove) {
    if (base.is_map() && site.is_map()) {
        Node out = Node::mapping();
        for (const auto& e : site.entries()) {
            const Node* b = base.find(e.key);
            if (!b) {
                out.set(e.key, e.value);
            } else if (auto d = difference(*b, e.value, child_shape(shape, e.key), remove)) {
                out.set(e.key, std::move(*d));
            }
        }
        for (const auto& e : base.entries())
            // The base's sample workloads are no object of the cluster: kept.
            if (remove && !site.find(e.key) && !(shape == "spec" && e.key == "workloads"))
                out.set(e.key, Node::null_value());
        if (out.size() == 0) return std::nullopt;
        return out;
    }
    const std::string field = site::named_list_key(shape);
    if (base.is_seq() && site.is_seq() && !field.empty() && shape != "spec.patches") {
        Node out = Node::sequence();
        for (const auto& item : site.items()) {
            const Node* key = item.is_map() ? item.find(field) : nullptr;
            const Node* b = key && key->is_scalar() ? find_named(base, field, key->text()) : nullptr;
            if (!b) {
                out.push(item);
                continue;
            }
            if (auto d = difference(*b, item, shape + "[]", remove)) {
                Node named = Node::mapping();
                named.set(field, *key);
                for (auto& e : d->entries()) named.set(e.key, std::move(e.value));
                out.push(std::move(named));
            }
        }
        for (const auto& item : base.items()) {
            const Node* key = item.is_map() ? item.find(field) : nullptr;
            if (!key || !key->is_scalar() || find_named(site, field, key->text())) continue;
            Node del = Node::mapping();
            del.set(field, Node::string(key->text()));
            del.set("$delete", Node::boolean(true));
            out.push(std::move(del));
        }
        if (out.size() == 0) return std::nullopt;
        return out;
    }
    if (base.same_as(site)) return std::nullopt;
    return site;
}

// The objects a site document builds, as text; nullopt when it does not build.
std::optional<std::string> built(const Node& doc, const std::string& file) {
    Compilation c = compile({.path = file, .document = &doc});
    if (!c.ok()) return std::nullopt;
    return render_stream(c.lowered->objects, "");
}

}  // namespace

std::optional<Node> overlay_on_base(const Node& site, const std::string& base, const std::string& site_file,
                                    Diagnostics& diags) {
    std::error_code ec;
    std::string base_file = base;
    if (fs::is_directory(base, ec)) base_file = (fs::path(base) / "queueforge-site.yaml").string();
    std::string text;
    if (!fs::exists(base_file, ec)) {
        diags.error(base_file, {}, "import --extends: the base " + base_file + " does not exist", "extends.missing-base");
        return std::nullopt;
    }
    if (!read_file_limited(base_file, text, diags)) return std::nullopt;
    auto docs = load_yaml(base_file, text, diags);
    if (diags.has_errors()) return std::nullopt;
    const Node* kind = docs.size() == 1 && docs[0].root.is_map() ? docs[0].root.find("kind") : nullptr;
    if (!kind || (kind->text() != "SiteBase" && kind->text() != "Site")) {
        diags.error(base_file, {}, "import --extends: " + base_file + " is not a Site or SiteBase", "extends.not-a-site");
        return std::nullopt;
    }
    std::vector<SourceText> bases;
    auto merged = site::resolve_extends(base_file, docs[0].root, diags, bases);
    if (!merged) return std::nullopt;
    const Node* base_spec = merged->find("spec");
    const Node* site_spec = site.find("spec");
    if (!base_spec || !site_spec) return std::nullopt;

    // The path as the site will name it: relative to its folder.
    const fs::path from = fs::absolute(fs::path(site_file).parent_path(), ec).lexically_normal();
    const fs::path to = fs::absolute(fs::path(base), ec).lexically_normal();
    const auto want = built(site, site_file);
    // First keeping what the import does not know from the base, then
    // removing it; kept only when it builds exactly what the whole site builds.
    for (bool remove : {false, true}) {
        Node spec = Node::mapping();
        spec.set("extends", Node::string(to.lexically_relative(from).generic_string()));
        if (auto d = difference(*base_spec, *site_spec, "spec", remove))
            for (auto& e : d->entries()) spec.set(e.key, std::move(e.value));
        Node overlay = Node::mapping();
        for (const auto& e : site.entries()) overlay.set(e.key, e.key == "spec" ? spec : e.value);

        Node spec_free = overlay;
        spec_free.find("spec")->erase("extends");
        Diagnostics merge_diags;
        const Node again = site::merge_nodes(*merged, spec_free, "", site_file, merge_diags);
        const auto got = built(again, site_file);
        if (want && got && *want == *got && !merge_diags.has_errors()) return overlay;
    }
    diags.warning(base_file, {},
                  "import --extends: no overlay of " + base_file +
                      " builds exactly the imported objects; the whole site is written instead",
                  "import.overlay");
    return std::nullopt;
}

}  // namespace queueforge
