#pragma once
// An object a check read: what `validate` returns beside its findings, so
// that reports (JUnit) can list the objects that passed too.
#include <queueforge/base/diagnostics.hpp>

#include <string>

namespace queueforge {

struct CheckedObject {
    std::string file;
    ObjectRef object;
};

}  // namespace queueforge
