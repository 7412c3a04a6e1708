#include "checks/policy/target_range.hpp"

namespace queueforge::policy {

namespace {

std::vector<std::string_view> split(std::string_view s, std::string_view sep) {
    std::vector<std::string_view> out;
    for (;;) {
        auto at = s.find(sep);
        out.push_back(s.substr(0, at));
        if (at == std::string_view::npos) return out;
        s.remove_prefix(at + sep.size());
    }
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::optional<TargetTerm> parse_term(std::string_view w, std::string& error) {
    TargetTerm t;
    struct OpText { std::string_view text; TargetTerm::Op op; };
    // Two-character operators first, so ">=" is not read as ">".
    constexpr OpText ops[] = {{">=", TargetTerm::Op::Ge}, {"<=", TargetTerm::Op::Le}, {"!=", TargetTerm::Op::Ne},
                              {">", TargetTerm::Op::Gt},  {"<", TargetTerm::Op::Lt},  {"=", TargetTerm::Op::Eq}};
    for (const auto& o : ops)
        if (w.starts_with(o.text)) {
            t.op = o.op;
            w.remove_prefix(o.text.size());
            break;
        }
    if (w == "rhoai" || w == "openshift-ai" || w == "kubernetes") {
        if (t.op != TargetTerm::Op::Eq && t.op != TargetTerm::Op::Ne) {
            error = "\"" + std::string(w) + "\" names a platform, so only = and != apply to it";
            return std::nullopt;
        }
        t.subject = w == "kubernetes" ? TargetTerm::Subject::AnyKubernetes : TargetTerm::Subject::AnyRhoai;
        return t;
    }
    std::string_view version;
    if (w.starts_with("rhoai-")) version = w.substr(6);
    else if (w.starts_with("openshift-ai-")) version = w.substr(13);
    else if (w.starts_with("kueue-")) version = w.substr(6), t.subject = TargetTerm::Subject::Kueue;
    else {
        error = "unknown target \"" + std::string(w) + "\" (expected rhoai-X.Y, kueue-X.Y, rhoai or kubernetes)";
        return std::nullopt;
    }
    auto v = Version::parse(version);
    if (!v) {
        error = "\"" + std::string(w) + "\": \"" + std::string(version) + "\" is not a version (X.Y or X.Y.Z)";
        return std::nullopt;
    }
    t.version = *v;
    t.has_patch = version.find('.') != version.rfind('.');
    return t;
}

bool term_holds(const TargetTerm& term, const Target& t) {
    using S = TargetTerm::Subject;
    const bool rhoai = t.platform == Platform::OpenShiftAI;
    bool eq = false;
    int cmp = 0;
    switch (term.subject) {
    case S::AnyRhoai: eq = rhoai; break;
    case S::AnyKubernetes: eq = !rhoai; break;
    case S::Rhoai:
    case S::Kueue: {
        if (term.subject == S::Rhoai && !rhoai) return term.op == TargetTerm::Op::Ne;
        Version v = term.subject == S::Rhoai ? t.release : t.kueue;
        if (!term.has_patch) v.patch = 0;
        cmp = v < term.version ? -1 : v > term.version ? 1 : 0;
        eq = cmp == 0;
        break;
    }
    }
    switch (term.op) {
    case TargetTerm::Op::Eq: return eq;
    case TargetTerm::Op::Ne: return !eq;
    case TargetTerm::Op::Lt: return cmp < 0;
    case TargetTerm::Op::Le: return cmp <= 0;
    case TargetTerm::Op::Gt: return cmp > 0;
    case TargetTerm::Op::Ge: return cmp >= 0;
    }
    return false;
}

}  // namespace

std::optional<TargetRange> parse_target_range(std::string_view text, std::string& error) {
    TargetRange r;
    r.text = std::string(text);
    for (auto alt : split(text, "||")) {
        std::vector<TargetTerm> terms;
        for (auto w : words(alt)) {
            auto t = parse_term(w, error);
            if (!t) return std::nullopt;
            terms.push_back(*t);
        }
        if (terms.empty()) {
            error = "empty target range" + std::string(text.find("||") != std::string_view::npos ? " alternative" : "");
            return std::nullopt;
        }
        r.alternatives.push_back(std::move(terms));
    }
    return r;
}

bool TargetRange::matches(const Target& t) const {
    for (const auto& alt : alternatives) {
        bool all = true;
        for (const auto& term : alt) all = all && term_holds(term, t);
        if (all) return true;
    }
    return false;
}

}  // namespace queueforge::policy
