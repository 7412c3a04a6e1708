#include <queueforge/backends/explain.hpp>

namespace queueforge::explain {

namespace {

bool under(const std::string& path, const std::string& prefix) {
    if (prefix.empty()) return true;
    return path.size() > prefix.size() && path.starts_with(prefix) &&
           (path[prefix.size()] == '.' || path[prefix.size()] == '[');
}

}  // namespace

Answer answer(const std::vector<Object>& objects, const Query& q, const RenderOptions& opts) {
    Answer a;
    const Object* o = find_object(objects, q.object, a.error);
    if (!o) return a;
    Resolver r(*o);
    std::vector<FieldOrigin> fields;
    if (q.path.empty()) {
        fields = r.leaves();
    } else {
        auto f = r.field(q.path);
        if (!f) {
            a.error = unknown_field_message(r, q.path);
            return a;
        }
        const Node* v = f->value;
        const bool collection = v && (v->is_map() || v->is_seq()) && v->size() > 0;
        const std::string prefix = f->path;
        fields.push_back(std::move(*f));
        if (collection)
            for (auto& leaf : r.leaves())
                if (under(leaf.path, prefix)) fields.push_back(std::move(leaf));
    }
    a.found = true;
    a.output = q.json ? render_json(r, fields, opts) : render_text(r, fields, opts);
    return a;
}

}  // namespace queueforge::explain
