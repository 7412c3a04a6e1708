#pragma once
// One emitted Kubernetes object with what the emitter needs to place it.
#include <queueforge/base/mark.hpp>
#include <queueforge/base/node.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace queueforge {

// How a value was derived from the site. The kind is for tools
// (`explain -o json`); Provenance::rule carries the wording.
enum class Derivation : std::uint8_t {
    Object,        // why the object exists ("team llm: one ClusterQueue per team")
    Written,       // copied from the site (a quantity in its canonical spelling)
    Share,         // a share of a pool's capacity, resolved exactly
    TeamDefaults,  // taken from spec.teamDefaults
    Default,       // a default (Kueue's CRD default or queueforge's), written explicitly
    Target,        // a rule of the target: API versions, templates, field spellings
    ZeroFilled,    // quota 0 for a resource the pool's quota entry lacks
    Formed,        // put together from several site values (resource groups, selectors)
    Generated,     // labels, annotations and names queueforge adds to every object
};

const char* derivation_name(Derivation d);  // "written", "share", ... (compiler/base/provenance/resolve.cpp)

// Where one value of an object came from: the site position of the element
// it was derived from and the rule that derived it. Positions are in the site
// file the object was lowered from, like Object::origin. 32 bytes and no
// allocation, since a large site has hundreds of thousands of them (the
// 12 bytes of address, depth and derivation and the rule index fill the
// 16 before the Mark, so there is no padding): explain.hpp turns them into
// field paths and texts.
struct Provenance {
    static constexpr std::size_t kMaxDepth = 10;
    using Address = std::array<std::uint8_t, kMaxDepth>;
    // Which node of Object::doc: its position among its parent's entries or
    // items at each level from the root (depth 0 is the object itself).
    // Entries added to a map later (patches) leave every address valid. A
    // node deeper than kMaxDepth or at a position past 254 has no record of
    // its own and answers with its nearest recorded ancestor's.
    Address node{};
    std::uint8_t depth = 0;
    Derivation how = Derivation::Written;
    std::uint32_t rule = 0;  // 1-based index into Object::rules; 0: none ("written in the site")
    Mark mark;
};
static_assert(sizeof(Provenance) <= 32, "Provenance is stored once per recorded value: keep it unpadded");

struct Object {
    std::string api_version;
    std::string kind;
    std::string name;
    std::string namespace_;  // empty for cluster-scoped kinds
    Node doc;                // the whole manifest, keys in emission order
    Mark origin;             // the site element it was lowered from
    int wave = 0;            // Argo CD sync wave, also the stream order
    int kind_rank = 0;       // order of kinds within a wave (conventions.md 5.5)
    // Recorded where lowering sets a value; a later record for the same node
    // replaces an earlier one. A field without a record of its own answers
    // with its node's mark when the node was copied from the site as written
    // (built nodes carry no mark), else with its nearest recorded ancestor's
    // record, else with `origin`. explain.hpp resolves this.
    std::vector<Provenance> provenance;
    std::vector<std::string> rules;  // the rule texts records point at, each once
};

}  // namespace queueforge
