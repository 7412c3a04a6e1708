#pragma once
// `match.targets` of a queueforge Policy: which targets a policy applies to.
//
//   range := alternative ("||" alternative)*
//   alternative := term (" " term)*          all terms must hold
//   term := [op] name                        op: >= > <= < = != (default =)
//   name := rhoai-X.Y[.Z] | openshift-ai-X.Y[.Z] | kueue-X.Y[.Z] | rhoai | kubernetes
//
// "rhoai-X.Y" compares the OpenShift AI release (false on a plain Kubernetes
// target), "kueue-X.Y" the Kueue release of any target, "rhoai"/"kubernetes"
// the platform. Without a patch a version names its whole minor line, so
// "<=rhoai-2.16" holds on 2.16.2, as target.hpp's rows do.
#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::policy {

struct TargetTerm {
    enum class Op { Eq, Ne, Lt, Le, Gt, Ge };
    enum class Subject { Rhoai, Kueue, AnyRhoai, AnyKubernetes };
    Op op = Op::Eq;
    Subject subject = Subject::Rhoai;
    Version version;
    bool has_patch = false;
};

struct TargetRange {
    std::string text;
    std::vector<std::vector<TargetTerm>> alternatives;
    bool matches(const Target& t) const;
};

// nullopt and a message in `error` when `text` is not a range.
std::optional<TargetRange> parse_target_range(std::string_view text, std::string& error);

}  // namespace queueforge::policy
