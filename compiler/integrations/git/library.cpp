#include "integrations/git/library.hpp"

#ifndef QF_LIBGIT2_LINKED
#include <dlfcn.h>
#endif

namespace queueforge::git::detail {

// Two ways to reach libgit2, chosen at build time:
//  - default (dev builds, the dynamic CLI): dlopen at run time, so commands
//    that never touch git start without libgit2 installed;
//  - QF_LIBGIT2_LINKED (QUEUEFORGE_RELEASE_STATIC, the fully static release
//    binary): libgit2's archive is linked in and called directly, since a
//    static executable cannot dlopen a shared library safely.
std::shared_ptr<const Library> Library::load(std::string& error) {
    std::shared_ptr<Library> lib(new Library());
#ifdef QF_LIBGIT2_LINKED
#define QF_GIT_FN(name) lib->api.name = &::name;
#include "integrations/git/functions.inc"
#undef QF_GIT_FN
#else
    // The soname queueforge was built against first (the ABI its declarations
    // describe), then whatever libgit2.so the system has.
    for (const char* name : {QF_LIBGIT2_SONAME, "libgit2.so"}) {
        lib->handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (lib->handle_) break;
    }
    if (!lib->handle_) {
        error = std::string("git-aware commands need libgit2 (") + QF_LIBGIT2_SONAME +
                "; Debian/Ubuntu: apt-get install libgit2-1.5), which could not be loaded: " + dlerror();
        return nullptr;
    }
    bool ok = true;
#define QF_GIT_FN(name)                                                                          \
    lib->api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib->handle_, #name));            \
    if (!lib->api.name) {                                                                        \
        error = "libgit2 has no " #name "; queueforge needs libgit2 1.1 or later";              \
        ok = false;                                                                              \
    }
#include "integrations/git/functions.inc"
#undef QF_GIT_FN
    if (!ok) return nullptr;
#endif
    if (lib->api.git_libgit2_init() < 0) {
        error = lib->last_error("libgit2 could not be initialised");
        return nullptr;
    }
    lib->initialised_ = true;
    return lib;
}

Library::~Library() {
    if (initialised_) api.git_libgit2_shutdown();
#ifndef QF_LIBGIT2_LINKED
    if (handle_) dlclose(handle_);
#endif
}

std::string Library::last_error(const std::string& fallback) const {
    const git_error* e = api.git_error_last ? api.git_error_last() : nullptr;
    return e && e->message ? std::string(e->message) : fallback;
}

}  // namespace queueforge::git::detail
