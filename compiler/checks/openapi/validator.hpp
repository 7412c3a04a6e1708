#pragma once
// The walk behind validate(): one pass over the value that does what the API
// server does in three (pruning for unknown fields, kube-openapi schema
// validation, list-type and ObjectMeta checks). Internal to compiler/checks/openapi.
#include "checks/openapi/schema.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/checks/openapi.hpp>

#include <cstdio>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::openapi {

// The current path, kept inline up to 256 bytes so that validating an
// object does not allocate unless it has findings.
class PathBuffer {
public:
    explicit PathBuffer(std::string_view init) { append(init); }
    void append(std::string_view s) {
        if (!on_heap_ && len_ + s.size() <= sizeof inline_) {
            if (!s.empty()) std::memcpy(inline_ + len_, s.data(), s.size());
            len_ += s.size();
            return;
        }
        if (!on_heap_) {
            heap_.assign(inline_, len_);
            on_heap_ = true;
        }
        heap_.append(s);
        len_ = heap_.size();
    }
    void resize(std::size_t n) {
        len_ = n;
        if (on_heap_) heap_.resize(n);
    }
    std::string_view view() const { return on_heap_ ? std::string_view(heap_) : std::string_view(inline_, len_); }
    bool empty() const { return len_ == 0; }
    std::size_t size() const { return len_; }

private:
    char inline_[256];
    std::size_t len_ = 0;
    bool on_heap_ = false;
    std::string heap_;
};

class Validator {
public:
    // `out` nullptr: only decide whether the value conforms, stopping at the
    // first error.
    Validator(const std::string& file, const ObjectRef& ref, const ValidateOptions& opts, std::vector<Diagnostic>* out,
              std::string_view path);

    // A whole Kubernetes object: apiVersion, kind and metadata are handled as
    // the API server handles them at a resource root.
    void resource(const Schema& s, const Node& doc);
    // Any value, plain OpenAPI.
    void value(const Schema& s, const Node& v) { node(s, v, 0, 0); }

    std::size_t errors_seen() const { return seen_; }

private:
    friend class PathGuard;

    const std::string& file_;
    const ObjectRef& ref_;
    const ValidateOptions& opts_;
    std::vector<Diagnostic>* out_;
    PathBuffer path_;
    std::size_t recorded_ = 0;  // errors in out_
    std::size_t seen_ = 0;      // errors found, recorded or not
    bool stop_ = false;
    // Walking the structural skeleton rather than an allOf/anyOf/oneOf/not
    // branch: only the skeleton prunes (unknown fields), checks list types and
    // ObjectMeta, and warns.
    bool main_ = true;

    bool recording() const { return out_ != nullptr; }
    // The path as messages print it.
    std::string_view where() const { return path_.empty() ? std::string_view("<root>") : path_.view(); }
    std::string path() const { return std::string(path_.view()); }
    // The path of a field of the current value.
    std::string child(std::string_view name) const {
        return path_.empty() ? std::string(name) : path() + "." + std::string(name);
    }

    // Records an error (message built only when recording) at the current path.
    template <class MakeMessage>
    void error(Mark mark, const char* rule, MakeMessage&& make) {
        error_at(mark, rule, path_.view(), make);
    }
    template <class MakeMessage>
    void error_at(Mark mark, const char* rule, std::string_view path, MakeMessage&& make) {
        ++seen_;
        if (!out_ || recorded_ >= opts_.max_errors) {
            stop_ = true;
            return;
        }
        push(Severity::Error, mark, rule, path, make());
        if (++recorded_ >= opts_.max_errors) stop_ = true;
    }
    template <class MakeMessage>
    void warning(Mark mark, const char* rule, MakeMessage&& make) {
        if (out_ && main_) push(Severity::Warning, mark, rule, path_.view(), make());
    }
    void push(Severity sev, Mark mark, const char* rule, std::string_view path, std::string message);

    // How the parent hands a value down.
    static constexpr unsigned kResourceRoot = 1;  // apiVersion/kind/metadata handling
    static constexpr unsigned kPreserved = 2;     // item of a preserving array: keeps unknown fields

    void node(const Schema& s, const Node& v, int depth, unsigned flags);
    void type_check(const Schema& s, const Node& v);
    void junctors(const Schema& s, const Node& v, int depth);
    void string_checks(const Schema& s, const Node& v);
    void number_checks(const Schema& s, const Node& v);
    void array(const Schema& s, const Node& v, int depth, unsigned flags);
    void object(const Schema& s, const Node& v, int depth, unsigned flags);
    void enum_check(const Schema& s, const Node& v);
    void unknown_subtree(const Node& v);
    void list_type(const Schema& s, const Node& v);
    // `known`: the object schema whose properties the key is not among (for
    // a did-you-mean hint), or nullptr where nothing is declared.
    void report_unknown(const Node::Entry& e, const Schema* known = nullptr);

    // A null the API server removes before validating: non-nullable, no default.
    bool pruned_null(const Schema* sub, const Node& value) const {
        return sub && value.is_null() && opts_.prune_nulls && !sub->nullable && !sub->default_value;
    }

    // Junctor branches.
    bool probe(const Schema& b, const Node& v, int depth);
    void branch(const Schema& b, const Node& v, int depth);
    void merge_best(const std::vector<std::unique_ptr<Schema>>& branches, const Node& v, int depth);

    // objectmeta.cpp
    void object_meta(const Schema& s, const Node& obj, bool resource_root);
    void embedded_type_meta(const Node& obj);
    void meta_fields(const Node& meta, bool resource_root);
};

// Appends ".key" or "[i]" to the validator's path for the guard's lifetime.
class PathGuard {
public:
    PathGuard(Validator& v, std::string_view key) : v_(v), len_(v.path_.size()) {
        if (!v.path_.empty()) v.path_.append(".");
        v.path_.append(key);
    }
    PathGuard(Validator& v, std::size_t index) : v_(v), len_(v.path_.size()) {
        // to_chars, not snprintf: this runs for every list item validated.
        char buf[24];
        buf[0] = '[';
        char* end = std::to_chars(buf + 1, buf + sizeof buf - 1, index).ptr;
        *end++ = ']';
        v.path_.append(std::string_view(buf, static_cast<std::size_t>(end - buf)));
    }
    ~PathGuard() { v_.path_.resize(len_); }
    PathGuard(const PathGuard&) = delete;
    PathGuard& operator=(const PathGuard&) = delete;

private:
    Validator& v_;
    std::size_t len_;
};

// The ObjectMeta fields the API server decodes metadata into, as a schema.
const Schema& object_meta_schema();

}  // namespace queueforge::openapi
