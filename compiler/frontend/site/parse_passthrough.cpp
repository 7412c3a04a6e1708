// spec.patches and spec.passthrough: what a site carries for objects and
// fields it cannot express (written by queueforge import). Only the shape is
// checked here; lowering checks that patches meet a generated object.
#include "frontend/site/parse_parts.hpp"

namespace queueforge::site {

namespace {

bool non_empty_string(const Node* n) { return n && n->kind() == Node::Kind::String && !n->text().empty(); }

}  // namespace

bool read_patch(const Reader& r, const Node& n, const std::string& what, Patch& out) {
    if (!r.expect_map(n, what, {"kind", "name", "namespace", "merge"})) return false;
    out.mark = n.mark();
    bool ok = true;
    for (const char* key : {"kind", "name", "merge"})
        if (!n.find(key)) {
            r.error(n.mark(), what + "." + key + ": required", "site.required");
            ok = false;
        }
    ok = (!n.find("kind") || r.read_text(n.find("kind"), what + ".kind", out.kind)) && ok;
    ok = (!n.find("name") || r.read_text(n.find("name"), what + ".name", out.name)) && ok;
    if (const Node* ns = n.find("namespace")) ok = r.read_text(ns, what + ".namespace", out.namespace_) && ok;
    if (const Node* m = n.find("merge")) {
        if (m->is_map()) {
            out.merge = *m;
        } else {
            r.error(m->mark(), what + ".merge: expected a map (a partial manifest such as {spec: {...}})", "site.type");
            ok = false;
        }
    }
    return ok;
}

bool read_passthrough(const Reader& r, const Node& n, const std::string& what, Node& out) {
    if (!n.is_map()) {
        r.error(n.mark(), what + ": expected a Kubernetes manifest (a map)", "site.type");
        return false;
    }
    bool ok = true;
    for (const char* key : {"apiVersion", "kind"})
        if (!non_empty_string(n.find(key))) {
            r.error(n.find(key) ? n.find(key)->mark() : n.mark(), what + "." + key + ": required (a string)",
                    "site.required");
            ok = false;
        }
    const Node* meta = n.find("metadata");
    if (!meta || !meta->is_map() || !non_empty_string(meta->find("name"))) {
        r.error(meta ? meta->mark() : n.mark(), what + ".metadata.name: required (a string)", "site.required");
        ok = false;
    } else if (const Node* ns = meta->find("namespace"); ns && ns->kind() != Node::Kind::String && !ns->is_null()) {
        r.error(ns->mark(), what + ".metadata.namespace: expected a string", "site.type");
        ok = false;
    }
    if (ok) out = n;
    return ok;
}

}  // namespace queueforge::site
