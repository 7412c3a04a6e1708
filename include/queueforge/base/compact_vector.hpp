#pragma once
// A vector in 16 bytes (a std::vector is 24): a pointer and 32-bit size and
// capacity. A tree's sequences and maps keep their items and entries in one,
// so a node is 40 bytes instead of 56. The subset of std::vector's interface
// the code uses; iterators are pointers. T must be nothrow move-constructible.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace queueforge {

template <class T>
class CompactVector {
public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<T*>;
    using const_reverse_iterator = std::reverse_iterator<const T*>;

    CompactVector() noexcept = default;
    CompactVector(std::initializer_list<T> init) {
        reserve(init.size());
        for (const T& v : init) push_back(v);
    }
    // Takes the elements of `v`, in a block of exactly their number.
    explicit CompactVector(std::vector<T>&& v) {
        reserve(v.size());
        for (T& x : v) unchecked_push(std::move(x));
        v.clear();
    }
    CompactVector(const CompactVector& o) {
        reserve(o.size_);
        for (const T& v : o) unchecked_push(v);
    }
    CompactVector(CompactVector&& o) noexcept : data_(o.data_), size_(o.size_), cap_(o.cap_) {
        o.data_ = nullptr;
        o.size_ = o.cap_ = 0;
    }
    CompactVector& operator=(const CompactVector& o) {
        if (this != &o) {
            CompactVector copy(o);
            swap(copy);
        }
        return *this;
    }
    CompactVector& operator=(CompactVector&& o) noexcept {
        if (this != &o) {
            CompactVector gone(std::move(*this));
            swap(o);
        }
        return *this;
    }
    ~CompactVector() { destroy_all(); }

    void swap(CompactVector& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(cap_, o.cap_);
    }

    size_type size() const noexcept { return size_; }
    size_type capacity() const noexcept { return cap_; }
    bool empty() const noexcept { return size_ == 0; }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }

    iterator begin() noexcept { return data_; }
    iterator end() noexcept { return data_ + size_; }
    const_iterator begin() const noexcept { return data_; }
    const_iterator end() const noexcept { return data_ + size_; }
    const_iterator cbegin() const noexcept { return data_; }
    const_iterator cend() const noexcept { return data_ + size_; }
    reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
    reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
    const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

    T& operator[](size_type i) noexcept { return data_[i]; }
    const T& operator[](size_type i) const noexcept { return data_[i]; }
    T& at(size_type i) {
        if (i >= size_) throw std::out_of_range("CompactVector::at");
        return data_[i];
    }
    const T& at(size_type i) const {
        if (i >= size_) throw std::out_of_range("CompactVector::at");
        return data_[i];
    }
    T& front() noexcept { return data_[0]; }
    const T& front() const noexcept { return data_[0]; }
    T& back() noexcept { return data_[size_ - 1]; }
    const T& back() const noexcept { return data_[size_ - 1]; }

    void reserve(size_type n) {
        static_assert(std::is_nothrow_move_constructible_v<T>, "CompactVector moves elements when it grows");
        if (n <= cap_) return;
        if (n > UINT32_MAX) throw std::length_error("CompactVector: more than 2^32 elements");
        T* fresh = std::allocator<T>().allocate(n);
        for (std::uint32_t i = 0; i < size_; ++i) {
            std::construct_at(fresh + i, std::move(data_[i]));
            std::destroy_at(data_ + i);
        }
        if (data_) std::allocator<T>().deallocate(data_, cap_);
        data_ = fresh;
        cap_ = static_cast<std::uint32_t>(n);
    }
    void shrink_to_fit() {
        if (cap_ == size_) return;
        CompactVector fit;
        fit.reserve(size_);
        for (T& v : *this) fit.unchecked_push(std::move(v));
        swap(fit);
    }

    void push_back(const T& v) { emplace_back(v); }
    void push_back(T&& v) { emplace_back(std::move(v)); }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        if (size_ == cap_) {
            // The value may live in this vector: build it before growing.
            T v(std::forward<Args>(args)...);
            grow();
            return unchecked_push(std::move(v));
        }
        return unchecked_push(std::forward<Args>(args)...);
    }
    void pop_back() noexcept { std::destroy_at(data_ + --size_); }
    void clear() noexcept {
        std::destroy(data_, data_ + size_);
        size_ = 0;
    }

    iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
    iterator erase(const_iterator first, const_iterator last) {
        T* f = data_ + (first - data_);
        T* l = data_ + (last - data_);
        if (f == l) return f;
        T* new_end = std::move(l, end(), f);
        std::destroy(new_end, end());
        size_ = static_cast<std::uint32_t>(new_end - data_);
        return f;
    }
    iterator insert(const_iterator pos, T v) {
        const auto at = pos - data_;
        emplace_back(std::move(v));
        std::rotate(data_ + at, end() - 1, end());
        return data_ + at;
    }

    friend bool operator==(const CompactVector& a, const CompactVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    template <class... Args>
    T& unchecked_push(Args&&... args) {
        T* p = std::construct_at(data_ + size_, std::forward<Args>(args)...);
        ++size_;
        return *p;
    }
    void grow() { reserve(cap_ == 0 ? 1 : static_cast<size_type>(cap_) * 2); }
    void destroy_all() noexcept {
        if (!data_) return;
        std::destroy(data_, data_ + size_);
        std::allocator<T>().deallocate(data_, cap_);
        data_ = nullptr;
        size_ = cap_ = 0;
    }

    T* data_ = nullptr;
    std::uint32_t size_ = 0;
    std::uint32_t cap_ = 0;
};

}  // namespace queueforge
