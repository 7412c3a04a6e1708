// Target lookup: turns "rhoai-2.16" / "kueue-0.13" / "kubernetes" plus the
// site's explicit overrides into a Target. All facts live in matrix.cpp; this
// file only selects rows and derives the API versions a Kueue release serves.
#include <queueforge/frontend/platform.hpp>
#include <queueforge/base/text.hpp>

#include "matrix.hpp"

#include <algorithm>
#include <charconv>

namespace queueforge {
namespace {

using platform::ApiFamily;

constexpr std::string_view kManaged = "Managed";
constexpr std::string_view kUnmanaged = "Unmanaged";
constexpr std::string_view kRemoved = "Removed";

// Facts never differ between z-streams, so rows and API ranges compare minors.
Version minor_line(const Version& v) { return {v.major, v.minor, 0}; }

std::string minor_string(const Version& v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

std::string rhoai_name(const Version& v) { return "rhoai-" + minor_string(v); }
std::string kueue_name(const Version& v) { return "kueue-" + minor_string(v); }

std::string unsupported(std::string_view what) {
    // The Kueue rows are one per minor, so a range reads better than 15 names.
    std::vector<std::string> names;
    for (const auto& r : platform::openshift_ai_rows()) names.push_back(rhoai_name(r.release));
    names.push_back(kueue_name(platform::kOldestKueue) + " to " + kueue_name(platform::kNewestKueue));
    return std::string(what) + "; supported targets: " + join(names, ", ") +
           " (\"openshift-ai-X.Y\" is the same as \"rhoai-X.Y\", \"kubernetes\" means " +
           kueue_name(platform::kNewestKueue) + ")";
}

std::vector<std::string> kueue_states(platform::KueueStates s) {
    switch (s) {
    case platform::KueueStates::ManagedRemoved: return {std::string(kManaged), std::string(kRemoved)};
    case platform::KueueStates::ManagedUnmanagedRemoved:
        return {std::string(kManaged), std::string(kUnmanaged), std::string(kRemoved)};
    case platform::KueueStates::UnmanagedRemoved: return {std::string(kUnmanaged), std::string(kRemoved)};
    }
    return {};
}

std::vector<Component> make_components(std::span<const std::string_view> keys, platform::KueueStates kueue) {
    std::vector<Component> out;
    out.reserve(keys.size());
    for (auto key : keys) {
        // openshift-ai.md section 1: every component but kueue has the enum Managed|Removed.
        out.push_back({std::string(key), key == "kueue" ? kueue_states(kueue)
                                                        : std::vector<std::string>{std::string(kManaged),
                                                                                   std::string(kRemoved)}});
    }
    return out;
}

const platform::ApiServing* find_api(ApiFamily family, std::string_view version) {
    for (const auto& s : platform::kueue_api_serving())
        if (s.family == family && s.version == version) return &s;
    return nullptr;
}

bool serves(const platform::ApiServing& s, const Version& kueue) {
    auto line = minor_line(kueue);
    return s.first <= line && line <= s.last;
}

bool deprecated(const platform::ApiServing& s, const Version& kueue) {
    return s.deprecated_from != Version{} && minor_line(kueue) >= s.deprecated_from;
}

// The newest API version of `family` that `kueue` serves (kueue-semantics.md
// 1.1: "Emit v1beta2 unless the target cluster runs Kueue <= v0.14").
const platform::ApiServing* newest_served(ApiFamily family, const Version& kueue) {
    const platform::ApiServing* best = nullptr;
    for (const auto& s : platform::kueue_api_serving())
        if (s.family == family && serves(s, kueue) && (!best || s.first > best->first)) best = &s;
    return best;
}

void set_kueue_apis(Target& t) {
    if (const auto* q = newest_served(ApiFamily::Queues, t.kueue))
        t.kueue_api_version = std::string(platform::kKueueGroup) + std::string(q->version);
    t.cohort_api_version.clear();
    t.cohort_parent_field.clear();
    if (const auto* c = newest_served(ApiFamily::Cohort, t.kueue)) {
        t.cohort_api_version = std::string(platform::kKueueGroup) + std::string(c->version);
        t.cohort_parent_field = std::string(c->parent_field);
    }
}

Target make_openshift_ai(const platform::OpenShiftAiRow& row, const Version& release) {
    Target t;
    t.name = rhoai_name(release);
    t.platform = Platform::OpenShiftAI;
    t.release = release;
    t.kueue = row.kueue;
    t.matrix_row = rhoai_name(row.release);
    t.dsc_api_version = std::string(platform::kDscGroup) + std::string(row.dsc_version);
    set_kueue_apis(t);
    t.dsc_template = "dsc/" + t.matrix_row + ".yaml";
    t.components = make_components(row.components, row.kueue_states);
    for (auto l : row.namespace_labels) t.namespace_labels.emplace_back(l);
    t.embedded_kueue = row.embedded_kueue;
    t.dsc_default_queue_fields = row.dsc_default_queue_fields;
    t.dsc_auto_create_queues = row.dsc_auto_create_queues;
    t.operator_creates_queues = row.operator_creates_queues;
    t.single_cluster_queue = row.single_cluster_queue;
    t.shared_cohorts_supported = row.shared_cohorts_supported;
    return t;
}

const platform::OpenShiftAiRow* find_row(const Version& line) {
    for (const auto& r : platform::openshift_ai_rows())
        if (r.release == line) return &r;
    return nullptr;
}

// Accepts "v1beta2" or the full "kueue.x-k8s.io/v1beta2" form.
std::string_view strip_group(std::string_view s, std::string_view group) {
    if (s.starts_with(group)) s.remove_prefix(group.size());
    return s;
}

std::string describe(const Target& t) {
    return "Kueue " + t.kueue.to_string() + " of target " + t.name;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

void override_kueue_api(Target& t, std::string_view value, std::vector<std::string>& errors,
                        std::vector<std::string>& warnings) {
    auto v = strip_group(value, platform::kKueueGroup);
    const auto* api = find_api(ApiFamily::Queues, v);
    if (!api) {
        errors.push_back("unknown kueue_api_version " + quoted(value) + " (expected v1beta1 or v1beta2)");
        return;
    }
    if (!serves(*api, t.kueue)) {
        const bool too_new = api->last < platform::kNewestKueue && minor_line(t.kueue) > api->last;
        errors.push_back("kueue_api_version " + std::string(v) + " is not served by " + describe(t) +
                         (too_new ? " (served by Kueue " + minor_string(api->first) + " to " + minor_string(api->last) + ")"
                                  : " (needs Kueue " + minor_string(api->first) + " or newer)"));
        return;
    }
    if (deprecated(*api, t.kueue))
        warnings.push_back("kueue.x-k8s.io/" + std::string(v) + " is deprecated on " + describe(t));
    t.kueue_api_version = std::string(platform::kKueueGroup) + std::string(v);
}

void override_cohort_api(Target& t, std::string_view value, std::vector<std::string>& errors,
                         std::vector<std::string>& warnings) {
    if (value == "none") {
        t.cohort_api_version.clear();
        t.cohort_parent_field.clear();
        return;
    }
    auto v = strip_group(value, platform::kKueueGroup);
    const auto* api = find_api(ApiFamily::Cohort, v);
    if (!api) {
        errors.push_back("unknown cohort_api_version " + quoted(value) +
                         " (expected none, v1alpha1, v1beta1 or v1beta2)");
        return;
    }
    if (!serves(*api, t.kueue)) {
        errors.push_back("cohort_api_version " + std::string(v) + " is not served by " + describe(t) +
                         " (served by Kueue " + minor_string(api->first) + " to " + minor_string(api->last) + ")");
        return;
    }
    if (deprecated(*api, t.kueue))
        warnings.push_back("Cohort kueue.x-k8s.io/" + std::string(v) + " is deprecated on " + describe(t));
    t.cohort_api_version = std::string(platform::kKueueGroup) + std::string(v);
    t.cohort_parent_field = std::string(api->parent_field);
}

void override_dsc_api(Target& t, std::string_view value, std::vector<std::string>& errors) {
    auto v = strip_group(value, platform::kDscGroup);
    if (v != "v1" && v != "v2") {
        errors.push_back("unknown dsc_api_version " + quoted(value) + " (expected v1 or v2)");
        return;
    }
    if (t.dsc_api_version.empty()) {
        errors.push_back("dsc_api_version " + std::string(v) + " given, but target " + t.name +
                         " has no DataScienceCluster");
        return;
    }
    const std::string wanted = std::string(platform::kDscGroup) + std::string(v);
    if (wanted == t.dsc_api_version) return;
    if (v == "v2") {
        // openshift-ai.md section 1: v2 first appears in 3.0.
        errors.push_back("dsc_api_version v2 is not served by target " + t.name + " (needs OpenShift AI " +
                         minor_string(platform::kFirstDscV2) + " or newer)");
        return;
    }
    // v1 on 3.x: the 2.25 key set; the v1 webhook still rejects kueue Managed
    // (openshift-ai.md section 2, rows 3.0 and 3.4).
    t.dsc_api_version = wanted;
    t.components = make_components(platform::dsc_v1_components_on_3x(), platform::KueueStates::UnmanagedRemoved);
    t.dsc_template = std::string(platform::kDscV1On3xTemplate);
}

}  // namespace

std::optional<Version> Version::parse(std::string_view s) {
    if (s.starts_with('v')) s.remove_prefix(1);
    int parts[3] = {0, 0, 0};
    int count = 0;
    while (true) {
        auto dot = s.find('.');
        auto part = s.substr(0, dot);
        // Digits only, no sign, no leading zeros (as in semver), bounded so that
        // from_chars cannot overflow an int.
        if (part.empty() || part.size() > 9 || (part.size() > 1 && part[0] == '0') || count == 3) return std::nullopt;
        if (!std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
        std::from_chars(part.data(), part.data() + part.size(), parts[count]);
        ++count;
        if (dot == std::string_view::npos) break;
        s.remove_prefix(dot + 1);
    }
    if (count < 2) return std::nullopt;
    return Version{parts[0], parts[1], parts[2]};
}

std::string Version::to_string() const {
    auto s = minor_string(*this);
    if (patch != 0) s += "." + std::to_string(patch);
    return s;
}

const Component* Target::component(std::string_view n) const {
    for (const auto& c : components)
        if (c.name == n) return &c;
    return nullptr;
}

TargetLookup find_openshift_ai(const Version& release) {
    const auto line = minor_line(release);
    if (const auto* row = find_row(line)) return {make_openshift_ai(*row, release), {}, {}};
    for (const auto& alias : platform::openshift_ai_aliases()) {
        if (alias.release != line) continue;
        const auto* row = find_row(alias.row);
        if (!row) break;  // matrix.cpp is inconsistent; report as unsupported below
        auto t = make_openshift_ai(*row, release);
        auto warning = "facts for " + t.name + " taken from " + t.matrix_row + " (" + std::string(alias.reason) + ")";
        return {std::move(t), {}, std::move(warning)};
    }
    for (const auto& m : platform::openshift_ai_missing())
        if (m.release == line) return {std::nullopt, unsupported(std::string(m.reason)), {}};
    return {std::nullopt, unsupported("OpenShift AI " + release.to_string() + " is not supported"), {}};
}

TargetLookup find_kubernetes(const Version& kueue) {
    const auto line = minor_line(kueue);
    if (line < platform::kOldestKueue || line > platform::kNewestKueue)
        return {std::nullopt, unsupported("Kueue " + kueue.to_string() + " is not supported"), {}};
    Target t;
    t.name = kueue_name(kueue);
    t.platform = Platform::Kubernetes;
    t.kueue = kueue;
    t.matrix_row = t.name;
    set_kueue_apis(t);
    return {std::move(t), {}, {}};
}

TargetLookup find_target(std::string_view spec) {
    if (spec == "kubernetes") return find_kubernetes(platform::kNewestKueue);
    constexpr std::string_view prefixes[] = {"rhoai-", "openshift-ai-", "kueue-"};
    for (auto prefix : prefixes) {
        if (!spec.starts_with(prefix)) continue;
        auto version = Version::parse(spec.substr(prefix.size()));
        if (!version) return {std::nullopt, unsupported("cannot read the version in target " + quoted(spec)), {}};
        return prefix == "kueue-" ? find_kubernetes(*version) : find_openshift_ai(*version);
    }
    return {std::nullopt, unsupported("unknown target " + quoted(spec)), {}};
}

TargetLookup apply_overrides(Target t, const TargetOverrides& o) {
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    if (!o.kueue_api_version.empty()) override_kueue_api(t, o.kueue_api_version, errors, warnings);
    if (!o.dsc_api_version.empty()) override_dsc_api(t, o.dsc_api_version, errors);
    if (!o.cohort_api_version.empty()) override_cohort_api(t, o.cohort_api_version, errors, warnings);
    if (!errors.empty()) return {std::nullopt, join(errors, "; "), join(warnings, "; ")};
    return {std::move(t), {}, join(warnings, "; ")};
}

// supported_targets() enumerates Kueue minors of one major.
static_assert(platform::kOldestKueue.major == platform::kNewestKueue.major);

std::vector<std::string> supported_targets() {
    std::vector<std::string> out;
    for (const auto& r : platform::openshift_ai_rows()) out.push_back(rhoai_name(r.release));
    for (int minor = platform::kOldestKueue.minor; minor <= platform::kNewestKueue.minor; ++minor)
        out.push_back(kueue_name({0, minor, 0}));
    return out;
}

}  // namespace queueforge
