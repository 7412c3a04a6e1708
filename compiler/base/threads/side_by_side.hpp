#pragma once
// Two pieces of work at once: `beside` on a thread of its own, `here` on
// the caller's. Without a thread to be had, `beside` runs first and then
// `here`, on the caller's thread. Either way both have finished when this
// returns, and an exception of `beside` is rethrown here (after `here`
// finished). The caller keeps the two from writing what the other reads and
// joins their results in the order one thread would give.
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

namespace queueforge {

template <class Beside, class Here>
void side_by_side(Beside&& beside, Here&& here) {
    std::exception_ptr failed;
    {
        std::optional<std::jthread> second;  // joined when the block ends, also on an exception of `here`
        try {
            second.emplace([&] {
                try {
                    beside();
                } catch (...) {
                    failed = std::current_exception();
                }
            });
        } catch (const std::system_error&) {
            beside();
        }
        here();
    }
    if (failed) std::rethrow_exception(failed);
}

}  // namespace queueforge
