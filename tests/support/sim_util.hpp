#pragma once
// Running the simulator on YAML text, shared by the sim_*_test files.
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

namespace qf_sim {

struct Run {
    queueforge::scheduler::Result result;
    queueforge::Diagnostics diags;

    // `key` is a workload name, or "namespace/name".
    const queueforge::scheduler::WorkloadOutcome& wl(const std::string& key) const {
        const bool qualified = key.find('/') != std::string::npos;
        for (const auto& w : result.workloads)
            if ((qualified ? w.namespace_ + "/" + w.name : w.name) == key) return w;
        FAIL("no workload " << key);
        throw std::logic_error("unreachable");
    }
    // The flavor of `res` in the workload's first podSet ("" when none).
    std::string flavor(const std::string& key, const std::string& res = "cpu") const {
        const auto& w = wl(key);
        return w.assignments.empty() || !w.assignments[0].flavors.count(res) ? "" : w.assignments[0].flavors.at(res);
    }
    const queueforge::Diagnostic* find_rule(const std::string& rule) const {
        for (const auto& d : diags.all())
            if (d.rule == rule) return &d;
        return nullptr;
    }
    bool has_rule(const std::string& rule) const { return find_rule(rule) != nullptr; }
};

inline Run run(const std::string& yaml, queueforge::scheduler::Options opts = {}, const std::string& file = "sim.yaml") {
    Run r;
    queueforge::LoadedResources lr;
    queueforge::load_resources_from_text(file, yaml, lr, r.diags);
    r.result = queueforge::scheduler::simulate(lr.resources, opts, r.diags);
    return r;
}

inline Run one_cycle(const std::string& yaml) { return run(yaml, {.max_cycles = 1}); }

}  // namespace qf_sim
