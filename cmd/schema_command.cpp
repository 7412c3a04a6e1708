#include "cli.hpp"

#include <queueforge/base/templates.hpp>

#include <iostream>

namespace queueforge::cli {

Command add_schema(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("schema", "Print the site file's JSON Schema (for editors)");
    sub->footer(R"(Example:
  queueforge schema > site.schema.json
  # then in the site file:  # yaml-language-server: $schema=site.schema.json

Exit codes: 0 ok.)");
    return {sub, [] {
                auto s = find_embedded("schemas/site.schema.json");
                if (!s) return static_cast<int>(kInvalid);
                std::cout << *s;
                return static_cast<int>(kOk);
            }};
}

}  // namespace queueforge::cli
