#pragma once
// Deferring SIGINT and SIGTERM while queueforge has something to clean up
// (a staging folder): while an InterruptGuard lives, the two signals only
// record that they arrived; the owner polls interrupted() at safe points,
// removes what it created with ordinary (not async-signal-safe) code, and
// then calls reraise() so the process still ends by the signal, with the
// exit status a shell expects (130 for Ctrl-C).
//
// The one piece of global mutable state is the sig_atomic_t the handler
// sets: a signal handler has no other way to talk to the program. Guards do
// not nest (write_objects is not re-entrant with itself).
#include <csignal>

namespace queueforge::io {

class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    // The signal received since the guard was made, or 0.
    int interrupted() const;
    // Restores the previous handlers and raises the signal received again;
    // with the default handler the process ends here.
    void reraise();

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
    bool restored_ = false;
    void restore();
};

}  // namespace queueforge::io
