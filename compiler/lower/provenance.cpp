#include "lower/provenance.hpp"

#include <queueforge/base/provenance.hpp>

namespace queueforge::lower {

Trace Trace::field(std::string_view key) const {
    Trace t = *this;
    if (depth_ == Provenance::kMaxDepth) t.too_deep_ = true;
    else t.steps_[t.depth_++] = {key, 0, false};
    return t;
}

Trace Trace::item(std::size_t i) const {
    Trace t = *this;
    if (depth_ == Provenance::kMaxDepth) t.too_deep_ = true;
    else t.steps_[t.depth_++] = {{}, static_cast<std::uint32_t>(i), true};
    return t;
}

void Trace::set(Origin o) const {
    if (too_deep_) return;
    out_->push_back({steps_, depth_, std::move(o)});
}

void Trace::set_copied(const Node& n) const {
    if (n.mark().known()) set(n.mark(), Derivation::Written);
    if (n.is_map())
        for (const auto& e : n.entries()) field(e.key).set_copied(e.value);
    else if (n.is_seq())
        for (std::size_t i = 0; i < n.items().size(); ++i) item(i).set_copied(n.items()[i]);
}

void Trace::set_from_template(const Node& n, const Origin& o, const std::string& file) const {
    set(o.mark, o.how, o.rule + (n.mark().known() ? " (" + file + " line " + std::to_string(n.mark().line) + ")" : ""));
    if (n.is_map())
        for (const auto& e : n.entries()) field(e.key).set_from_template(e.value, o, file);
    else if (n.is_seq())
        for (std::size_t i = 0; i < n.items().size(); ++i) item(i).set_from_template(n.items()[i], o, file);
}

void attach(Object& o, std::vector<PendingRecord>& records) {
    o.provenance.reserve(o.provenance.size() + records.size());
    for (auto& r : records) {
        Provenance::Address address{};
        const Node* n = &o.doc;
        bool found = true;
        for (std::size_t d = 0; d < r.depth && found; ++d) {
            const PathStep& s = r.steps[d];
            std::size_t position = 0;
            found = false;
            if (s.is_index && n->is_seq() && s.index < n->items().size()) {
                position = s.index;
                n = &n->items()[s.index];
                found = true;
            } else if (!s.is_index && n->is_map()) {
                const auto& entries = n->entries();
                for (std::size_t i = 0; i < entries.size(); ++i)
                    if (entries[i].key == s.key) {
                        position = i;
                        n = &entries[i].value;
                        found = true;
                        break;
                    }
            }
            // Positions past 254 cannot be addressed (object.hpp): the node inherits.
            if (found && position >= 255) found = false;
            if (found) address[d] = static_cast<std::uint8_t>(position);
        }
        if (found) provenance::record_at(o, address, r.depth, r.from.mark, r.from.how, r.from.rule);
    }
    // Sites with thousands of objects keep only what they use.
    o.provenance.shrink_to_fit();
    o.rules.shrink_to_fit();
    records.clear();
}

Origin target_origin(const Context& ctx, std::string rule) {
    return {ctx.site.target.mark, Derivation::Target, "target " + ctx.target.name + ": " + std::move(rule)};
}

}  // namespace queueforge::lower
