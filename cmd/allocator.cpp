// The CLI's allocator settings, read by jemalloc when it starts (CMakeLists:
// QUEUEFORGE_JEMALLOC); without jemalloc nothing reads them. MALLOC_CONF in
// the environment still overrides them.
//
// Freed pages go back to the system after 1 s instead of jemalloc's 10 s:
// `build` of 10,000 teams frees its site's YAML tree and lowers into fresh
// memory, and the longer delay kept both at once (peak 502 MiB against 434,
// with the same CPU time); validate's peak is the same either way.
extern "C" {
// jemalloc's documented hook: a global of exactly this name and type.
const char* malloc_conf = "dirty_decay_ms:1000";  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
}
