// Kueue admission conformance: the 144 cases of ../shared/kueue-conformance
// (translated from Kueue's own scheduler, flavor-assigner and preemption unit
// tests, see its README). Every case runs three ways: one scheduling cycle,
// until nothing changes (`fixpoint`), and with evictions completed between
// cycles (`fixpointWithEvictions`). The QuotaReserved=False reasons/messages
// and Preempted reasons/messages quoted in each case's notes are compared too.
#include <catch2/catch.hpp>

#include <queueforge/engines/scheduler.hpp>
#include <queueforge/base/yaml_load.hpp>

#include "test_util.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace queueforge;

namespace {

struct PodSetExp {
    int count = 0;
    std::map<std::string, std::string> flavors;
    bool operator==(const PodSetExp&) const = default;
};
struct AdmittedExp {
    std::string cq;
    std::map<std::string, PodSetExp> podsets;
    bool operator==(const AdmittedExp&) const = default;
};
using AdmittedMap = std::map<std::string, AdmittedExp>;

struct Fixpoint {
    AdmittedMap admitted;
    std::vector<std::string> pending, preempted;
};
struct FixpointEv {
    bool unstable = false;
    int cycles = 0;
    AdmittedMap admitted;
    std::vector<std::string> still, pending, evicted;
};
struct Note {
    std::string reason, message;
};
struct Expect {
    AdmittedMap admitted;
    std::vector<std::string> pending, preempted;
    std::map<std::string, std::vector<std::string>> active, inadmissible;
    bool has_queues = false;  // only the scheduler-test cases record queues
    std::optional<Fixpoint> fixpoint;
    std::optional<FixpointEv> fpe;
    bool fair_sharing = false;
    std::vector<std::string> strategies;
    std::map<std::string, Note> pending_notes, preempted_notes;
};

std::string text(const Node* n) { return n && n->is_scalar() && !n->is_null() ? n->text().str() : std::string(); }

std::vector<std::string> list(const Node* n) {
    std::vector<std::string> out;
    if (n && n->is_seq())
        for (const auto& i : n->items()) out.push_back(text(&i));
    std::sort(out.begin(), out.end());
    return out;
}

AdmittedMap admitted_map(const Node* n) {
    AdmittedMap out;
    if (!n || !n->is_map()) return out;
    for (const auto& e : n->entries()) {
        AdmittedExp a;
        a.cq = text(e.value.find("clusterQueue"));
        if (const Node* ps = e.value.find("podSets"); ps && ps->is_map())
            for (const auto& p : ps->entries()) {
                PodSetExp x;
                x.count = static_cast<int>(p.value.find("count") ? p.value.find("count")->as_int().value_or(-1) : -1);
                if (const Node* f = p.value.find("flavors"); f && f->is_map())
                    for (const auto& fe : f->entries()) x.flavors[fe.key] = text(&fe.value);
                a.podsets[p.key] = x;
            }
        out[e.key] = a;
    }
    return out;
}

void parse_notes(const std::string& notes, Expect& e) {
    std::istringstream in(notes);
    std::string line;
    const std::string pend = "the test expects QuotaReserved=False reason=";
    const std::string pre = "Preempted=True reason=";
    while (std::getline(in, line)) {
        auto colon = line.find(": ");
        if (line.rfind("Pending ", 0) == 0 && line.find(pend) != std::string::npos) {
            std::string key = line.substr(8, colon - 8);
            std::string rest = line.substr(line.find(pend) + pend.size());
            auto c = rest.find(": ");
            e.pending_notes[key] = {rest.substr(0, c), c == std::string::npos ? "" : rest.substr(c + 2)};
        } else if (line.rfind("Preempted ", 0) == 0 && line.find(pre) != std::string::npos) {
            std::string key = line.substr(10, colon - 10);
            std::string rest = line.substr(line.find(pre) + pre.size());
            auto c = rest.find(": ");
            e.preempted_notes[key] = {rest.substr(0, c), c == std::string::npos ? "" : rest.substr(c + 2)};
        }
    }
}

Expect read_expect(const fs::path& p) {
    Diagnostics d;
    auto docs = load_yaml(p.string(), qf_test::read_text(p), d);
    Expect e;
    if (docs.empty()) return e;
    const Node& r = docs[0].root;
    e.admitted = admitted_map(r.find("admitted"));
    e.pending = list(r.find("pending"));
    e.preempted = list(r.find("preempted"));
    if (const Node* q = r.find("queues"); q && q->is_map()) {
        e.has_queues = true;
        for (const char* k : {"active", "inadmissible"})
            if (const Node* m = q->find(k); m && m->is_map())
                for (const auto& c : m->entries()) (std::string(k) == "active" ? e.active : e.inadmissible)[c.key] = list(&c.value);
    }
    if (const Node* f = r.find("fixpoint"); f && f->is_map()) {
        Fixpoint fp;
        fp.admitted = admitted_map(f->find("admitted"));
        fp.pending = list(f->find("pending"));
        fp.preempted = list(f->find("preempted"));
        e.fixpoint = fp;
    }
    if (const Node* f = r.find("fixpointWithEvictions"); f && f->is_map()) {
        FixpointEv fp;
        fp.unstable = text(f->find("unstable")) == "true";
        fp.cycles = static_cast<int>(f->find("cycles") ? f->find("cycles")->as_int().value_or(0) : 0);
        fp.admitted = admitted_map(f->find("admitted"));
        fp.still = list(f->find("stillAdmitted"));
        fp.pending = list(f->find("pending"));
        if (const Node* ev = f->find("evicted"); ev && ev->is_seq())
            for (const auto& i : ev->items()) fp.evicted.push_back(text(&i));
        e.fpe = fp;
    }
    if (const Node* c = r.find("config"); c && c->is_map())
        if (const Node* fsn = c->find("fairSharing"); fsn && fsn->is_map()) {
            e.fair_sharing = text(fsn->find("enable")) == "true";
            if (const Node* st = fsn->find("preemptionStrategies"); st && st->is_seq())
                for (const auto& i : st->items()) e.strategies.push_back(text(&i));
        }
    parse_notes(text(r.find("notes")), e);
    return e;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return "[" + out + "]";
}

std::string describe(const AdmittedMap& m) {
    std::string out;
    for (const auto& [k, a] : m) {
        out += k + "->" + a.cq + "{";
        for (const auto& [ps, x] : a.podsets) {
            out += ps + ":" + std::to_string(x.count) + "(";
            for (const auto& [r, f] : x.flavors) out += r + "=" + f + " ";
            out += ")";
        }
        out += "} ";
    }
    return out;
}

AdmittedExp to_exp(const scheduler::WorkloadOutcome& w) {
    AdmittedExp a;
    a.cq = w.cluster_queue;
    for (const auto& ps : w.assignments) a.podsets[ps.name] = {ps.count, ps.flavors};
    return a;
}

std::string key(const scheduler::WorkloadOutcome& w) { return w.namespace_ + "/" + w.name; }

std::vector<Resource> load_case(const fs::path& dir, const Expect& e) {
    LoadedResources lr;
    Diagnostics d;
    load_resources_from_text((dir / "objects.yaml").string(), qf_test::read_text(dir / "objects.yaml"), lr, d);
    if (e.fair_sharing) {
        std::string cfg = "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing:\n  enable: true\n";
        if (!e.strategies.empty()) {
            cfg += "  preemptionStrategies:\n";
            for (const auto& s : e.strategies) cfg += "  - " + s + "\n";
        }
        load_resources_from_text("config.yaml", cfg, lr, d);
    }
    return std::move(lr.resources);
}

struct Tally {
    int run = 0, pass = 0;
    std::vector<std::string> failures;
};

}  // namespace

TEST_CASE("simulate: Kueue conformance cases (one cycle, fixpoint, fixpointWithEvictions)", "[simulate][conformance]") {
    auto shared = qf_test::shared_dir();
    if (!shared || !fs::exists(*shared / "kueue-conformance")) {
        WARN("skipped: ../shared (kueue-conformance) is not available");
        return;
    }
    std::vector<fs::path> cases;
    for (const auto& e : fs::directory_iterator(*shared / "kueue-conformance"))
        if (e.is_directory() && fs::exists(e.path() / "expect.yaml")) cases.push_back(e.path());
    std::sort(cases.begin(), cases.end());

    Tally one, fix, fpe, fpe_cycles, queues, notes_reason, notes_message, preempt_notes;
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& dir : cases) {
        const std::string name = dir.filename().string();
        Expect e = read_expect(dir / "expect.yaml");
        auto objects = load_case(dir, e);

        // (a) one cycle
        {
            Diagnostics d;
            auto r = scheduler::simulate(objects, {.max_cycles = 1}, d);
            AdmittedMap admitted;
            std::vector<std::string> pending, preempted;
            for (const auto& w : r.workloads) {
                if (w.admitted && !w.held_before) admitted[key(w)] = to_exp(w);
                if (!w.admitted) pending.push_back(key(w));
                if (w.preempted) preempted.push_back(key(w));
            }
            ++one.run;
            if (admitted == e.admitted && pending == e.pending && preempted == e.preempted) {
                ++one.pass;
            } else {
                one.failures.push_back(name + ": admitted " + describe(admitted) + " expected " + describe(e.admitted) +
                                       "; pending " + join(pending) + " expected " + join(e.pending) + "; preempted " +
                                       join(preempted) + " expected " + join(e.preempted));
            }
            // Queue contents after the cycle (informational in the case files).
            std::map<std::string, std::vector<std::string>> active, inadm;
            for (const auto& cq : r.cluster_queues) {
                auto a = cq.pending_active;
                std::sort(a.begin(), a.end());
                if (!a.empty()) active[cq.name] = a;
                if (!cq.pending_inadmissible.empty()) inadm[cq.name] = cq.pending_inadmissible;
            }
            if (e.has_queues) ++queues.run;
            if (!e.has_queues) {
            } else if (active == e.active && inadm == e.inadmissible) ++queues.pass;
            else {
                std::string got, want;
                for (const auto& [c, l] : active) got += "active " + c + join(l) + " ";
                for (const auto& [c, l] : inadm) got += "inadmissible " + c + join(l) + " ";
                for (const auto& [c, l] : e.active) want += "active " + c + join(l) + " ";
                for (const auto& [c, l] : e.inadmissible) want += "inadmissible " + c + join(l) + " ";
                queues.failures.push_back(name + ": " + got + "expected " + want);
            }
            for (const auto& w : r.workloads) {
                auto it = e.pending_notes.find(key(w));
                if (it != e.pending_notes.end()) {
                    ++notes_reason.run;
                    ++notes_message.run;
                    if (w.reason == it->second.reason) ++notes_reason.pass;
                    else notes_reason.failures.push_back(name + " " + key(w) + ": " + w.reason + " expected " + it->second.reason);
                    if (w.message == it->second.message) ++notes_message.pass;
                    else
                        notes_message.failures.push_back(name + " " + key(w) + ": \"" + w.message + "\" expected \"" +
                                                         it->second.message + "\"");
                }
                auto pt = e.preempted_notes.find(key(w));
                if (pt != e.preempted_notes.end()) {
                    ++preempt_notes.run;
                    if (w.preemption_reason == pt->second.reason && w.preemption_message == pt->second.message)
                        ++preempt_notes.pass;
                    else
                        preempt_notes.failures.push_back(name + " " + key(w) + ": " + w.preemption_reason + " \"" +
                                                         w.preemption_message + "\" expected " + pt->second.reason + " \"" +
                                                         pt->second.message + "\"");
                }
            }
        }
        // (b) fixpoint
        if (e.fixpoint) {
            Diagnostics d;
            auto r = scheduler::simulate(objects, {}, d);
            AdmittedMap admitted;
            std::vector<std::string> pending, preempted;
            for (const auto& w : r.workloads) {
                if (w.admitted && !w.held_before) admitted[key(w)] = to_exp(w);
                if (!w.admitted) pending.push_back(key(w));
                if (w.preempted) preempted.push_back(key(w));
            }
            ++fix.run;
            if (r.converged && admitted == e.fixpoint->admitted && pending == e.fixpoint->pending &&
                preempted == e.fixpoint->preempted)
                ++fix.pass;
            else
                fix.failures.push_back(name + ": admitted " + describe(admitted) + " expected " +
                                       describe(e.fixpoint->admitted) + "; pending " + join(pending) + " expected " +
                                       join(e.fixpoint->pending) + "; preempted " + join(preempted) +
                                       (r.converged ? "" : " (not converged)"));
        }
        // (c) fixpointWithEvictions
        if (e.fpe && !e.fpe->unstable) {
            Diagnostics d;
            auto r = scheduler::simulate(objects, {.complete_evictions = true}, d);
            AdmittedMap admitted;
            std::vector<std::string> still, pending;
            for (const auto& w : r.workloads) {
                if (w.admitted && !w.held_before) admitted[key(w)] = to_exp(w);
                if (w.admitted && w.held_before) still.push_back(key(w));
                if (!w.admitted) pending.push_back(key(w));
            }
            ++fpe.run;
            if (r.converged && admitted == e.fpe->admitted && still == e.fpe->still && pending == e.fpe->pending &&
                r.evicted == e.fpe->evicted)
                ++fpe.pass;
            else
                fpe.failures.push_back(name + ": admitted " + describe(admitted) + " expected " + describe(e.fpe->admitted) +
                                       "; still " + join(still) + " expected " + join(e.fpe->still) + "; pending " +
                                       join(pending) + " expected " + join(e.fpe->pending) + "; evicted " +
                                       join(r.evicted) + " expected " + join(e.fpe->evicted));
            ++fpe_cycles.run;
            if (r.cycles == e.fpe->cycles) ++fpe_cycles.pass;
            else
                fpe_cycles.failures.push_back(name + ": " + std::to_string(r.cycles) + " cycles, expected " +
                                              std::to_string(e.fpe->cycles));
        }
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();

    auto report = [](const char* what, const Tally& t) {
        std::string s = std::string(what) + ": " + std::to_string(t.pass) + "/" + std::to_string(t.run);
        for (const auto& f : t.failures) s += "\n  FAIL " + f;
        return s;
    };
    std::string summary = report("one cycle", one) + "\n" + report("fixpoint", fix) + "\n" +
                          report("fixpointWithEvictions", fpe) + "\n" +
                          report("fixpointWithEvictions cycle count", fpe_cycles) + "\n" +
                          report("queues after one cycle", queues) + "\n" +
                          report("pending reasons (notes)", notes_reason) + "\n" +
                          report("pending messages (notes)", notes_message) + "\n" +
                          report("preemption reasons+messages (notes)", preempt_notes) + "\nwhole suite: " +
                          std::to_string(ms) + " ms";
    WARN(summary);
    CHECK(cases.size() == 144);
    CHECK(one.pass == one.run);
    CHECK(fix.pass == fix.run);
    CHECK(fpe.pass == fpe.run);
    CHECK(fpe_cycles.pass == fpe_cycles.run);
    CHECK(queues.pass == queues.run);
    CHECK(notes_reason.pass == notes_reason.run);
    CHECK(notes_message.pass == notes_message.run);
    CHECK(preempt_notes.pass == preempt_notes.run);
}
