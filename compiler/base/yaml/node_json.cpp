#include <queueforge/base/node_json.hpp>

#include <cmath>
#include <cstdlib>

namespace queueforge {

nlohmann::ordered_json to_json(const Node& n) {
    switch (n.kind()) {
    case Node::Kind::Null: return nullptr;
    case Node::Kind::Bool: return n.as_bool();
    case Node::Kind::Int:
        if (auto v = n.as_int()) return *v;
        return n.text();
    case Node::Kind::Float: {
        char* end = nullptr;
        double d = std::strtod(n.text().str().c_str(), &end);
        if (end && *end == '\0' && std::isfinite(d)) return d;
        return n.text();
    }
    case Node::Kind::String: return n.text();
    case Node::Kind::Seq: {
        auto a = nlohmann::ordered_json::array();
        for (const auto& i : n.items()) a.push_back(to_json(i));
        return a;
    }
    case Node::Kind::Map: {
        auto o = nlohmann::ordered_json::object();
        for (const auto& e : n.entries()) o[e.key] = to_json(e.value);
        return o;
    }
    }
    return nullptr;
}

Node from_json(const nlohmann::ordered_json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::null: return Node::null_value();
    case nlohmann::json::value_t::boolean: return Node::boolean(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return Node::integer(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return Node::scalar(Node::Kind::Int, j.dump());
    case nlohmann::json::value_t::number_float: return Node::scalar(Node::Kind::Float, j.dump());
    case nlohmann::json::value_t::string: return Node::string(j.get<std::string>());
    case nlohmann::json::value_t::array: {
        Node s = Node::sequence();
        for (const auto& i : j) s.push(from_json(i));
        return s;
    }
    case nlohmann::json::value_t::object: {
        Node m = Node::mapping();
        for (const auto& [k, v] : j.items()) m.set(k, from_json(v));
        return m;
    }
    default: return Node::null_value();
    }
}

}  // namespace queueforge
