#pragma once
// Site file → site model. Checks shape and types (unknown fields with a
// "did you mean", wrong types naming the expected one, bad quantities and
// names) and reports every problem found, not only the first.
#include <queueforge/diagnostics.hpp>
#include <queueforge/site.hpp>
#include <queueforge/yaml_load.hpp>

#include <optional>
#include <string>

namespace queueforge {

inline constexpr const char* kSiteApiVersion = "queueforge.io/v1alpha1";

bool is_site_document(const Node& root);

// Returns the model when the document has no errors (warnings allowed).
std::optional<site::Site> parse_site(const Node& root, const std::string& file, Diagnostics& diags);

// Parses the text of a site file: exactly one Site document is expected.
std::optional<site::Site> parse_site_text(const std::string& path, const std::string& text, Diagnostics& diags);

// Reads and parses a site file: exactly one Site document is expected.
std::optional<site::Site> load_site_file(const std::string& path, Diagnostics& diags,
                                         std::string* text_out = nullptr);

}  // namespace queueforge
