#pragma once
// libgit2, loaded at run time (or linked in with QF_LIBGIT2_LINKED, see
// library.cpp). The function pointers carry libgit2's own declarations
// (decltype of the header's functions), so a call through them is
// type-checked exactly like a direct call.
#include <git2.h>

#include <memory>
#include <string>

namespace queueforge::git::detail {

struct Api {
#define QF_GIT_FN(name) decltype(&::name) name = nullptr;
#include "integrations/git/functions.inc"
#undef QF_GIT_FN
};

class Library {
public:
    // Loads libgit2 and initialises it; nullptr and `error` when it is not
    // installed. Each holder keeps it loaded (and initialised) while alive.
    static std::shared_ptr<const Library> load(std::string& error);
    ~Library();
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    Api api;
    // The last libgit2 error message, or `fallback`.
    std::string last_error(const std::string& fallback) const;

private:
    Library() = default;
    void* handle_ = nullptr;
    bool initialised_ = false;
};

}  // namespace queueforge::git::detail
