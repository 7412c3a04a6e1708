#include <queueforge/engines/scenarios.hpp>

namespace queueforge::scenarios {

Diagnostics findings(const Report& r) {
    Diagnostics d;
    for (const auto& s : r.workloads) {
        const auto& w = s.together;
        ObjectRef ref{"kueue.x-k8s.io/v1beta2", "Workload", w.namespace_, w.name};
        auto add = [&](const std::string& rule, std::string msg) {
            d.add({Severity::Error, w.file, w.mark, std::move(msg), rule, ref, ""});
        };
        if (s.expect && !s.expectation_met) add("sim.expectation", "expectation not met: " + s.expectation_detail);
        if (s.never_fits())
            add("sim.never-admitted", "does not fit even alone on the configured cluster" +
                                          (s.alone->message.empty() ? std::string() : ": " + s.alone->message));
        if (!s.node_shape_problem.empty()) add("sim.node-shape", s.node_shape_problem);
    }
    d.sort();
    return d;
}

}  // namespace queueforge::scenarios
