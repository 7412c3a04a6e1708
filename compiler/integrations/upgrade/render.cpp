// upgrade-check's outputs: text, JSON and findings for the findings formats.
#include <queueforge/integrations/upgrade.hpp>

#include <queueforge/base/text.hpp>

#include <nlohmann/json.hpp>

namespace queueforge::upgrade {

namespace {

using json = nlohmann::ordered_json;

std::string describe(const Target& t) {
    if (t.platform == Platform::OpenShiftAI)
        return t.name + " (OpenShift AI " + t.release.to_string() + ", Kueue " + t.kueue.to_string() + ")";
    return t.name + " (Kueue " + t.kueue.to_string() + ")";
}

std::string position(const std::string& file, const Mark& m) {
    return file + ":" + std::to_string(m.line) + ":" + std::to_string(m.col);
}

std::string finding_line(const Diagnostic& d) {
    std::string s = d.site.empty() ? "" : "[" + d.site + "] ";
    s += (d.file.empty() ? std::string("<input>") : position(d.file, d.mark)) + ": " + severity_name(d.severity) +
         ": " + d.message;
    if (!d.rule.empty()) s += " [" + d.rule + "]";
    return s;
}

std::string padded(const std::string& s, std::size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); }

constexpr std::size_t kMaxSubjects = 8;
constexpr std::size_t kMaxFields = 6;

std::string change_block(const Change& c) {
    std::string out = "  " + padded(severity_name(c.severity), 8) + c.release + ", " + c.id + "\n";
    out += "           " + c.what + "\n";
    if (!c.detail.empty()) out += "           " + c.detail + "\n";
    for (std::size_t i = 0; i < c.subjects.size() && i < kMaxSubjects; ++i)
        out += "           concerns " + c.subjects[i].what + " (" + position(c.subjects[i].file, c.subjects[i].mark) + ")\n";
    if (c.subjects.size() > kMaxSubjects)
        out += "           ... and " + std::to_string(c.subjects.size() - kMaxSubjects) + " more\n";
    out += "           source: " + c.source + "\n";
    return out;
}

std::size_t errors_in(const std::vector<Diagnostic>& ds) {
    std::size_t n = 0;
    for (const auto& d : ds) n += d.severity == Severity::Error;
    return n;
}

json finding_json(const Diagnostic& d) {
    return {{"severity", severity_name(d.severity)}, {"rule", d.rule},  {"file", d.file},
            {"line", d.mark.line},                   {"column", d.mark.col}, {"message", d.message},
            {"site", d.site}};
}

json findings_json(const std::vector<Diagnostic>& ds) {
    json a = json::array();
    for (const auto& d : ds) a.push_back(finding_json(d));
    return a;
}

}  // namespace

std::string render_text(const Report& r) {
    std::string out = std::string(r.upgrade ? "Upgrade" : "Downgrade") + " check: " + describe(r.from) + " -> " +
                      describe(r.to) + "\n";
    std::vector<const Change*> concerning, other;
    for (const auto& c : r.changes) (c.subjects.empty() ? other : concerning).push_back(&c);
    out += "\nPlatform changes that concern this repository:\n";
    if (concerning.empty()) out += "  none\n";
    for (const auto* c : concerning) out += change_block(*c);
    if (!other.empty()) {
        out += "\nPlatform changes that do not concern this repository:\n";
        for (const auto* c : other)
            out += "  " + padded(severity_name(c->severity), 8) + c->release + ", " + c->id + ": " + c->what + " (" +
                   c->source + ")\n";
    }
    out += "\nFindings that start on " + r.to.name + ":\n";
    if (r.started.empty()) out += "  none\n";
    for (const auto& d : r.started) out += "  " + finding_line(d) + "\n";
    out += "\nFindings that stop on " + r.to.name + ":\n";
    if (r.stopped.empty()) out += "  none\n";
    for (const auto& d : r.stopped) out += "  " + finding_line(d) + "\n";
    if (!r.unchanged.empty()) {
        out += "\nFindings on both targets: " + std::to_string(r.unchanged.size()) + " (" +
               std::to_string(errors_in(r.unchanged)) + " errors)\n";
        for (const auto& d : r.unchanged)
            if (d.severity == Severity::Error) out += "  " + finding_line(d) + "\n";
    }
    if (!r.emitted.empty()) {
        out += "\nEmitted objects that change (build the sites for " + r.to.name + " and apply):\n";
        for (const auto& s : r.emitted) {
            out += "  site " + s.site + ": " + std::to_string(s.objects.size()) +
                   (s.objects.size() == 1 ? " object\n" : " objects\n");
            for (const auto& o : s.objects) {
                std::string name = o.kind + " " + (o.namespace_.empty() ? "" : o.namespace_ + "/") + o.name;
                if (o.change != "Changed") {
                    out += "    " + name + ": " + (o.change == "Added" ? "added" : "removed") + "\n";
                    continue;
                }
                std::vector<std::string> fields;
                for (std::size_t i = 0; i < o.fields.size() && i < kMaxFields; ++i) {
                    const auto& f = o.fields[i];
                    fields.push_back(f.path + (f.before.empty() ? " added"
                                              : f.after.empty() ? " removed"
                                                                : " " + f.before + " -> " + f.after));
                }
                if (o.fields.size() > kMaxFields) fields.push_back("... " + std::to_string(o.fields.size() - kMaxFields) + " more");
                out += "    " + name + ": " + join(fields, "; ") + "\n";
            }
        }
    }
    std::size_t errors = errors_in(r.started) + errors_in(r.unchanged), breaking = 0, actions = 0;
    for (const auto* c : concerning) {
        breaking += c->severity == Severity::Error;
        actions += c->severity == Severity::Warning;
    }
    out += "\n";
    if (r.breaks())
        out += "The repository breaks on " + r.to.name + ": " + std::to_string(errors) + " error finding(s), " +
               std::to_string(breaking) + " breaking change(s)\n";
    else
        out += "The repository is ready for " + r.to.name + " (" + std::to_string(actions) + " action(s) to take)\n";
    return out;
}

std::string render_json(const Report& r) {
    json changes = json::array();
    for (const auto& c : r.changes) {
        json concerns = json::array();
        for (const auto& s : c.subjects)
            concerns.push_back({{"what", s.what}, {"file", s.file}, {"line", s.mark.line}, {"column", s.mark.col}});
        changes.push_back({{"id", c.id},
                           {"release", c.release},
                           {"severity", severity_name(c.severity)},
                           {"what", c.what},
                           {"detail", c.detail},
                           {"source", c.source},
                           {"concerns", std::move(concerns)}});
    }
    json emitted = json::array();
    for (const auto& s : r.emitted) {
        json objects = json::array();
        for (const auto& o : s.objects) {
            json fields = json::array();
            for (const auto& f : o.fields) fields.push_back({{"path", f.path}, {"before", f.before}, {"after", f.after}});
            objects.push_back({{"kind", o.kind},
                               {"namespace", o.namespace_},
                               {"name", o.name},
                               {"change", o.change},
                               {"fields", std::move(fields)}});
        }
        emitted.push_back({{"site", s.site}, {"objects", std::move(objects)}});
    }
    json doc = {{"apiVersion", "queueforge.io/v1alpha1"},
                {"kind", "UpgradeCheck"},
                {"from", r.from.name},
                {"to", r.to.name},
                {"direction", r.upgrade ? "upgrade" : "downgrade"},
                {"breaks", r.breaks()},
                {"changes", std::move(changes)},
                {"findings",
                 {{"started", findings_json(r.started)},
                  {"stopped", findings_json(r.stopped)},
                  {"unchanged", findings_json(r.unchanged)}}},
                {"emitted", std::move(emitted)}};
    return doc.dump(2) + "\n";
}

Diagnostics as_findings(const Report& r) {
    Diagnostics out;
    for (const auto& d : r.started) out.add(d);
    for (const auto& d : r.unchanged)
        if (d.severity == Severity::Error) out.add(d);
    for (const auto& c : r.changes) {
        if (c.subjects.empty()) continue;
        const Subject& s = c.subjects.front();
        std::string msg = c.release + " (" + c.id + "): " + c.what;
        if (c.subjects.size() > 1)
            msg += " [" + s.what + " and " + std::to_string(c.subjects.size() - 1) + " more]";
        else msg += " [" + s.what + "]";
        msg += "; source: " + c.source;
        const char* rule = c.severity == Severity::Error     ? "upgrade.breaking"
                           : c.severity == Severity::Warning ? "upgrade.action"
                                                             : "upgrade.change";
        out.add({c.severity, s.file, s.mark, std::move(msg), rule, {}, {}, {}});
    }
    return out;
}

}  // namespace queueforge::upgrade
