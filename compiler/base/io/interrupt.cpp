#include "interrupt.hpp"

namespace queueforge::io {

namespace {

// Written only by the handler and by the guard's constructor (see the header).
volatile std::sig_atomic_t g_received = 0;

extern "C" void record_signal(int sig) { g_received = sig; }

}  // namespace

InterruptGuard::InterruptGuard() {
    g_received = 0;
    struct sigaction sa {};
    sa.sa_handler = record_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    // A signal the process was told to ignore (`queueforge build ... &` in a
    // script ignores SIGINT) stays ignored.
    if (old_int_.sa_handler == SIG_IGN) sigaction(SIGINT, &old_int_, nullptr);
    if (old_term_.sa_handler == SIG_IGN) sigaction(SIGTERM, &old_term_, nullptr);
}

InterruptGuard::~InterruptGuard() { restore(); }

void InterruptGuard::restore() {
    if (restored_) return;
    restored_ = true;
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
}

int InterruptGuard::interrupted() const { return g_received; }

void InterruptGuard::reraise() {
    const int sig = g_received;
    restore();
    if (sig != 0) std::raise(sig);
}

}  // namespace queueforge::io
