#pragma once
// Turns yaml-cpp parser events into Node trees, enforcing the loader's limits
// as the events arrive so that hostile input is cut off early instead of
// being materialised first.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace queueforge::yaml_detail {

// Thrown by TreeBuilder out of a yaml-cpp callback to abandon the parse once
// an error has been reported; caught in load_yaml and never seen outside.
struct StopParsing {};

class TreeBuilder final : public YAML::EventHandler {
public:
    // `text` is what yaml-cpp parses; column_shift is added to columns on the
    // first line (a stripped BOM).
    TreeBuilder(const std::string& path, std::string_view text, Diagnostics& diags, const LoadOptions& opts,
                int column_shift);

    std::vector<Document> take_documents() { return std::move(docs_); }
    bool had_errors() const { return errors_ > 0; }
    // Stream offset of the last quoted or block scalar seen.
    std::optional<std::size_t> last_quoted_offset() const { return last_quoted_; }
    Mark to_mark(const YAML::Mark& m) const;
    // Reports through the builder so the error budget applies.
    void error(Mark at, std::string message, std::string rule);

    void OnDocumentStart(const YAML::Mark& mark) override;
    void OnDocumentEnd() override;
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override;
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override;
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override;
    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override;
    void OnSequenceEnd() override;
    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override;
    void OnMapEnd() override;
    void OnAnchor(const YAML::Mark& mark, const std::string& name) override;

private:
    struct Frame {
        Node node;
        YAML::anchor_t anchor = 0;
        std::size_t nodes_before = 0;  // stream node count when the frame opened
        int child_height = 0;
        // Map state: the key waiting for its value.
        bool have_key = false;
        bool drop_value = false;  // the key was rejected; parse its value but discard it
        std::string key;
        Mark key_mark;
        bool block = false;  // block (not flow) mapping
        // Where yaml-cpp saw the key, unshifted, for indentation checks.
        int key_line = -1;
        int key_col = -1;
        // Built only for large maps, where a linear duplicate search would be
        // quadratic.
        std::unordered_map<std::string, std::size_t> index;

        const Node::Entry* find_entry(const std::string& k);
    };
    struct Anchored {
        Node node;
        std::size_t nodes = 0;
        int height = 0;
    };

    [[noreturn]] void fatal(Mark at, std::string message, std::string rule);
    bool expecting_key() const;
    void count_node(Mark at);
    void open(Node n, const std::string& tag, YAML::anchor_t anchor, bool block);
    void close();
    void attach(Node n, YAML::anchor_t anchor, std::size_t nodes, int height);
    void accept_key(const Node& key_node, const std::string& source, bool plain, const YAML::Mark& raw);
    void reject_key(Mark at);
    void check_collection_tag(const std::string& tag, bool is_map, Mark at);
    void name_anchor(YAML::anchor_t anchor);
    std::string alias_name(YAML::anchor_t anchor) const;

    void check_value_indent(const YAML::Mark& mark, bool is_seq);

    const std::string& path_;
    std::string_view text_;
    Diagnostics& diags_;
    const LoadOptions& opts_;
    int column_shift_;

    std::vector<Document> docs_;
    std::vector<Frame> frames_;
    std::unordered_map<YAML::anchor_t, Anchored> anchors_;
    // yaml-cpp reports anchors by number; names are only for messages.
    std::unordered_map<YAML::anchor_t, std::string> anchor_names_;
    std::string pending_anchor_name_;
    std::optional<Node> root_;
    Mark doc_start_;
    int doc_index_ = 0;

    std::size_t total_nodes_ = 0;  // whole stream, aliases expanded
    std::size_t event_nodes_ = 0;  // nodes yaml-cpp reported, aliases not expanded
    std::size_t doc_nodes_ = 0;
    std::size_t doc_alias_nodes_ = 0;
    int errors_ = 0;
    std::optional<std::size_t> last_quoted_;
};

}  // namespace queueforge::yaml_detail
