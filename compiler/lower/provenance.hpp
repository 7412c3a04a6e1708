#pragma once
// Recording provenance while a pass builds an object: a Trace stands for one
// field path of the object and collects records under it, so the line that
// sets a value can say where it came from without spelling paths by hand.
// Records wait as paths until the object's document is complete and are then
// attached in the compact form of object.hpp (add_object does this). Nothing
// here allocates per record except a rule's text: large sites make hundreds
// of thousands of records.
#include "lower/context.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge::lower {

// Where a value came from, before it is placed at a path.
struct Origin {
    Mark mark;
    Derivation how = Derivation::Written;
    std::string rule;  // empty for Written: "written in the site"
};

// One step of a field path: a map key or a list index. Keys are views: what
// they point at (literals, the site model, the nodes being built) must live
// until add_object.
struct PathStep {
    std::string_view key;
    std::uint32_t index = 0;
    bool is_index = false;
};

struct PendingRecord {
    std::array<PathStep, Provenance::kMaxDepth> steps{};
    std::uint8_t depth = 0;
    Origin from;
};

class Trace {
public:
    explicit Trace(std::vector<PendingRecord>& out) : out_(&out) {}

    Trace field(std::string_view key) const;  // a map entry under this path
    Trace item(std::size_t i) const;          // a sequence item under this path

    // Records this path. Paths deeper than Provenance::kMaxDepth are not
    // recorded: their nodes inherit.
    void set(Origin o) const;
    void set(Mark m, Derivation how, std::string rule = {}) const { set(Origin{m, how, std::move(rule)}); }
    // Records the entry `key` under this path.
    void set(std::string_view key, Origin o) const { field(key).set(std::move(o)); }
    void set(std::string_view key, Mark m, Derivation how, std::string rule = {}) const {
        field(key).set(Origin{m, how, std::move(rule)});
    }
    // A subtree copied from the site as a YAML node: each node with a known
    // mark gets a Written record with that mark.
    void set_copied(const Node& n) const;
    // A subtree read from a template file: every node gets `o`, its rule
    // naming the line of `file` the node comes from.
    void set_from_template(const Node& n, const Origin& o, const std::string& file) const;

private:
    std::vector<PendingRecord>* out_;
    std::array<PathStep, Provenance::kMaxDepth> steps_{};
    std::uint8_t depth_ = 0;
    bool too_deep_ = false;
};

// Turns the records into the object's own (object.hpp); a path that names no
// node of the finished document is dropped. Later records win.
void attach(Object& o, std::vector<PendingRecord>& records);

// A rule of the target, at the site's `target:`.
Origin target_origin(const Context& ctx, std::string rule);

}  // namespace queueforge::lower
