#include "tree_builder.hpp"

#include "input_check.hpp"
#include "scalar_resolve.hpp"

#include <algorithm>

namespace queueforge::yaml_detail {

namespace {

constexpr int kMaxErrors = 50;
// Below this many entries a linear scan beats hashing.
constexpr std::size_t kIndexThreshold = 16;
constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

// yaml-cpp expands "!!x" to the core-schema URI; show what the user wrote.
std::string display_tag(const std::string& tag) {
    if (tag.compare(0, kCoreTagPrefix.size(), kCoreTagPrefix) == 0) return "!!" + tag.substr(kCoreTagPrefix.size());
    return tag;
}

// A key or value quoted for a message: short, one line, control characters
// visible.
std::string for_message(const std::string& s) {
    constexpr std::size_t kMax = 60;
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7F) {
            out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "?";
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > kMax) out += "...";
    return out + "\"";
}

// go-yaml v2's allowedAliasRatio: what share of a document's nodes may come
// from alias expansion before Kubernetes rejects it as excessive aliasing.
double allowed_alias_ratio(std::size_t decoded) {
    constexpr double kLow = 400000, kHigh = 4000000;
    const auto d = static_cast<double>(decoded);
    if (d <= kLow) return 0.99;
    if (d >= kHigh) return 0.10;
    return 0.99 - 0.89 * ((d - kLow) / (kHigh - kLow));
}

}  // namespace

const Node::Entry* TreeBuilder::Frame::find_entry(const std::string& k) {
    const auto& entries = node.entries();
    if (entries.size() <= kIndexThreshold) {
        for (const auto& e : entries)
            if (e.key == k) return &e;
        return nullptr;
    }
    // Entries are only ever appended (duplicates are dropped), so the index
    // catches up incrementally.
    for (std::size_t i = index.size(); i < entries.size(); ++i) index.emplace(entries[i].key, i);
    auto it = index.find(k);
    return it == index.end() ? nullptr : &entries[it->second];
}

TreeBuilder::TreeBuilder(const std::string& path, std::string_view text, Diagnostics& diags, const LoadOptions& opts,
                         int column_shift)
    : path_(path), text_(text), diags_(diags), opts_(opts), column_shift_(column_shift) {}

Mark TreeBuilder::to_mark(const YAML::Mark& m) const {
    if (m.is_null() || m.line < 0 || m.column < 0) return {};
    return Mark{m.line + 1, m.column + 1 + (m.line == 0 ? column_shift_ : 0)};
}

void TreeBuilder::error(Mark at, std::string message, std::string rule) {
    diags_.error(path_, at, std::move(message), std::move(rule));
    if (++errors_ >= kMaxErrors) {
        diags_.error(path_, at, "too many errors; giving up on this file", "yaml.syntax");
        throw StopParsing{};
    }
}

void TreeBuilder::fatal(Mark at, std::string message, std::string rule) {
    diags_.error(path_, at, std::move(message), std::move(rule));
    ++errors_;
    throw StopParsing{};
}

bool TreeBuilder::expecting_key() const {
    return !frames_.empty() && frames_.back().node.is_map() && !frames_.back().have_key;
}

void TreeBuilder::count_node(Mark at) {
    // Each node yaml-cpp reports (aliases aside) takes at least a byte of the
    // text; far more means its parser is looping -- it reports nulls without
    // end on a line starting with ",:" -- so stop at once instead of filling
    // max_nodes (found by fuzz/yaml_load_fuzz.cpp).
    if (++event_nodes_ > 4 * text_.size() + 64)
        fatal(at, "invalid YAML: the parser cannot make sense of the text here", "yaml.syntax");
    if (total_nodes_ + 1 > opts_.max_nodes)
        fatal(at, "the stream has more than " + std::to_string(opts_.max_nodes) + " nodes", "yaml.too-large");
    ++total_nodes_;
    ++doc_nodes_;
}

// A block-map value on a later line must be indented deeper than its key
// (a list may start at the key's column). yaml-cpp sometimes accepts a line
// at the key's column as the value ("name:" then "ca # c"); YAML and
// Kubernetes read such a line as the next key and reject it without ':'.
void TreeBuilder::check_value_indent(const YAML::Mark& mark, bool is_seq) {
    if (frames_.empty()) return;
    const Frame& f = frames_.back();
    if (!f.block || !f.have_key || f.key_line < 0 || mark.line <= f.key_line) return;
    if (is_seq ? mark.column >= f.key_col : mark.column > f.key_col) return;
    error(to_mark(mark),
          "this line is not indented under " + for_message(f.key) + ", so YAML reads it as a new key without ':'",
          "yaml.syntax");
}

void TreeBuilder::OnDocumentStart(const YAML::Mark& mark) {
    if (doc_index_ > 0 && mark.pos >= 0 && starts_document_without_marker(text_, static_cast<std::size_t>(mark.pos)))
        fatal(to_mark(mark),
              "content after the end of the previous document; check the indentation, or start a new "
              "document with ---",
              "yaml.syntax");
    // Anchors are scoped to their document (yaml-cpp restarts their ids).
    anchors_.clear();
    anchor_names_.clear();
    pending_anchor_name_.clear();
    frames_.clear();
    root_.reset();
    doc_start_ = to_mark(mark);
    doc_nodes_ = 0;
    doc_alias_nodes_ = 0;
}

void TreeBuilder::OnDocumentEnd() {
    // A lone `---`, a comment-only document or an explicit null is not an
    // object; kubectl skips those too.
    if (root_ && !root_->is_null()) docs_.push_back(Document{std::move(*root_), doc_start_, doc_index_});
    root_.reset();
    ++doc_index_;
}

void TreeBuilder::OnAnchor(const YAML::Mark&, const std::string& name) { pending_anchor_name_ = name; }

// OnAnchor arrives just before the event of the node it names.
void TreeBuilder::name_anchor(YAML::anchor_t anchor) {
    if (anchor && !pending_anchor_name_.empty()) anchor_names_[anchor] = std::move(pending_anchor_name_);
    pending_anchor_name_.clear();
}

std::string TreeBuilder::alias_name(YAML::anchor_t anchor) const {
    auto it = anchor_names_.find(anchor);
    return it == anchor_names_.end() ? "alias" : "alias *" + it->second;
}

void TreeBuilder::OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) {
    name_anchor(anchor);
    const Mark at = to_mark(mark);
    count_node(at);
    Node n = Node::null_value(at);
    if (!frames_.empty() && frames_.back().block && frames_.back().have_key && frames_.back().key_mark == at) {
        // yaml-cpp reads a block-map line without ':' ("  labels") as a key
        // with a null value and puts the value where the key is; YAML and
        // Kubernetes reject such a line.
        error(at, "expected ':' after " + for_message(frames_.back().key) + "; is this line's indentation off?",
              "yaml.syntax");
    }
    if (expecting_key()) {
        error(at, "mapping key is empty or null; Kubernetes accepts only string keys", "yaml.non-string-key");
        if (anchor) anchors_[anchor] = Anchored{n, 1, 0};
        reject_key(at);
        return;
    }
    attach(std::move(n), anchor, 1, 0);
}

void TreeBuilder::OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                           const std::string& value) {
    using K = Node::Kind;
    name_anchor(anchor);
    const Mark at = to_mark(mark);
    count_node(at);
    const bool plain = tag == "?";
    if (!plain && mark.pos >= 0) last_quoted_ = static_cast<std::size_t>(mark.pos);
    ResolvedScalar r;
    bool quoted = false;
    if (plain) {
        r = resolve_plain(value);
    } else if (tag == "!") {
        // yaml-cpp's non-specific tag: quoted or block scalar, always a string.
        r = {K::String, value};
        quoted = true;
    } else {
        const std::string shown = display_tag(tag);
        const ResolvedScalar as_plain = resolve_plain(value);
        auto wrong = [&](const char* what) {
            error(at, "cannot read " + for_message(value) + " as " + what + " (tag " + shown + ")", "yaml.tag");
            return ResolvedScalar{K::String, value};
        };
        if (shown == "!!str") {
            r = {K::String, value};
            quoted = true;
        } else if (shown == "!!int") {
            r = as_plain.kind == K::Int ? as_plain : wrong("an integer");
        } else if (shown == "!!float") {
            // go-yaml widens an integer to a float under !!float.
            r = (as_plain.kind == K::Int || as_plain.kind == K::Float) ? ResolvedScalar{K::Float, value}
                                                                      : wrong("a number");
        } else if (shown == "!!bool") {
            r = as_plain.kind == K::Bool ? as_plain : wrong("a boolean");
        } else if (shown == "!!null") {
            r = as_plain.kind == K::Null ? as_plain : wrong("null");
        } else {
            error(at,
                  "unsupported tag " + for_message(shown) +
                      "; only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are allowed",
                  "yaml.tag");
            r = {K::String, value};
        }
    }
    Node n = Node::scalar(r.kind, std::move(r.text), at, quoted);
    if (expecting_key()) {
        if (anchor) anchors_[anchor] = Anchored{n, 1, 0};
        accept_key(n, value, plain, mark);
        return;
    }
    check_value_indent(mark, false);
    attach(std::move(n), anchor, 1, 0);
}

void TreeBuilder::OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) {
    const Mark at = to_mark(mark);
    auto it = anchors_.find(anchor);
    if (it == anchors_.end())
        fatal(at, alias_name(anchor) + " refers to an anchor that encloses it; recursive structures are not supported",
              "yaml.alias");
    const Anchored& a = it->second;
    // All limits are checked before copying, so a billion-laughs document is
    // refused without ever allocating its expansion.
    if (total_nodes_ + a.nodes > opts_.max_nodes)
        fatal(at, "alias expansion exceeds " + std::to_string(opts_.max_nodes) + " nodes", "yaml.alias-budget");
    // The ratio rule is go-yaml v2's (decode.go), which Kubernetes applies per
    // document; it also keeps memory low long before max_nodes is reached.
    const std::size_t doc_nodes = doc_nodes_ + a.nodes;
    const std::size_t alias_nodes = doc_alias_nodes_ + a.nodes;
    if (alias_nodes > 100 && doc_nodes > 1000 &&
        static_cast<double>(alias_nodes) / static_cast<double>(doc_nodes) > allowed_alias_ratio(doc_nodes))
        fatal(at,
              "excessive aliasing: " + std::to_string(alias_nodes) + " of " + std::to_string(doc_nodes) +
                  " nodes in this document come from aliases (Kubernetes' YAML reader rejects this too)",
              "yaml.alias-budget");
    if (static_cast<long long>(frames_.size()) + a.height > opts_.max_depth)
        fatal(at, alias_name(anchor) + " expands to nesting deeper than " + std::to_string(opts_.max_depth) + " levels",
              "yaml.depth");
    total_nodes_ += a.nodes;
    doc_nodes_ = doc_nodes;
    doc_alias_nodes_ = alias_nodes;

    Node copy = a.node;
    copy.set_mark(at);
    if (expecting_key() && copy.is_scalar()) return accept_key(copy, copy.text(), false, mark);
    check_value_indent(mark, false);
    attach(std::move(copy), 0, a.nodes, a.height);
}

void TreeBuilder::check_collection_tag(const std::string& tag, bool is_map, Mark at) {
    if (tag == "?" || tag == "!" || tag.empty()) return;
    const std::string shown = display_tag(tag);
    if (shown == (is_map ? "!!map" : "!!seq")) return;
    error(at,
          "unsupported tag " + for_message(shown) + " on a " + (is_map ? "map" : "list") +
              "; only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are allowed",
          "yaml.tag");
}

void TreeBuilder::open(Node n, const std::string& tag, YAML::anchor_t anchor, bool block) {
    name_anchor(anchor);
    const Mark at = n.mark();
    // A collection in key position is reported when it is complete (attach),
    // so that runaway nesting or an unclosed bracket -- which yaml-cpp may
    // present as a key -- is reported as what it is.
    if (static_cast<long long>(frames_.size()) + 1 > opts_.max_depth)
        fatal(at, "nesting is deeper than " + std::to_string(opts_.max_depth) + " levels", "yaml.depth");
    check_collection_tag(tag, n.is_map(), at);
    const std::size_t before = total_nodes_;
    count_node(at);
    Frame f;
    f.node = std::move(n);
    f.anchor = anchor;
    f.nodes_before = before;
    f.block = block;
    frames_.push_back(std::move(f));
}

void TreeBuilder::close() {
    if (frames_.empty()) return;  // unbalanced events would be a yaml-cpp bug; do not crash on it
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (f.node.is_map() && f.have_key && !f.drop_value)
        f.node.entries().push_back(Node::Entry{std::move(f.key), f.key_mark, Node::null_value(f.key_mark)});
    attach(std::move(f.node), f.anchor, total_nodes_ - f.nodes_before, f.child_height + 1);
}

void TreeBuilder::OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                                  YAML::EmitterStyle::value style) {
    if (!expecting_key()) check_value_indent(mark, true);
    open(Node::sequence(to_mark(mark)), tag, anchor, style != YAML::EmitterStyle::Flow);
}

void TreeBuilder::OnSequenceEnd() { close(); }

void TreeBuilder::OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                             YAML::EmitterStyle::value style) {
    if (!expecting_key()) check_value_indent(mark, false);
    open(Node::mapping(to_mark(mark)), tag, anchor, style != YAML::EmitterStyle::Flow);
}

void TreeBuilder::OnMapEnd() { close(); }

void TreeBuilder::attach(Node n, YAML::anchor_t anchor, std::size_t nodes, int height) {
    if (anchor) anchors_[anchor] = Anchored{n, nodes, height};
    if (frames_.empty()) {
        root_ = std::move(n);
        return;
    }
    Frame& f = frames_.back();
    f.child_height = std::max(f.child_height, height);
    if (f.node.is_seq()) {
        f.node.push(std::move(n));
        return;
    }
    if (!f.have_key) {
        // Only collections get here: scalar keys go through accept_key.
        // Kubernetes objects are JSON, and a list or map cannot be a JSON key.
        error(n.mark(), std::string("mapping key must be a string, not a ") + Node::kind_name(n.kind()),
              "yaml.non-string-key");
        return reject_key(n.mark());
    }
    if (!f.drop_value)
        f.node.entries().push_back(Node::Entry{std::move(f.key), f.key_mark, std::move(n)});
    f.have_key = false;
    f.drop_value = false;
    f.key.clear();
}

void TreeBuilder::reject_key(Mark at) {
    Frame& f = frames_.back();
    f.have_key = true;
    f.drop_value = true;
    f.key.clear();
    f.key_mark = at;
    f.key_line = -1;  // the value is dropped; do not judge its indentation
}

void TreeBuilder::accept_key(const Node& key_node, const std::string& source, bool plain, const YAML::Mark& raw) {
    using K = Node::Kind;
    const Mark at = key_node.mark();
    // An explicit key ("? key", value after ": " on a later line) is
    // indented relative to the indicators, not the key text.
    const bool explicit_key = raw.pos >= raw.column && follows_explicit_key_indicator(
                                                            text_, static_cast<std::size_t>(raw.pos - raw.column),
                                                            static_cast<std::size_t>(raw.pos));
    frames_.back().key_line = explicit_key ? -1 : raw.line;
    frames_.back().key_col = raw.column;
    if (key_node.is_null()) {
        error(at, "mapping key is empty or null; Kubernetes accepts only string keys", "yaml.non-string-key");
        return reject_key(at);
    }
    if (plain && source == "<<") {
        error(at, "merge keys (<<) are not supported; write the keys out in full", "yaml.merge-key");
        return reject_key(at);
    }
    // Kubernetes turns non-string keys into their JSON spelling (yes -> "true",
    // 0x10 -> "16", 11e3 -> "11000"); do the same, and say so when that
    // changes what was written.
    const std::string key = key_node.kind() == K::Float ? float_key_spelling(key_node.text()) : key_node.text().str();
    if (key_node.kind() != K::String && plain && key != source)
        diags_.warning(path_, at,
                       "key " + for_message(source) + " is read as the " + Node::kind_name(key_node.kind()) + " " +
                           key + ", so the key becomes " + for_message(key) + "; quote it to keep it as written",
                       "yaml.non-string-key");
    Frame& f = frames_.back();
    if (const Node::Entry* first = f.find_entry(key)) {
        error(at,
              "duplicate key " + for_message(key) + " (first defined at line " + std::to_string(first->key_line) +
                  ", column " + std::to_string(first->key_col) + ")",
              "yaml.duplicate-key");
        return reject_key(at);
    }
    f.have_key = true;
    f.drop_value = false;
    f.key = key;
    f.key_mark = at;
}

}  // namespace queueforge::yaml_detail
