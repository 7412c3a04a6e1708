// Reading the bases a site extends (spec.extends) and merging them into one
// document tree (merge.cpp), inside the site's source root only.
#include "frontend/site/extends.hpp"

#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/source_root.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>

namespace queueforge::site {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSiteFileName = "queueforge-site.yaml";

std::string kind_of(const Node& root) {
    const Node* k = root.is_map() ? root.find("kind") : nullptr;
    return k && k->is_scalar() ? k->text() : "";
}

bool is_base_file(const std::string& path) {
    Diagnostics ignored;  // a file that cannot be read is not the base
    std::string text;
    if (!read_file_limited(path, text, ignored)) return false;
    if (text.find(kBaseKind) == std::string::npos) return false;
    auto docs = load_yaml(path, text, ignored);
    return docs.size() == 1 && kind_of(docs[0].root) == kBaseKind;
}

struct Chain {
    std::string root;  // the site's source root: no base is read outside it
    Diagnostics& diags;
    std::vector<SourceText>& bases;
    std::vector<std::string> real;   // canonical paths, the site first
    std::vector<std::string> shown;  // as findings name them

    void error(const std::string& file, const Node& at, std::string msg, const char* rule) {
        diags.error(file, at.mark(), std::move(msg), rule);
    }

    std::string chain_text(const std::string& last) const {
        std::string s;
        for (const auto& f : shown) s += f + " -> ";
        return s + last;
    }

    // The file a reference names: a file, or a folder's queueforge-site.yaml,
    // or else the one SiteBase file directly inside the folder.
    std::optional<std::string> locate(const std::string& from, const Node& ref) {
        const std::string& rel = ref.text();
        const fs::path rp(rel);
        if (rel.empty()) {
            error(from, ref, "spec.extends: empty path", "extends.missing-base");
            return std::nullopt;
        }
        if (rp.is_absolute() || rp.has_root_name() || rp.has_root_directory()) {
            error(from, ref,
                  "spec.extends: \"" + rel + "\" is absolute; give the base's path relative to " + from + "; not read",
                  "extends.outside-root");
            return std::nullopt;
        }
        const std::string shown_path = (fs::path(from).parent_path() / rp).lexically_normal().generic_string();
        std::string why;
        auto real_path = confine(root, shown_path, &why);
        if (!real_path) {
            error(from, ref, "spec.extends: the base " + why, "extends.outside-root");
            return std::nullopt;
        }
        std::error_code ec;
        const auto st = fs::status(*real_path, ec);
        if (!fs::exists(st)) {
            error(from, ref, "spec.extends: the base \"" + rel + "\" does not exist (" + shown_path + ")",
                  "extends.missing-base");
            return std::nullopt;
        }
        if (!fs::is_directory(st)) return shown_path;
        const fs::path dir(shown_path);
        if (fs::exists(dir / kSiteFileName, ec)) return (dir / kSiteFileName).generic_string();
        std::vector<std::string> found;
        std::vector<fs::path> files;
        for (fs::directory_iterator it(*real_path, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".yaml" || it->path().extension() == ".yml") files.push_back(it->path().filename());
        std::sort(files.begin(), files.end());
        for (const auto& f : files)
            if (is_base_file((dir / f).generic_string())) found.push_back((dir / f).generic_string());
        if (found.size() == 1) return found.front();
        std::string msg = "spec.extends: the folder " + shown_path + " holds no " + kSiteFileName;
        if (found.empty()) {
            msg += " and no file of kind " + std::string(kBaseKind);
        } else {
            msg += " and several files of kind " + std::string(kBaseKind) + " (";
            for (std::size_t i = 0; i < found.size(); ++i) msg += (i ? ", " : "") + found[i];
            msg += "); name the file";
        }
        error(from, ref, msg, "extends.missing-base");
        return std::nullopt;
    }

    std::optional<Node> load_base(const std::string& from, bool from_base, const Node& ref) {
        if (static_cast<int>(shown.size()) > kMaxExtendsDepth) {
            error(from, ref,
                  "spec.extends: bases nested more than " + std::to_string(kMaxExtendsDepth) +
                      " deep: " + chain_text(ref.text()),
                  "extends.depth");
            return std::nullopt;
        }
        auto file = locate(from, ref);
        if (!file) return std::nullopt;
        std::string why;
        auto real_file = confine(root, *file, &why);
        if (!real_file) {
            error(from, ref, "spec.extends: the base " + why, "extends.outside-root");
            return std::nullopt;
        }
        if (std::find(real.begin(), real.end(), *real_file) != real.end()) {
            error(from, ref, "spec.extends: a cycle: " + chain_text(*file), "extends.cycle");
            return std::nullopt;
        }
        std::string text;
        if (!read_file_limited(*file, text, diags)) return std::nullopt;
        bases.push_back({*file, text});
        const std::size_t errors_before = diags.count(Severity::Error);
        auto docs = load_yaml(*file, text, diags);
        if (diags.count(Severity::Error) > errors_before) return std::nullopt;
        const Node* api = docs.size() == 1 && docs[0].root.is_map() ? docs[0].root.find("apiVersion") : nullptr;
        const std::string kind = docs.size() == 1 ? kind_of(docs[0].root) : "";
        if (!api || api->text() != kSiteApiVersion || (kind != "Site" && kind != kBaseKind)) {
            error(from, ref,
                  "spec.extends: " + *file + " is not a base: expected one document of apiVersion " +
                      kSiteApiVersion + " and kind " + kBaseKind + " (or Site)",
                  "extends.not-a-site");
            return std::nullopt;
        }
        if (from_base && kind == "Site") {
            error(from, ref,
                  "spec.extends: a " + std::string(kBaseKind) + " cannot extend the Site " + *file +
                      " (a cluster's changes would reach every site built on the base); move what they share "
                      "into a " + kBaseKind,
                  "extends.base-extends-site");
            return std::nullopt;
        }
        Node base = std::move(docs[0].root);
        stamp_file(base, FileRef(*file));
        real.push_back(*real_file);
        shown.push_back(*file);
        auto merged = apply(*file, std::move(base));
        real.pop_back();
        shown.pop_back();
        return merged;
    }

    // `doc` (read from `file`) merged over the bases it names.
    std::optional<Node> apply(const std::string& file, Node doc) {
        Node* spec = doc.is_map() ? doc.find("spec") : nullptr;
        const Node* ext = spec && spec->is_map() ? spec->find("extends") : nullptr;
        if (!ext) return doc;
        const Node refs_node = *ext;
        spec->erase("extends");
        std::vector<const Node*> refs;
        if (refs_node.is_string()) {
            refs.push_back(&refs_node);
        } else if (refs_node.is_seq()) {
            for (const auto& r : refs_node.items()) {
                if (r.is_string()) refs.push_back(&r);
                else error(file, r, "spec.extends: expected a path to a base, got " + std::string(Node::kind_name(r.kind())), "site.type");
            }
        } else {
            error(file, refs_node, "spec.extends: expected a path to a base or a list of paths", "site.type");
            return std::nullopt;
        }
        const bool is_base = kind_of(doc) == kBaseKind;
        std::optional<Node> merged;
        bool failed = refs.size() != (refs_node.is_seq() ? refs_node.items().size() : 1);
        for (const Node* r : refs) {
            auto base = load_base(file, is_base, *r);
            if (!base) {
                failed = true;
                continue;
            }
            merged = merged ? merge_nodes(std::move(*merged), *base, "", file, diags) : std::move(*base);
        }
        if (failed) return std::nullopt;
        if (!merged) return doc;
        return merge_nodes(std::move(*merged), doc, "", file, diags);
    }
};

}  // namespace

std::optional<Node> resolve_extends(const std::string& path, Node root, Diagnostics& diags,
                                    std::vector<SourceText>& bases) {
    Chain chain{source_root_of(path), diags, bases, {}, {}};
    std::error_code ec;
    chain.real.push_back(fs::weakly_canonical(fs::absolute(path, ec), ec).string());
    chain.shown.push_back(path);
    const std::size_t errors_before = diags.count(Severity::Error);
    auto merged = chain.apply(path, std::move(root));
    // A malformed $delete is an error of the merge: the tree is not used.
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    return merged;
}

}  // namespace queueforge::site
