// The fast reader must build exactly the trees the yaml-cpp path builds --
// kinds, texts, quoting, marks of keys and values, document starts and
// indices -- whenever it takes a document at all.
#include "test_util.hpp"

#include "base/yaml/fast_parse.hpp"
#include "base/yaml/scalar_resolve.hpp"

#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <random>

using namespace queueforge;

namespace {

std::string describe_difference(const Node& a, const Node& b, const std::string& path) {
    auto where = [&](const Node& n) { return std::to_string(n.mark().line) + ":" + std::to_string(n.mark().col); };
    if (a.kind() != b.kind()) return path + ": kind " + Node::kind_name(a.kind()) + " vs " + Node::kind_name(b.kind());
    if (a.mark() != b.mark()) return path + ": mark " + where(a) + " vs " + where(b);
    if (a.is_scalar()) {
        if (a.text() != b.text()) return path + ": text \"" + a.text() + "\" vs \"" + b.text() + "\"";
        if (a.quoted() != b.quoted()) return path + ": quoted differs";
        return {};
    }
    if (a.size() != b.size()) return path + ": size differs";
    if (a.is_seq()) {
        for (std::size_t i = 0; i < a.items().size(); ++i) {
            auto d = describe_difference(a.items()[i], b.items()[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return {};
    }
    for (std::size_t i = 0; i < a.entries().size(); ++i) {
        const auto &x = a.entries()[i], &y = b.entries()[i];
        if (x.key != y.key) return path + ": key " + x.key + " vs " + y.key;
        if (x.key_mark() != y.key_mark()) return path + "." + x.key + ": key mark differs";
        auto d = describe_difference(x.value, y.value, path + "." + x.key);
        if (!d.empty()) return d;
    }
    return {};
}

// Empty when both readers agree (or the fast one declines); else the difference.
std::string compare_readers(const std::string& text, bool* taken = nullptr) {
    LoadOptions slow_opts;
    slow_opts.fast_path = false;
    auto fast = yaml_detail::fast_parse(text, LoadOptions{});
    if (taken) *taken = fast.has_value();
    if (!fast) return {};
    Diagnostics d;
    auto slow = load_yaml("x", text, d, slow_opts);
    if (d.has_errors() || d.count(Severity::Warning)) return "the full reader reports problems on input the fast one took";
    if (fast->size() != slow.size()) return "document count " + std::to_string(fast->size()) + " vs " + std::to_string(slow.size());
    for (std::size_t i = 0; i < slow.size(); ++i) {
        if ((*fast)[i].index != slow[i].index) return "document index differs";
        if ((*fast)[i].start != slow[i].start)
            return "document start " + std::to_string((*fast)[i].start.line) + ":" + std::to_string((*fast)[i].start.col) +
                   " vs " + std::to_string(slow[i].start.line) + ":" + std::to_string(slow[i].start.col);
        auto diff = describe_difference((*fast)[i].root, slow[i].root, "");
        if (!diff.empty()) return diff;
    }
    return {};
}

// Empty when reading `text` in `parts` parts side by side gives what one
// reader gives (both declining counts as agreeing); else the difference.
std::string compare_parts(const std::string& text, unsigned parts, bool* split_taken = nullptr) {
    LoadOptions one;
    one.threads = 1;
    LoadOptions split;
    split.threads = parts;
    split.parallel_min_bytes = 0;
    auto whole = yaml_detail::fast_parse(text, one);
    auto in_parts = yaml_detail::fast_parse(text, split);
    if (split_taken) *split_taken = in_parts.has_value();
    if (!whole || !in_parts) return whole.has_value() == in_parts.has_value() ? "" : "only one of them took the text";
    if (whole->size() != in_parts->size())
        return "document count " + std::to_string(whole->size()) + " vs " + std::to_string(in_parts->size());
    for (std::size_t i = 0; i < whole->size(); ++i) {
        if ((*whole)[i].index != (*in_parts)[i].index) return "document " + std::to_string(i) + ": index differs";
        if ((*whole)[i].start != (*in_parts)[i].start) return "document " + std::to_string(i) + ": start differs";
        auto diff = describe_difference((*whole)[i].root, (*in_parts)[i].root, "");
        if (!diff.empty()) return "document " + std::to_string(i) + diff;
    }
    return {};
}

}  // namespace

TEST_CASE("yaml: the fast reader agrees with yaml-cpp on small documents") {
    const std::vector<std::string> docs = {
        "a: 1\nb: two\n",
        "---\na: 1\n---\nb: 2\n",
        "a:\n  b: c\n  d:\n  - 1\n  - x: y\n    z: \"q\"\n",
        "key:\n- a\n- b\nother: 1\n",
        "list:\n  - {a: 1, b: [x, 'y', \"z\"]}\n  - [1, 2, {c: d}]\n",
        "{\"apiVersion\": \"v1\", \"kind\": \"List\",\n \"items\": [\n  {\"a\": 1},\n  {\"b\": [true, null, 1.5]}\n ]\n}\n",
        "# comment\na: 1 # trailing\n\nb: 'it''s'\n",
        "a: yes\nb: '0755'\nc: 0755\nd: 1e3\ne: ~\nf: -1\ng: \"esc\\\"aped\\n\"\n",
        "- a\n- b: 1\n  c: 2\n- - x\n",
        "---\n---\na: 1\n",
        "a: b: c\n",
        "a: |\n  text\n",
        "a: &x 1\nb: *x\n",
        "a: 1\na: 2\n",
        "a:\nb: 1\n",
        "a: multi\n  line\n",
        "\xEF\xBB\xBF" "a: 1\n",
        "a:\r\n  b: 1\r\n",
        "? complex\n: key\n",
        // A column-1 document marker inside a flow collection ends the
        // document (yaml-cpp: an error); the fast reader used to read it as
        // an item (found by reading streams in parts).
        "a: [1,\n---\n]\n---\nb: 1\n",
        "a: {b: 1,\n...\n}\n",
        "a: [1,\n--- x]\n",
        // Quoted scalars read in place and unescaped, keys and values.
        "\"k\\\"ey\": \"v\\\\al\\n\"\n'it''s': 'a''b'\nplain: \"\"\nx: ''\n",
        "a: {\"q\\tk\": \"v\\/w\", 'r''s': 't''u'}\nb: [\"x\\\"y\", 'z''w', \"\"]\n",
        "\"long quoted key with no escapes\": \"a long quoted value with no escapes\"\n",
        // Keys and plain values of every first character the typing looks at.
        "yes: 1\nno: 2\nnull: 3\n~: 4\n",
        "Yesterday: a\nnothing: b\ntruely: c\nfalsehood: d\noffset: e\nnone: f\n",
        "a: [yes, no, null, ~, Yesterday, nothing, truely, offset, .5, -1, +2, 0x1f, 1_000]\n",
        "a: Yesterday\nb: offsets\nc: nominal\nd: y\ne: On\nf: .inf\n",
        "{Yesterday: 1, yes: 2}\n",
        // A CR that ends the input: yaml-cpp reads it as content.
        "a: b\r", "  ron: Kesr:.######+##V\r", "a: b\n  \r", "a:\n  b: c\r", "a: \"b\"\r", "a: [b]\r",
        "a: b\n\r", "a: b # c\r", "a: b\r\n",
        // A flow key whose value indicator is on the next line.
        "x: {na\n: b}\n", "x: {na\n : b}\n", "x: {\"a\"\n: b}\n", "{na\n: b}\n", "x:\n  y: {na\n  : b}\n",
        "x: {a: 1,\nb: 2}\n", "x: {a:\n b}\n",
        // A quoted block key with no space after its ':'.
        "s: q\n'':c", "'a':b\n", "\"a\":b\n", "x:\n  'a':b\n", "'a':\n  b: c\n", "{\"a\":b}\n",
    };
    for (const auto& d : docs) {
        INFO(d);
        CHECK(compare_readers(d) == "");
    }
}

TEST_CASE("yaml: a scalar the quick test calls a string resolves to that string") {
    // Every spelling of up to four characters over the characters that
    // decide a scalar's type, the words of go-yaml's tables, and longer ones.
    const std::string chars = "yYnNtTfFoO~.+-0159eExXabsuLlrL_:";
    std::vector<std::string> spellings = {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
                                          "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
                                          "null", "Null", "NULL", "~", ".inf", "-.Inf", "+.INF", ".nan",
                                          "falsey", "nullable", "yesterday", "offset", "Tuesday", "12e3",
                                          "0x1F", "0o17", "1_000", "2001-12-14", "y", "n", "Y", "N"};
    std::vector<std::string> frontier{""};
    for (int len = 1; len <= 4; ++len) {
        std::vector<std::string> next;
        for (const auto& s : frontier)
            for (char c : chars) next.push_back(s + c);
        spellings.insert(spellings.end(), next.begin(), next.end());
        frontier = std::move(next);
    }
    std::size_t plain = 0;
    for (const auto& s : spellings) {
        if (!yaml_detail::plainly_string(s)) continue;
        ++plain;
        INFO(s);
        const auto r = yaml_detail::resolve_plain(s);
        CHECK(r.kind == Node::Kind::String);
        CHECK(r.text == s);
    }
    CHECK(plain > 100000);  // the test saw many of them
    CHECK_FALSE(yaml_detail::plainly_string("yes"));
    CHECK_FALSE(yaml_detail::plainly_string("-1"));
    CHECK(yaml_detail::plainly_string("nominalQuota"));
}

TEST_CASE("yaml: the fast reader agrees with yaml-cpp on every YAML file of the project and ../shared") {
    std::vector<std::filesystem::path> roots = {qf_test::source_dir() / "examples", qf_test::source_dir() / "tests",
                                                qf_test::source_dir() / "templates", qf_test::source_dir() / "schemas"};
    const bool with_shared = qf_test::shared_dir().has_value();
    if (with_shared) roots.push_back(*qf_test::shared_dir());
    else WARN("../shared is not beside this checkout: only the project's own files are compared");
    int files = 0, taken = 0;
    for (const auto& root : roots) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
            auto ext = e.path().extension();
            if (ext != ".yaml" && ext != ".yml" && ext != ".json") continue;
            if (std::filesystem::file_size(e.path()) > 4 * 1024 * 1024) continue;
            INFO(e.path().string());
            bool t = false;
            CHECK(compare_readers(qf_test::read_text(e.path()), &t) == "");
            ++files;
            taken += t;
        }
    }
    UNSCOPED_INFO("fast reader took " << taken << " of " << files << " files");
    CHECK(files > (with_shared ? 300 : 30));
    CHECK(taken > files / 3);
}

TEST_CASE("yaml: the fast reader agrees with yaml-cpp on generated documents") {
    std::mt19937 rng(7);
    const std::vector<std::string> scalars = {"a", "b-c", "1", "0x1F", "yes", "\"q\"", "'s'", "1.5", "null", "~",
                                              "x y", "\"\"", "''", "-1", "a:b", "http://x", "1e3", "true"};
    for (int round = 0; round < 2000; ++round) {
        std::string doc;
        std::function<void(int, int)> gen = [&](int indent, int depth) {
            int n = 1 + static_cast<int>(rng() % 4);
            bool seq = rng() % 3 == 0;
            for (int i = 0; i < n; ++i) {
                doc += std::string(static_cast<std::size_t>(indent), ' ');
                if (seq) doc += "- ";
                else doc += "k" + std::to_string(i) + ":";
                int choice = static_cast<int>(rng() % 5);
                if (depth < 4 && choice == 0) {
                    doc += "\n";
                    gen(indent + 2, depth + 1);
                } else if (choice == 1) {
                    doc += (seq ? "" : " ") + std::string("{a: ") + scalars[rng() % scalars.size()] + ", b: [" +
                           scalars[rng() % scalars.size()] + "]}\n";
                } else {
                    doc += (seq ? "" : " ") + scalars[rng() % scalars.size()] + (rng() % 4 == 0 ? " # c" : "") + "\n";
                }
            }
        };
        gen(0, 0);
        INFO(doc);
        CHECK(compare_readers(doc) == "");
    }
}

TEST_CASE("yaml: the fast reader agrees with yaml-cpp on mutated manifests, or declines", "[slow]") {
    std::string base = qf_test::read_text(qf_test::source_dir() / "tests/golden/multi-team.yaml");
    base = base.substr(0, base.find("\n---\n", 5000) + 1);  // whole documents only
    std::mt19937 rng(std::getenv("QF_FUZZ_SEED") ? static_cast<unsigned>(std::atoi(std::getenv("QF_FUZZ_SEED"))) : 11u);
    const std::string alphabet = " :-{}[]#'\"\n,ab1\t&*!|>?";
    int taken = 0;
    // QF_FUZZ_ROUNDS raises the count for a longer search by hand.
    const int rounds = std::getenv("QF_FUZZ_ROUNDS") ? std::atoi(std::getenv("QF_FUZZ_ROUNDS")) : 1500;
    for (int round = 0; round < rounds; ++round) {
        std::string doc = base;
        int edits = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < edits; ++k) {
            std::size_t at = rng() % doc.size();
            char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 3) {
            case 0: doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), c); break;
            case 1: doc.erase(at, 1); break;
            default: doc[at] = c;
            }
        }
        bool t = false;
        std::string diff = compare_readers(doc, &t);
        taken += t;
        if (!diff.empty()) {
            INFO(doc);
            CHECK(diff == "");
        }
    }
    UNSCOPED_INFO("fast reader took " << taken << " of " << rounds << " mutated documents");
    CHECK(taken > rounds / 15);
}

TEST_CASE("yaml: a stream read in parts side by side gives the documents one reader gives") {
    // Documents of every shape the cut may land between: empty ones, marker
    // lines with comments, JSON, flow collections, a "---" that is a value.
    std::string stream = "# leading comment\napiVersion: v1\nkind: A\n";
    for (int i = 0; i < 60; ++i) {
        switch (i % 5) {
        case 0: stream += "---\nkind: B\nmetadata: {name: b" + std::to_string(i) + "}\n"; break;
        case 1: stream += "---\nlist:\n- x\n- y\nq: \"---\"\nl:\n- [1,\n  2]\n"; break;
        case 2: stream += "---\n---\n\n# only a comment\n"; break;
        case 3: stream += "---\r\nkind: D\r\nname: '---'\r\n"; break;
        default: stream += "---\nnested:\n  deeper:\n    - a: 1\n      b: [\"x\", 'y']\n"; break;
        }
    }
    for (unsigned parts = 2; parts <= 9; ++parts) {
        INFO("parts: " << parts);
        bool taken = false;
        CHECK(compare_parts(stream, parts, &taken) == "");
        CHECK(taken);
    }
    // A cut inside a flow collection that runs over a column-1 "---" line:
    // the parts decline, as the whole does.
    const std::string across = "a: [1,\n---\n]\n---\nb: 1\n";
    for (unsigned parts = 2; parts <= 4; ++parts) CHECK(compare_parts(across, parts) == "");
    // The node limit is the whole stream's: with the smallest limit one
    // reader takes the stream at, the parts take it too, and one node less
    // the parts decline as one reader does (each part alone is well within).
    std::string many;
    for (int i = 0; i < 40; ++i) many += "---\na: 1\nb: [2, 3]\n";
    auto takes = [&](std::size_t limit, unsigned threads) {
        LoadOptions o;
        o.threads = threads;
        o.parallel_min_bytes = 0;
        o.max_nodes = limit;
        return yaml_detail::fast_parse(many, o).has_value();
    };
    std::size_t least = 1;
    while (!takes(least, 1) && least < 10000) ++least;
    REQUIRE(least > 40);
    CHECK(takes(least, 4));
    CHECK_FALSE(takes(least - 1, 1));
    CHECK_FALSE(takes(least - 1, 4));
}

TEST_CASE("yaml: every YAML file of the project read in parts gives the documents one reader gives") {
    int files = 0, split = 0;
    for (const char* folder : {"examples", "tests", "templates"}) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(qf_test::source_dir() / folder)) {
            auto ext = e.path().extension();
            if (ext != ".yaml" && ext != ".yml" && ext != ".json") continue;
            if (std::filesystem::file_size(e.path()) > 4 * 1024 * 1024) continue;
            const std::string text = qf_test::read_text(e.path());
            INFO(e.path().string());
            bool taken = false;
            CHECK(compare_parts(text, 3, &taken) == "");
            ++files;
            split += taken && text.find("\n---") != std::string::npos;
        }
    }
    UNSCOPED_INFO(split << " of " << files << " files were read in parts");
    CHECK(split > 20);
}
