#include <queueforge/integrations/argocd.hpp>

#include "frontend/site/reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace queueforge::argocd {

namespace {

using Json = nlohmann::json;

const std::vector<std::string> kKnown = {"site", "target", "teams"};

std::string unknown_message(const std::string& name) {
    std::string msg = "unknown plugin parameter \"" + name + "\" (known: site, target, teams)";
    std::string hint = site::did_you_mean(name, kKnown);
    if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
    return msg;
}

std::string type_of(const Json& j) {
    std::string t = j.type_name();
    return t == "object" ? "a map" : t == "array" ? "a list" : t == "null" ? "null" : "a " + t;
}

// Comma-separated team names: "llm,vision".
void split_teams(const std::string& s, std::vector<std::string>& out) {
    for (std::size_t b = 0; b <= s.size();) {
        std::size_t e = s.find(',', b);
        if (e == std::string::npos) e = s.size();
        if (e > b) out.push_back(s.substr(b, e - b));
        b = e + 1;
    }
}

// One entry of ARGOCD_APP_PARAMETERS: {"name": ..., "string" | "array" | "map": ...}.
void read_entry(const Json& x, std::size_t i, Parameters& p, Diagnostics& diags) {
    // Reported against the variable, so the entry is named by its index only.
    const std::string where = "[" + std::to_string(i) + "]";
    auto bad = [&](const std::string& msg) { diags.error(kAppParameters, {}, where + ": " + msg, "cmp.parameter"); };
    if (!x.is_object()) return bad("expected a parameter ({\"name\": ..., \"string\": ...}), got " + type_of(x));
    auto name_it = x.find("name");
    if (name_it == x.end()) return bad("the parameter has no \"name\"");
    if (!name_it->is_string()) return bad("parameter \"name\" must be a string, got " + type_of(*name_it));
    const std::string name = name_it->get<std::string>();
    if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end()) {
        diags.error(kAppParameters, {}, where + ": " + unknown_message(name), "cmp.unknown-parameter");
        return;
    }
    auto str = x.find("string");
    auto arr = x.find("array");
    if (name == "teams") {
        if (arr != x.end()) {
            if (!arr->is_array()) return bad("plugin parameter \"teams\": \"array\" must be a list of team names, got " + type_of(*arr));
            std::vector<std::string> teams;
            for (std::size_t k = 0; k < arr->size(); ++k) {
                const Json& t = (*arr)[k];
                if (!t.is_string() || t.get<std::string>().empty())
                    return bad("plugin parameter \"teams\": item " + std::to_string(k) + " must be a team name, got " +
                               (t.is_string() ? std::string("an empty string") : type_of(t)));
                teams.push_back(t.get<std::string>());
            }
            p.teams.insert(p.teams.end(), teams.begin(), teams.end());
            return;
        }
        if (str != x.end()) {
            if (!str->is_string()) return bad("plugin parameter \"teams\": \"string\" must be comma-separated team names, got " + type_of(*str));
            split_teams(str->get<std::string>(), p.teams);
            return;
        }
        return bad("plugin parameter \"teams\" must be a list (\"array\") or a comma-separated \"string\" of team names" +
                   std::string(x.contains("map") ? ", not a map" : ""));
    }
    if (str == x.end() || !str->is_string())
        return bad("plugin parameter \"" + name + "\" must be a string" +
                   (str == x.end() ? std::string(x.contains("array") ? ", not a list" : x.contains("map") ? ", not a map" : "")
                                   : ", got " + type_of(*str)));
    (name == "site" ? p.site : p.target) = str->get<std::string>();
}

}  // namespace

std::optional<Parameters> read_parameters(const std::vector<std::string>& environment, Diagnostics& diags) {
    auto lookup = [&](std::string_view var) -> std::optional<std::string> {
        for (const auto& kv : environment)
            if (kv.size() > var.size() && kv.starts_with(var) && kv[var.size()] == '=') return kv.substr(var.size() + 1);
        return std::nullopt;
    };
    auto errors = [&] {
        return std::count_if(diags.all().begin(), diags.all().end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; });
    };
    const auto errors_before = errors();
    Parameters p;
    auto json = lookup(kAppParameters);
    if (json && !json->empty()) {
        Json params = Json::parse(*json, nullptr, false);
        if (params.is_discarded() || !params.is_array()) {
            diags.error(kAppParameters, {},
                        params.is_discarded() ? "not valid JSON; expected a list of parameters"
                                              : "expected a list of parameters, got " + type_of(params),
                        "cmp.parameter");
            return std::nullopt;
        }
        for (std::size_t i = 0; i < params.size(); ++i) read_entry(params[i], i, p, diags);
    } else {
        for (const auto& kv : environment) {
            if (!kv.starts_with("PARAM_")) continue;
            std::size_t eq = kv.find('=');
            if (eq == std::string::npos) continue;
            std::string name = kv.substr(6, eq - 6), value = kv.substr(eq + 1);
            if (name == "SITE") p.site = value;
            else if (name == "TARGET") p.target = value;
            else if (name.starts_with("TEAMS_")) p.teams.push_back(value);
            else {
                std::string lower = name;
                std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
                diags.error("PARAM_" + name, {}, unknown_message(lower), "cmp.unknown-parameter");
            }
        }
    }
    if (auto s = lookup("ARGOCD_ENV_QUEUEFORGE_SITE"); s && !s->empty()) p.site = *s;
    if (auto t = lookup("ARGOCD_ENV_QUEUEFORGE_TARGET"); t && !t->empty()) p.target = *t;
    if (errors() != errors_before) return std::nullopt;
    std::sort(p.teams.begin(), p.teams.end());
    p.teams.erase(std::unique(p.teams.begin(), p.teams.end()), p.teams.end());
    return p;
}

void select_teams(site::Site& s, const std::vector<std::string>& wanted, Diagnostics& diags) {
    if (wanted.empty()) return;
    std::vector<std::string> names;
    for (const auto& t : s.teams) names.push_back(t.name.value);
    bool unknown = false;
    for (const auto& w : wanted) {
        if (std::find(names.begin(), names.end(), w) != names.end()) continue;
        std::string msg = "plugin parameter teams names \"" + w + "\", which the site does not define";
        std::string hint = site::did_you_mean(w, names);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        diags.error(s.file, {}, msg, "cmp.teams");
        unknown = true;
    }
    if (unknown) return;
    std::set<std::string> keep(wanted.begin(), wanted.end());
    std::erase_if(s.teams, [&](const site::Team& t) { return !keep.count(t.name.value); });
}

}  // namespace queueforge::argocd
