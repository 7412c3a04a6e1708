#pragma once
// Checks an import round: the objects the inferred site builds against the
// input objects they should reproduce, modulo CRD defaults, equivalent
// spellings and queueforge's own labels and annotations.
#include "integrations/import/model.hpp"

#include <queueforge/base/object.hpp>

namespace queueforge::importer {

struct Finding {
    Severity severity = Severity::Warning;
    std::size_t item = 0;
    Mark mark;
    std::string message;
    std::string rule;
};

struct Comparison {
    std::vector<std::pair<std::size_t, std::string>> exclude;  // items the site cannot reproduce, why
    std::map<std::size_t, Patch> additions;                     // fields only a patch can carry
    std::vector<Finding> findings;                              // differences accepted as they are
};

Comparison compare(const std::vector<Object>& generated, const Model& model, const std::vector<Item>& items);

// The object with CRD defaults filled in and equivalent spellings made one
// (Borrow = MayStopSearch, 1024Mi = 1Gi, cohort = cohortName, ...).
Node normalized(const Node& doc, Kind kind);

}  // namespace queueforge::importer
