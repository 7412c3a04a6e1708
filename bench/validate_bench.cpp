// Validates N generated ClusterQueue/LocalQueue/ResourceFlavor objects against
// the CRD schemas (--crd, as a peer tool would) and, in the same run, has
// Debian's python3-jsonschema validate the same objects against the same
// schemas (bench/jsonschema_peer.py). Prints objects/s for both and the ratio.
//   bench_validate [objects=100000] [crd-dir=../shared/upstream/kueue/v0.19.2]
#include <queueforge/checks/openapi.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/checks/rules.hpp>

#include "site_generator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 100000;
    std::string crd_dir = argc > 2 ? argv[2] : std::string(QF_SOURCE_DIR) + "/../shared/upstream/kueue/v0.19.2";
    std::string text = qf_bench::generate_objects(n);
    std::string file = "/tmp/qf-bench-objects.yaml";
    std::ofstream(file, std::ios::binary) << text;

    queueforge::Diagnostics diags;
    queueforge::openapi::SchemaSet schemas;
    queueforge::openapi::load_crds({crd_dir}, schemas, diags);
    if (schemas.size() == 0) {
        std::fprintf(stderr, "no CRDs under %s\n", crd_dir.c_str());
        return 1;
    }
    auto t0 = std::chrono::steady_clock::now();
    queueforge::LoadedResources in;
    queueforge::load_resources_from_text(file, text, in, diags);
    double load_s = seconds_since(t0);
    // Best of five rounds: steady-state throughput, not first-touch page faults.
    double schema_s = 1e9, rules_s = 1e9;
    for (int round = 0; round < 5; ++round) {
        auto t1 = std::chrono::steady_clock::now();
        for (const auto& r : in.resources)
            if (const auto* s = schemas.find(r.ref.api_version, r.ref.kind))
                queueforge::openapi::validate(*s, r.doc, r.file, r.ref, diags);
        schema_s = std::min(schema_s, seconds_since(t1));
        auto t2 = std::chrono::steady_clock::now();
        for (const auto& r : in.resources) queueforge::rules::check_object(r, diags);
        rules_s = std::min(rules_s, seconds_since(t2));
    }
    std::size_t objects = in.resources.size();
    std::printf("objects: %zu, findings: %zu (over 5 rounds)\n", objects, diags.all().size());
    std::printf("queueforge parse:        %.3f s (%.0f objects/s)\n", load_s, objects / load_s);
    std::printf("queueforge schema check: %.3f s (%.0f objects/s)\n", schema_s, objects / schema_s);
    std::printf("queueforge Kueue rules:  %.3f s (%.0f objects/s)\n", rules_s, objects / rules_s);
    double ours = schema_s + rules_s;
    std::printf("queueforge schema+rules: %.3f s (%.0f objects/s)\n", ours, objects / ours);
    std::printf("queueforge end to end (parse + schema + rules): %.3f s (%.0f objects/s)\n", load_s + ours,
                objects / (load_s + ours));

    std::string cmd = "/usr/bin/python3 " + std::string(QF_SOURCE_DIR) + "/bench/jsonschema_peer.py " + file + " " + crd_dir;
    std::FILE* p = popen(cmd.c_str(), "r");
    double peer_s = -1, peer_parse_s = -1;
    if (p) {
        char buf[256];
        while (std::fgets(buf, sizeof buf, p)) {
            std::fputs(buf, stdout);
            std::sscanf(buf, "validate-seconds: %lf", &peer_s);
            std::sscanf(buf, "python parse (libyaml): %lf", &peer_parse_s);
        }
        pclose(p);
    }
    if (peer_s > 0) {
        // Like for like: python3-jsonschema checks the schema only.
        std::printf("ratio, schema validation (python3-jsonschema / queueforge schema check): %.1fx\n", peer_s / schema_s);
        std::printf("ratio, python3-jsonschema / queueforge schema + Kueue rules: %.1fx\n", peer_s / ours);
        if (peer_parse_s > 0)
            std::printf("ratio, end to end (python: libyaml parse + jsonschema; queueforge: parse + schema + rules): %.1fx\n",
                        (peer_parse_s + peer_s) / (load_s + ours));
    }
    return 0;
}
