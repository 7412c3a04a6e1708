// metadata, apiVersion and kind of resources. CRD schemas say only
// `metadata: {type: object}`, but the API server decodes metadata into
// ObjectMeta (strictly, with --validate=strict: unknown metadata fields are
// reported) and then runs ObjectMeta validation: name syntax, label and
// annotation keys, finalizers, owner references. Embedded resources
// (x-kubernetes-embedded-resource) get the same with name optional, plus
// required apiVersion and kind.
#include "checks/openapi/validator.hpp"
#include "checks/openapi/values.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace queueforge::openapi {

namespace {

// metav1.ObjectMeta as JSON decodes it. Every field is nullable: null decodes
// to the zero value there, it is not an error.
constexpr const char* kObjectMetaSchema = R"(
type: object
properties:
  name: {type: string, nullable: true}
  generateName: {type: string, nullable: true}
  namespace: {type: string, nullable: true}
  selfLink: {type: string, nullable: true}
  uid: {type: string, nullable: true}
  resourceVersion: {type: string, nullable: true}
  generation: {type: integer, format: int64, nullable: true}
  creationTimestamp: {type: string, format: date-time, nullable: true}
  deletionTimestamp: {type: string, format: date-time, nullable: true}
  deletionGracePeriodSeconds: {type: integer, format: int64, nullable: true}
  labels:
    type: object
    nullable: true
    additionalProperties: {type: string, nullable: true}
  annotations:
    type: object
    nullable: true
    additionalProperties: {type: string, nullable: true}
  ownerReferences:
    type: array
    nullable: true
    items:
      type: object
      properties:
        apiVersion: {type: string, nullable: true}
        kind: {type: string, nullable: true}
        name: {type: string, nullable: true}
        uid: {type: string, nullable: true}
        controller: {type: boolean, nullable: true}
        blockOwnerDeletion: {type: boolean, nullable: true}
  finalizers:
    type: array
    nullable: true
    items: {type: string, nullable: true}
  managedFields:
    type: array
    nullable: true
    items: {type: object, x-kubernetes-preserve-unknown-fields: true}
)";

constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

std::string_view text_of(const Node* n) { return n && n->is_string() ? std::string_view(n->text()) : std::string_view(); }

// NameIsDNSSubdomain with prefix=true masks a trailing dash first (and, as
// apimachinery does, drops the character before it).
std::string mask_trailing_dash(std::string_view s) {
    if (s.size() > 1 && s.back() == '-') return std::string(s.substr(0, s.size() - 2)) + "a";
    return std::string(s);
}

// content.IsPathSegmentName / IsPathSegmentPrefix: the rule for embedded
// resources' names.
std::string path_segment(std::string_view s, bool prefix) {
    if (!prefix && (s == "." || s == "..")) return "may not be '" + std::string(s) + "'";
    if (s.find('/') != std::string_view::npos) return "may not contain '/'";
    if (s.find('%') != std::string_view::npos) return "may not contain '%'";
    return {};
}

// schema.ParseGroupVersion accepts "", "v", "g/v"; more slashes are an error.
bool group_version_ok(std::string_view s) { return std::count(s.begin(), s.end(), '/') <= 1; }

std::string check_dns1035_label(std::string_view s) {
    if (s.size() > 63) return "must be no more than 63 characters";
    bool ok = !s.empty() && s.front() >= 'a' && s.front() <= 'z';
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) ok = false;
    if (!s.empty() && s.back() == '-') ok = false;
    if (!ok)
        return "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
               "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
               "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    return {};
}

}  // namespace

const Schema& object_meta_schema() {
    static const std::shared_ptr<const Schema> schema = [] {
        Diagnostics diags;
        auto docs = load_yaml("<ObjectMeta>", kObjectMetaSchema, diags);
        std::shared_ptr<const Schema> s = docs.empty() ? nullptr : compile(docs.front().root, "<ObjectMeta>", diags);
        if (!s) throw std::logic_error("built-in ObjectMeta schema does not compile");
        return s;
    }();
    return *schema;
}

void Validator::embedded_type_meta(const Node& obj) {
    for (const char* field : {"apiVersion", "kind"}) {
        const Node* v = obj.find(field);
        std::string p = child(field);
        if (!v) {
            error_at(obj.mark(), "schema.required", p, [&] { return p + ": Required value"; });
            continue;
        }
        auto invalid = [&](const std::string& msg) {
            error_at(v->mark(), "schema.embedded-resource", p,
                     [&] { return p + ": Invalid value: " + go_value(*v) + ": " + msg; });
        };
        if (!v->is_string()) {
            invalid("must be a string");
        } else if (v->text().empty()) {
            invalid("must not be empty");
        } else if (field[0] == 'a') {
            if (!group_version_ok(v->text())) invalid("unexpected GroupVersion string: " + v->text());
        } else {
            std::string lower = v->text();
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (std::string msg = check_dns1035_label(lower); !msg.empty())
                invalid("may have mixed case, but should otherwise match: " + msg);
        }
    }
}

void Validator::object_meta(const Schema& s, const Node& obj, bool resource_root) {
    if (!resource_root) embedded_type_meta(obj);
    const Node* meta = obj.find("metadata");
    if (!meta || meta->is_null()) {
        if (resource_root) {
            std::string p = child("metadata.name");
            error_at(obj.mark(), "schema.metadata", p,
                     [&] { return p + ": Required value: name or generateName is required"; });
        }
        return;
    }
    PathGuard g(*this, "metadata");
    if (!meta->is_map()) {
        // A declared metadata schema has already reported the type.
        if (!s.property("metadata")) type_check(object_meta_schema(), *meta);
        return;
    }
    node(object_meta_schema(), *meta, 1, 0);
    meta_fields(*meta, resource_root);
}

void Validator::meta_fields(const Node& meta, bool resource_root) {
    auto invalid = [&](const Node& at, Mark mark, const std::string& child, const std::string& msg) {
        std::string p = this->child(child);
        error_at(mark, "schema.metadata", p, [&] { return p + ": Invalid value: " + go_value(at) + ": " + msg; });
    };
    auto required = [&](Mark mark, const std::string& child, const std::string& detail) {
        std::string p = this->child(child);
        error_at(mark, "schema.metadata", p,
                 [&] { return p + ": Required value" + (detail.empty() ? "" : ": " + detail); });
    };

    const Node* gen = meta.find("generateName");
    if (!text_of(gen).empty()) {
        std::string msg = resource_root ? check_dns1123_subdomain(mask_trailing_dash(gen->text()))
                                        : path_segment(gen->text(), true);
        if (!msg.empty()) invalid(*gen, gen->mark(), "generateName", msg);
    }
    const Node* name = meta.find("name");
    if (text_of(name).empty()) {
        // With generateName the server makes up the name before validating.
        if (resource_root && text_of(gen).empty()) required(meta.mark(), "name", "name or generateName is required");
    } else {
        std::string msg =
            resource_root ? check_dns1123_subdomain(name->text()) : path_segment(name->text(), false);
        if (!msg.empty()) invalid(*name, name->mark(), "name", msg);
    }
    // Whether the kind is namespaced is not known here: a namespace is
    // checked when given, never required or forbidden.
    if (const Node* ns = meta.find("namespace"); !text_of(ns).empty()) {
        if (std::string msg = check_dns1123_label(ns->text()); !msg.empty())
            invalid(*ns, ns->mark(), "namespace", msg);
    }
    if (const Node* g = meta.find("generation")) {
        if (auto n = number_of(*g); n && n->is_int && n->i < 0)
            invalid(*g, g->mark(), "generation", "must be greater than or equal to 0");
    }
    if (const Node* labels = meta.find("labels"); labels && labels->is_map()) {
        for (const auto& e : labels->entries()) {
            if (std::string msg = check_qualified_name(e.key); !msg.empty())
                invalid(Node::string(e.key), e.key_mark(), "labels", msg);
            if (e.value.is_string())
                if (std::string msg = check_label_value(e.value.text()); !msg.empty())
                    invalid(e.value, e.value.mark(), "labels", msg);
        }
    }
    if (const Node* ann = meta.find("annotations"); ann && ann->is_map()) {
        std::size_t total = 0;
        for (const auto& e : ann->entries()) {
            // Case does not matter in annotation keys; copy only when it has some.
            std::string lower;
            const bool upper = std::any_of(e.key.begin(), e.key.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
            if (upper) {
                lower = e.key;
                for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            }
            if (std::string msg = check_qualified_name(upper ? lower : e.key.str()); !msg.empty())
                invalid(Node::string(e.key), e.key_mark(), "annotations", msg);
            total += e.key.size() + (e.value.is_string() ? e.value.text().size() : 0);
        }
        if (total > kTotalAnnotationSizeLimit) {
            std::string p = child("annotations");
            error_at(ann->mark(), "schema.metadata", p, [&] {
                return p + ": Too long: may not be more than " + std::to_string(kTotalAnnotationSizeLimit) + " bytes";
            });
        }
    }
    if (const Node* refs = meta.find("ownerReferences"); refs && refs->is_seq()) {
        const auto& items = refs->items();
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Node& r = items[i];
            if (!r.is_map()) continue;
            std::string base = "ownerReferences[" + std::to_string(i) + "]";
            const Node* av = r.find("apiVersion");
            if (text_of(av).empty())
                required(r.mark(), base + ".apiVersion", "must not be empty");
            else if (!group_version_ok(av->text()) || av->text().back() == '/')
                invalid(*av, av->mark(), base + ".apiVersion", "must be <group>/<version> or <version>");
            for (const char* f : {"kind", "name", "uid"})
                if (text_of(r.find(f)).empty()) required(r.mark(), base + "." + f, "must not be empty");
        }
    }
    if (const Node* fins = meta.find("finalizers"); fins && fins->is_seq()) {
        bool orphan = false, foreground = false;
        for (const auto& f : fins->items()) {
            if (!f.is_string()) continue;
            if (std::string msg = check_qualified_name(f.text()); !msg.empty())
                invalid(f, f.mark(), "finalizers", msg);
            orphan |= f.text() == "orphan";
            foreground |= f.text() == "foregroundDeletion";
        }
        if (orphan && foreground)
            invalid(*fins, fins->mark(), "finalizers", "finalizer orphan and foregroundDeletion cannot be both set");
    }
}

}  // namespace queueforge::openapi
