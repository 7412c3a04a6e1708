#pragma once
// Label selectors, taints and tolerations: the types of the model and the one
// matcher core that the simulator (namespaceSelector, flavor nodeLabels and
// node affinity), validate's rules (namespaceSelector against Namespaces) and
// policy match conditions (objectSelector/namespaceSelector against an
// object's labels) share. What each of them does with an operator the API
// would refuse differs (the simulator fails the match, a rule reports the
// selector, a policy condition ignores it), so the core says "unknown" and
// leaves that to the caller.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::model {

using Labels = std::map<std::string, std::string>;

struct SelectorRequirement {
    std::string key;
    std::string op;  // In, NotIn, Exists, DoesNotExist (Gt, Lt in node affinity)
    std::vector<std::string> values;
    friend bool operator==(const SelectorRequirement&, const SelectorRequirement&) = default;
};

// metav1.LabelSelector; `present` is false for a null selector.
struct LabelSelector {
    bool present = false;
    Labels match_labels;
    std::vector<SelectorRequirement> expressions;
    friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

struct Taint {
    std::string key, value, effect, time_added;
    friend bool operator==(const Taint&, const Taint&) = default;
};
struct Toleration {
    std::string key, op, value, effect;
    friend bool operator==(const Toleration&, const Toleration&) = default;
};

enum class Operators {
    LabelSelector,  // In, NotIn, Exists, DoesNotExist (labels.Requirement)
    NodeSelector,   // those and Gt, Lt (corev1 NodeSelectorRequirement)
};

// One requirement against a label set (apimachinery labels.Requirement.Matches;
// Gt/Lt compare the label and the single value as int64, as
// component-helpers' node affinity does). nullopt for an operator outside
// `ops`. Values are not validated here (In with no values matches nothing).
std::optional<bool> requirement_matches(std::string_view key, std::string_view op,
                                        const std::vector<std::string>& values, const Labels& labels,
                                        Operators ops = Operators::LabelSelector);

// matchLabels entry: the label is there with exactly this value.
bool label_matches(const std::string& key, const std::string& value, const Labels& labels);

// corev1 Toleration.ToleratesTaint.
bool tolerates(const Toleration& t, const Taint& taint);

}  // namespace queueforge::model
