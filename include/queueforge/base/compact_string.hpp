#pragma once
// The text of a tree's scalars and map keys in 16 bytes (a std::string is
// 32): up to 15 bytes are kept inline, longer text in one heap block of its
// size and a 4-byte count of the strings that share it. Trees hold one per
// scalar and per key, millions for a large stream, so this size is paid per
// node.
//
// Immutable once built (assign a new value to change it), so a copy shares
// the block instead of copying the text: an object's file and apiVersion,
// and the findings about it, hold the text once. Copies and releases of one
// block from several threads are safe (the count is atomic), as reading is.
// Reads as a std::string_view, to which it converts implicitly.
#include <atomic>
#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace queueforge {

class CompactString {
public:
    static constexpr std::size_t inline_capacity = 15;

    CompactString() noexcept { set_inline_size(0); }
    CompactString(std::string_view s) { init(s); }  // NOLINT: implicit, like std::string's
    CompactString(const char* s) : CompactString(std::string_view(s)) {}
    CompactString(const std::string& s) : CompactString(std::string_view(s)) {}
    CompactString(const CompactString& o) noexcept { share(o); }
    CompactString(CompactString&& o) noexcept {
        std::memcpy(raw_, o.raw_, sizeof raw_);
        o.set_inline_size(0);
    }
    CompactString& operator=(const CompactString& o) {
        if (this != &o) {
            CompactString copy(o);
            swap(copy);
        }
        return *this;
    }
    CompactString& operator=(CompactString&& o) noexcept {
        if (this != &o) {
            release();
            std::memcpy(raw_, o.raw_, sizeof raw_);
            o.set_inline_size(0);
        }
        return *this;
    }
    CompactString& operator=(std::string_view s) {
        CompactString copy(s);
        swap(copy);
        return *this;
    }
    CompactString& operator=(const char* s) { return *this = std::string_view(s); }
    CompactString& operator=(const std::string& s) { return *this = std::string_view(s); }
    ~CompactString() { release(); }

    void swap(CompactString& o) noexcept {
        unsigned char t[sizeof raw_];
        std::memcpy(t, raw_, sizeof raw_);
        std::memcpy(raw_, o.raw_, sizeof raw_);
        std::memcpy(o.raw_, t, sizeof raw_);
    }

    std::string_view view() const noexcept { return {data(), size()}; }
    operator std::string_view() const noexcept { return view(); }  // NOLINT: implicit by design
    // Implicit too, so that a tree's text passes where a std::string is
    // taken (a copy, as it always was where one was made).
    operator std::string() const { return str(); }  // NOLINT: implicit by design
    std::string str() const { return std::string(view()); }

    const char* data() const noexcept {
        if (!on_heap()) return reinterpret_cast<const char*>(raw_);
        return block() + kCount;
    }
    std::size_t size() const noexcept {
        if (!on_heap()) return inline_capacity - raw_[kTag];
        std::uint32_t n;
        std::memcpy(&n, raw_ + sizeof(char*), sizeof n);
        return n;
    }
    std::size_t length() const noexcept { return size(); }
    bool empty() const noexcept { return size() == 0; }
    char operator[](std::size_t i) const noexcept { return data()[i]; }
    char front() const noexcept { return data()[0]; }
    char back() const noexcept { return data()[size() - 1]; }
    const char* begin() const noexcept { return data(); }
    const char* end() const noexcept { return data() + size(); }

    // The std::string_view reads most callers use, here so that they read as
    // they did on a std::string.
    static constexpr std::size_t npos = std::string_view::npos;
    std::size_t find(std::string_view s, std::size_t pos = 0) const noexcept { return view().find(s, pos); }
    std::size_t find(char c, std::size_t pos = 0) const noexcept { return view().find(c, pos); }
    std::size_t rfind(std::string_view s, std::size_t pos = npos) const noexcept { return view().rfind(s, pos); }
    std::size_t rfind(char c, std::size_t pos = npos) const noexcept { return view().rfind(c, pos); }
    std::size_t find_first_of(std::string_view s, std::size_t pos = 0) const noexcept {
        return view().find_first_of(s, pos);
    }
    std::size_t find_first_not_of(std::string_view s, std::size_t pos = 0) const noexcept {
        return view().find_first_not_of(s, pos);
    }
    std::size_t find_last_of(std::string_view s, std::size_t pos = npos) const noexcept {
        return view().find_last_of(s, pos);
    }
    bool starts_with(std::string_view s) const noexcept { return view().starts_with(s); }
    bool starts_with(char c) const noexcept { return view().starts_with(c); }
    bool ends_with(std::string_view s) const noexcept { return view().ends_with(s); }
    bool ends_with(char c) const noexcept { return view().ends_with(c); }
    // A copy, as std::string::substr gives.
    std::string substr(std::size_t pos, std::size_t n = npos) const { return std::string(view().substr(pos, n)); }
    int compare(std::string_view s) const noexcept { return view().compare(s); }

    friend bool operator==(const CompactString& a, const CompactString& b) noexcept { return a.view() == b.view(); }
    friend bool operator==(const CompactString& a, std::string_view b) noexcept { return a.view() == b; }
    friend bool operator==(const CompactString& a, const char* b) noexcept { return a.view() == b; }
    friend bool operator==(const CompactString& a, const std::string& b) noexcept { return a.view() == b; }
    friend std::strong_ordering operator<=>(const CompactString& a, const CompactString& b) noexcept {
        return a.view() <=> b.view();
    }
    friend std::strong_ordering operator<=>(const CompactString& a, std::string_view b) noexcept {
        return a.view() <=> b;
    }
    friend std::strong_ordering operator<=>(const CompactString& a, const char* b) noexcept {
        return a.view() <=> std::string_view(b);
    }
    friend std::strong_ordering operator<=>(const CompactString& a, const std::string& b) noexcept {
        return a.view() <=> std::string_view(b);
    }

    friend std::string operator+(const CompactString& a, std::string_view b) { return join(a.view(), b); }
    friend std::string operator+(const CompactString& a, const char* b) { return join(a.view(), b); }
    friend std::string operator+(const CompactString& a, const std::string& b) { return join(a.view(), b); }
    friend std::string operator+(const CompactString& a, char b) { return join(a.view(), std::string_view(&b, 1)); }
    friend std::string operator+(std::string_view a, const CompactString& b) { return join(a, b.view()); }
    friend std::string operator+(const char* a, const CompactString& b) { return join(a, b.view()); }
    friend std::string operator+(const std::string& a, const CompactString& b) { return join(a, b.view()); }
    friend std::string operator+(std::string&& a, const CompactString& b) { return std::move(a.append(b.view())); }
    friend std::string operator+(char a, const CompactString& b) { return join(std::string_view(&a, 1), b.view()); }
    friend std::string operator+(const CompactString& a, const CompactString& b) { return join(a.view(), b.view()); }

    friend std::ostream& operator<<(std::ostream& os, const CompactString& s) { return os << s.view(); }

private:
    // raw_[15] is the tag: 15 - size for inline text (0..15), kHeap when the
    // text is on the heap (a pointer to its block in raw_[0..8), its size in
    // raw_[8..12)). A block is the count of strings sharing it, then the text.
    static constexpr std::size_t kTag = 15;
    static constexpr unsigned char kHeap = 0xFF;
    using Count = std::atomic<std::uint32_t>;
    static constexpr std::size_t kCount = sizeof(Count);
    static_assert(Count::is_always_lock_free && alignof(Count) <= kCount);

    char* block() const noexcept {
        char* p;
        std::memcpy(&p, raw_, sizeof p);
        return p;
    }
    Count& count() const noexcept { return *std::launder(reinterpret_cast<Count*>(block())); }
    void share(const CompactString& o) noexcept {
        std::memcpy(raw_, o.raw_, sizeof raw_);
        if (on_heap()) count().fetch_add(1, std::memory_order_relaxed);
    }

    bool on_heap() const noexcept { return raw_[kTag] == kHeap; }
    void set_inline_size(std::size_t n) noexcept { raw_[kTag] = static_cast<unsigned char>(inline_capacity - n); }

    void init(std::string_view s) {
        if (s.size() <= inline_capacity) {
            if (!s.empty()) std::memcpy(raw_, s.data(), s.size());
            set_inline_size(s.size());
            return;
        }
        if (s.size() > UINT32_MAX) throw std::length_error("text longer than 4 GiB");
        char* p = static_cast<char*>(::operator new(kCount + s.size()));
        new (p) Count(1);
        std::memcpy(p + kCount, s.data(), s.size());
        const auto n = static_cast<std::uint32_t>(s.size());
        std::memcpy(raw_, &p, sizeof p);
        std::memcpy(raw_ + sizeof p, &n, sizeof n);
        raw_[kTag] = kHeap;
    }
    void release() noexcept {
        // The last of the strings sharing a block frees it; acquire-release
        // so that the others' reads are done before it goes.
        if (on_heap() && count().fetch_sub(1, std::memory_order_acq_rel) == 1) {
            count().~Count();
            ::operator delete(block());
        }
        set_inline_size(0);
    }
    static std::string join(std::string_view a, std::string_view b) {
        std::string out;
        out.reserve(a.size() + b.size());
        out.append(a).append(b);
        return out;
    }

    alignas(8) unsigned char raw_[16];
};

static_assert(sizeof(CompactString) == 16);

}  // namespace queueforge

template <>
struct std::hash<queueforge::CompactString> {
    std::size_t operator()(const queueforge::CompactString& s) const noexcept {
        return std::hash<std::string_view>{}(s.view());
    }
};
