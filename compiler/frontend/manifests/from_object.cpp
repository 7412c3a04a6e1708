#include <queueforge/frontend/manifests.hpp>

namespace queueforge {

Resource resource_of(Object o, const std::string& file) {
    Resource r;
    r.file = file;
    r.doc = std::move(o.doc);
    r.doc.set_mark(o.origin);
    r.ref = {std::move(o.api_version), std::move(o.kind), std::move(o.namespace_), std::move(o.name)};
    return r;
}

}  // namespace queueforge
