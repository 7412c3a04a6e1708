// The Configuration inside Kueue's kueue-manager-config ConfigMap, read as an
// object of its own with positions in the ConfigMap's file.
//
// Kueue reads the file controller_manager_config.yaml that the ConfigMap is
// mounted as with a strict decoder (kubernetes-sigs/kueue pkg/config/config.go
// fromFile: runtime.DecodeInto with serializer.EnableStrict): text that is not
// YAML, not a map, or not a config.kueue.x-k8s.io Configuration stops the
// manager from starting.
#include <queueforge/base/yaml_load.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <cstddef>

namespace queueforge::platform {

namespace {

constexpr const char* kRule = "kueue-config.embedded";

// Where a literal block scalar's content lies in the file.
struct Block {
    int first_line = 0;  // file line of the string's line 1
    int indent = 0;      // columns stripped from each content line
};

// The offset of a 1-based line's start, or npos.
std::size_t line_start(const std::string& text, int line) {
    std::size_t pos = 0;
    for (int l = 1; l < line; ++l) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return pos;
        ++pos;
    }
    return pos;
}

// The block scalar whose indicator is at `at` (the scalar's mark), when it is
// a literal one (`|`, `|-`, `|+`, `|2`, ...) whose content lines are the
// string's lines; nullopt for anything else (quoted, plain, folded `>`).
std::optional<Block> literal_block(const std::string& text, Mark at) {
    if (!at.known() || at.file) return std::nullopt;
    const std::size_t start = line_start(text, at.line);
    if (start == std::string::npos) return std::nullopt;
    const std::size_t p = start + static_cast<std::size_t>(at.col - 1);
    if (p >= text.size() || text[p] != '|') return std::nullopt;
    // The header: chomping and indentation indicators, then a comment or
    // nothing up to the end of the line.
    std::size_t q = p + 1;
    int explicit_indent = 0;
    while (q < text.size() && (text[q] == '-' || text[q] == '+' || (text[q] >= '1' && text[q] <= '9'))) {
        if (text[q] >= '1' && text[q] <= '9') explicit_indent = text[q] - '0';
        ++q;
    }
    const std::size_t eol = text.find('\n', q);
    if (eol == std::string::npos) return std::nullopt;  // no content
    Block b;
    b.first_line = at.line + 1;
    if (explicit_indent > 0) {
        // Relative to the indentation of the line that holds the key.
        std::size_t k = start;
        while (k < text.size() && text[k] == ' ') ++k;
        b.indent = static_cast<int>(k - start) + explicit_indent;
        return b;
    }
    // Auto-detected: the indentation of the first line that is not empty.
    std::size_t line = eol + 1;
    while (line < text.size()) {
        std::size_t k = line;
        while (k < text.size() && text[k] == ' ') ++k;
        if (k < text.size() && text[k] != '\n' && text[k] != '\r') {
            b.indent = static_cast<int>(k - line);
            return b;
        }
        if (k >= text.size()) break;
        line = text.find('\n', k);
        if (line == std::string::npos) break;
        ++line;
    }
    return std::nullopt;
}

// A position inside the string, as a position in the file.
Mark to_file(Mark inner, const std::optional<Block>& block, Mark scalar) {
    if (!block || !inner.known()) return scalar;
    return Mark{block->first_line + inner.line - 1, block->indent + inner.col, {}};
}

void remark(Node& n, const std::optional<Block>& block, Mark scalar) {
    n.set_mark(to_file(n.mark(), block, scalar));
    if (n.is_map())
        for (auto& e : n.entries()) {
            e.set_key_mark(to_file(e.key_mark(), block, scalar));
            remark(e.value, block, scalar);
        }
    else if (n.is_seq())
        for (auto& i : n.items()) remark(i, block, scalar);
}

}  // namespace

bool is_kueue_manager_config_map(const Resource& r) {
    return r.ref.api_version == "v1" && r.ref.kind == "ConfigMap" && r.ref.name == kKueueManagerConfigMap;
}

std::optional<Resource> embedded_kueue_configuration(const Resource& cm, const std::string* source, Diagnostics& diags) {
    const Node* data = cm.doc.is_map() ? cm.doc.find("data") : nullptr;
    const Node* value = data && data->is_map() ? data->find(kKueueManagerConfigKey) : nullptr;
    if (!value) return std::nullopt;
    const std::string path = "data." + std::string(kKueueManagerConfigKey);
    const std::string& what = path;  // the finding names the ConfigMap as its object
    auto error = [&](Mark at, std::string message, std::string rule) {
        diags.add({Severity::Error, cm.file, at.known() ? at : mark_of(value, cm), std::move(message), std::move(rule),
                   cm.ref, path});
    };
    if (!value->is_string()) {
        error(value->mark(),
              what + " must be a string holding Kueue's Configuration as YAML, not " +
                  "a " + std::string(Node::kind_name(value->kind())) +
                  ": the API server refuses a ConfigMap whose data values are not strings",
              kRule);
        return std::nullopt;
    }
    const std::optional<Block> block = source ? literal_block(*source, value->mark()) : std::nullopt;
    const Mark scalar = value->mark();

    Diagnostics inner;
    auto docs = load_yaml(cm.file + " (" + std::string(kKueueManagerConfigKey) + ")", value->text(), inner);
    if (inner.has_errors()) {
        for (const auto& d : inner.all())
            diags.add({d.severity, cm.file, to_file(d.mark, block, scalar),
                       what + ": " + d.message + " (Kueue does not start with a configuration it cannot read)",
                       d.rule, cm.ref, path});
        return std::nullopt;
    }
    if (docs.empty()) {
        error(scalar, what + " is empty: Kueue's manager needs a Configuration (apiVersion config.kueue.x-k8s.io/v1beta2, kind Configuration) and does not start without one", kRule);
        return std::nullopt;
    }
    if (docs.size() > 1)
        diags.add({Severity::Warning, cm.file, to_file(docs[1].start, block, scalar),
                   what + " holds " + std::to_string(docs.size()) +
                       " YAML documents; Kueue reads the first one only and ignores the rest",
                   kRule, cm.ref, path});
    Node doc = std::move(docs[0].root);
    remark(doc, block, scalar);
    if (!doc.is_map()) {
        error(doc.mark(), what + " is a YAML " + std::string(Node::kind_name(doc.kind())) +
                              ", not a Configuration: Kueue does not start with it", kRule);
        return std::nullopt;
    }
    const Node* api = doc.find("apiVersion");
    const Node* kind = doc.find("kind");
    const std::string api_text = api && api->is_scalar() ? api->text().str() : std::string();
    const std::string kind_text = kind && kind->is_scalar() ? kind->text().str() : std::string();
    const bool known_api = api_text == "config.kueue.x-k8s.io/v1beta1" || api_text == "config.kueue.x-k8s.io/v1beta2";
    if (!known_api || kind_text != "Configuration") {
        const Node* at = !known_api ? api : kind;
        error(at ? at->mark() : doc.mark(),
              what + " has apiVersion " + (api_text.empty() ? std::string("(none)") : "\"" + api_text + "\"") +
                  " and kind " + (kind_text.empty() ? std::string("(none)") : "\"" + kind_text + "\"") +
                  ": Kueue decodes it strictly as a config.kueue.x-k8s.io/v1beta1 or v1beta2 Configuration and does "
                  "not start with anything else",
              kRule);
        return std::nullopt;
    }
    Resource out;
    out.file = cm.file;
    out.doc_index = cm.doc_index;
    out.doc = std::move(doc);
    out.ref.api_version = api_text;
    out.ref.kind = kind_text;
    return out;
}

}  // namespace queueforge::platform
