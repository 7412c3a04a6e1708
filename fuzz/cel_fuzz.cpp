// CEL: parse, then evaluate against an activation shaped like what policies
// and CRD rules see (`object`, `oldObject`, `params`, plain variables). Both
// must end in a value or an error value, never a crash, within the cost limit.
#include "fuzz_util.hpp"

#include <queueforge/checks/cel.hpp>
#include <queueforge/base/yaml_load.hpp>

namespace {

const queueforge::cel::Activation& activation() {
    using namespace queueforge;
    static const cel::Activation act = [] {
        const std::string object = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-a
  labels: {team: a, "kueue.x-k8s.io/queue": "q"}
spec:
  cohortName: all
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: "9", borrowingLimit: 500m}
      - {name: memory, nominalQuota: 36Gi}
      - {name: nvidia.com/gpu, nominalQuota: 4}
  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
  stopPolicy: None
)";
        Diagnostics diags;
        auto docs = load_yaml("object.yaml", object, diags);
        cel::Activation a;
        a.emplace("object", cel::from_node(docs.at(0).root));
        a.emplace("oldObject", cel::Value());
        a.emplace("params", cel::from_node(docs.at(0).root.find("spec")->find("resourceGroups")->items()[0]));
        a.emplace("x", cel::Value::integer(7));
        a.emplace("s", cel::Value::string("hello, world"));
        return a;
    }();
    return act;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    if (size > 4096) return 0;  // expressions are short; the nesting limit bounds the rest
    const std::string expr = fuzz::text_of(data, size);
    auto compiled = cel::compile(expr);
    if (auto* program = std::get_if<cel::Program>(&compiled)) {
        cel::EvalOptions eo;
        eo.cost_limit = 100'000;
        (void)program->eval(activation(), eo).debug_string();
    } else {
        (void)std::get<cel::ParseError>(compiled).to_string();
    }
    return 0;
}
