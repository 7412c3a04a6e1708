// The CLI's allocator settings, read by jemalloc when it starts (CMakeLists:
// QUEUEFORGE_JEMALLOC); without jemalloc nothing reads them. MALLOC_CONF in
// the environment still overrides them.
//
// Freed pages go back to the system after 1 s instead of jemalloc's 10 s:
// `build` of 10,000 teams frees its site's YAML tree and lowers into fresh
// memory, and the longer delay kept both at once (peak 502 MiB against 434,
// with the same CPU time); validate's peak is the same either way.
//
// jemalloc asks for transparent huge pages on the memory it maps (thp), and
// each command says whether it takes them (Command::huge_pages, main.cpp):
// the first touch of each 4 KiB page costs a fault, and on virtual machines
// that trap to the hypervisor one fault can take 10-16 us. `validate` of
// 100,000 objects touches about 180 MiB, and faults were a fifth of its CPU
// time; with huge pages it took 0.6-0.9 s where it took 1.4-1.5 s without,
// in the same hour (as a whole process, with the policies; its peak grows
// by about 15 MiB, to 183-191). The other commands are not faster with them
// and `build` of 10,000 teams would peak near its bound, so they run
// without.
#include "cli.hpp"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

extern "C" {
// jemalloc's documented hook: a global of exactly this name and type.
const char* malloc_conf = "dirty_decay_ms:1000,thp:always";  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
}

namespace queueforge::cli {

void use_huge_pages(bool on) {
#if defined(__linux__) && defined(PR_SET_THP_DISABLE)
    // Applies to the pages the process touches from now on; a kernel
    // without transparent huge pages ignores it.
    (void)::prctl(PR_SET_THP_DISABLE, on ? 0 : 1, 0, 0, 0);
#else
    (void)on;
#endif
}

}  // namespace queueforge::cli
