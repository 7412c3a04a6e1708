#pragma once
// Applies the `default`s of a CRD's openAPIV3Schema to an object, the way the
// API server does on create, so tests can compare documents "modulo defaults".
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <string>

namespace qf_test {

inline nlohmann::json yaml_to_json(const YAML::Node& n) {
    if (n.IsMap()) {
        auto o = nlohmann::json::object();
        for (const auto& kv : n) o[kv.first.as<std::string>()] = yaml_to_json(kv.second);
        return o;
    }
    if (n.IsSequence()) {
        auto a = nlohmann::json::array();
        for (const auto& i : n) a.push_back(yaml_to_json(i));
        return a;
    }
    if (n.IsNull()) return nullptr;
    return n.as<std::string>();  // scalars compared by text
}

// Scalars compared as text: a quantity written 9 equals one written "9".
inline nlohmann::json textual(const nlohmann::json& j) {
    if (j.is_object()) {
        auto o = nlohmann::json::object();
        for (const auto& [k, v] : j.items()) o[k] = textual(v);
        return o;
    }
    if (j.is_array()) {
        auto a = nlohmann::json::array();
        for (const auto& v : j) a.push_back(textual(v));
        return a;
    }
    if (j.is_string()) return j;
    if (j.is_null()) return j;
    return j.dump();
}

inline void apply_defaults(const nlohmann::json& schema, nlohmann::json& obj) {
    if (obj.is_object() && schema.contains("properties")) {
        for (const auto& [k, s] : schema["properties"].items()) {
            if (!obj.contains(k) && s.contains("default")) obj[k] = textual(s["default"]);
            if (obj.contains(k)) apply_defaults(s, obj[k]);
        }
    } else if (obj.is_array() && schema.contains("items")) {
        for (auto& i : obj) apply_defaults(schema["items"], i);
    }
}

// The openAPIV3Schema of `version` in a CRD file, as JSON.
inline nlohmann::json crd_schema(const std::string& path, const std::string& version) {
    YAML::Node crd = YAML::LoadFile(path);
    for (const auto& v : crd["spec"]["versions"])
        if (v["name"].as<std::string>() == version) return yaml_to_json(v["schema"]["openAPIV3Schema"]);
    return nullptr;
}

}  // namespace qf_test
