// The block scanner reads what it accepts exactly as libyaml does (same nodes, texts,
// flags and positions), and leaves everything else to libyaml.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/io/yaml_reader.h"
#include "tests/testing/yaml_tree_compare.h"

namespace vcsched::testing {
namespace {

void ExpectSame(const std::string& text, bool fast) {
  INFO(text);
  const ReaderComparison c = CompareYamlReaders(text);
  CHECK(c.difference == "");
  CHECK(c.fast == fast);
}

TEST_CASE("Block scanner: manifests as kubectl and generators print them", "[io][yaml]") {
  ExpectSame(
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    scheduling.k8s.io/group-name: job-00000\n"
      "  creationTimestamp: '2026-01-01T00:00:00Z'\n  name: job-00000-worker-0\n  namespace: ns0\nspec:\n"
      "  containers:\n  - image: busybox\n    name: main\n    resources:\n      requests:\n        cpu: '1'\n"
      "        memory: 4Gi\n  schedulerName: volcano\nstatus:\n  phase: Pending\n",
      true);
  ExpectSame("a: {}\nb: []\nc:\n- {}\n- []\nd: ~\ne: null\nf:\ng: NULL\n", true);
  ExpectSame("# a comment\n\n---\n# another\na: 1 # trailing\nb: x#y\nc: http://host:80/p\nd: a[0],{b}   \n", true);
  ExpectSame("a: 'it''s'\nb: \"q\\\"\\\\\\n\\t\\u0041\\x42\\/ \"\nc: ''\nd: \"\"\n'k 1': v\n\"k:2\": w\n", true);
  ExpectSame("- a\n- b: 1\n  c:\n  - x\n  - y\n  d: 2\n-   e: 3\n- -1\n", true);
  ExpectSame("a:\n  b:\n    c: 1\n  d:\n  - 1\n  - f:\n      g: 2\ne: 3\n", true);
  ExpectSame("a:b: c\nx-y_z.w/v: 0\n<<:\n  m: 1\nn: 2\n", true);
  ExpectSame("a: 1\n---\nb: 2\n---\n- 3\n", true);
  ExpectSame("a:\n    - 1\n    - 2\nb:\n", true);
  ExpectSame("a: {b: 1, c: [x, 'y', \"z\"], d: {}}\ne: [ {f: g}, [h, i j], -1 ] # c\n- k\n", false);
  ExpectSame("a: {b: 1, c: [x, 'y', \"z\"], d: {}}\ne: [ {f: g}, [h, i j], -1 ] # c\n", true);
  ExpectSame("- {cpu: '1', memory: 1Gi}\n- [\"sh\", \"-c\", \"sleep 10\"]\n- {'k': v, \"q\": [ ]}\n", true);
  ExpectSame("a: 1\nb:\n\n\n  # between\n  c: 2\n", true);
}

TEST_CASE("Block scanner: what it leaves to libyaml reads as libyaml reads it", "[io][yaml]") {
  for (const char* text : {
           "a:\tb\n", "a: b\r\nc: d\r\n", "a: caf\xc3\xa9\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n",
           "a: >\n  folded\n", "a: multi\n  line\n", "a: 'open\n  quote'\n",
           "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n", "- - a\n", "-\n  a: 1\n", "a : 1\n", "? a\n: b\n", "a: b: c\n",
           "---\n---\na: 1\n", "hello\n", "a: 'x' y\n", "a: \"\\u00e9\"\n", "a: \"\\q\"\n", "a: 1\na: 2\n",
           "a:\n  b: 1\n c: 2\n", "a: [b, ]\n", "a: [, b]\n", "a: {b}\n", "a: [b: c]\n", "a: {b:c}\n",
           "a: {\"b\":c}\n", "a: [b\n  c]\n", "a: [b] c\n", "a: [b #c]\n", "a: [http://x]\n", "a: {b: }\n",
           "a: [b, {c: d]\n", "a: [?b]\n", "a: [- b]\n", "a: 1\n  b: 2\n", "- a\nb: 1\n", "a: 1\n- b\n", "a: @b\n", "a: `b`\n", "a: ,b\n",
           "a: - b\n", "a: 'x'#c\n", "--- a: 1\n", "a: \"\\x4\"\n", "key: value\n  continued\n", "a:\n  b\n",
       }) {
    ExpectSame(text, false);
  }
}

TEST_CASE("Block scanner: keys longer than libyaml takes are left to it", "[io][yaml]") {
  for (const size_t n : {size_t{990}, size_t{1030}, size_t{1100}}) {
    const std::string k(n, 'k');
    const bool fast = n < 1000;
    ExpectSame(k + ": v\n", fast);
    ExpectSame("'" + k + "': v\n", fast);
    ExpectSame("a: {" + k + ": v}\n", fast);
    ExpectSame("a: {\"" + k + "\": v}\n", fast);
    ExpectSame("a: [" + k + "]\n", true);  // a long value is not a key
  }
}

TEST_CASE("Block scanner: nesting past the limit is left to libyaml", "[io][yaml]") {
  std::string deep;
  for (int i = 0; i < 150; ++i) deep += std::string(static_cast<size_t>(2 * i), ' ') + "k:\n";
  deep += std::string(300, ' ') + "k: 1\n";
  const ReaderComparison c = CompareYamlReaders(deep, 100);
  CHECK(c.difference == "");
  CHECK_FALSE(c.fast);
}

// Random documents in and around the scanner's shapes: nested maps, lists and flow
// collections, scalars of every style and awkward text, comments, blank lines, and
// now and then a fault (an indentation off by one, a missing blank, a stray character).
class RandomYaml {
 public:
  explicit RandomYaml(uint32_t seed) : state_(seed) {}

  std::string Document() {
    out_.clear();
    if (Pick(4) == 0) out_ += "---\n";
    Map(0, 0);
    return out_;
  }

 private:
  uint32_t Next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_ >> 8;
  }
  uint32_t Pick(uint32_t n) { return Next() % n; }
  std::string Word() {
    static const char* const kPlain[] = {"a", "name", "cpu", "1", "-1", "0.5", "true", "null", "~", "x y", "a:b",
                                         "http://h:80", "a#b", "<<", "k-8_s.io/x", "Yes", "v", "4Gi"};
    static const char* const kOdd[] = {"", "-", "'", "\"", "[", "{", "}", ",", "?", ":", "#", "&a", "*a", "!t", "|",
                                       ">", "%", "@", "- x", "a: b", "a #b"};
    if (Pick(50) == 0) return kOdd[Pick(sizeof(kOdd) / sizeof(kOdd[0]))];
    return kPlain[Pick(sizeof(kPlain) / sizeof(kPlain[0]))];
  }
  // Mostly distinct keys: a repeated key is refused, and both readers would then agree
  // only that the document is not for the scanner.
  std::string Key(uint32_t i) {
    if (Pick(20) == 0) return Scalar();
    return Scalar(absl::StrCat(Word(), "-", i));
  }
  std::string Scalar() { return Scalar(Word()); }
  std::string Scalar(std::string w) {
    switch (Pick(6)) {
      case 0: {
        std::string q = "'";
        for (char c : w) q += c == '\'' ? std::string("''") : std::string(1, c);
        return q + "'";
      }
      case 1: {
        std::string q = "\"";
        for (char c : w) q += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
        return q + (Pick(8) == 0 ? "\\n\\u0041\\x42" : "") + "\"";
      }
      default: return w.empty() ? "v" : w;
    }
  }
  std::string Flow(int depth) {
    if (depth > 2 || Pick(3) == 0) return Scalar();
    const bool map = Pick(2) == 0;
    std::string s = map ? "{" : "[";
    const uint32_t n = Pick(4);
    for (uint32_t i = 0; i < n; ++i) {
      if (i > 0) s += Pick(40) == 0 ? "," : ", ";
      if (map) s += Key(i) + (Pick(40) == 0 ? ":" : ": ");
      s += Flow(depth + 1);
    }
    return s + (map ? "}" : "]");
  }
  void Line(int indent, const std::string& text) {
    const int off = Pick(150) == 0 ? (Pick(2) == 0 ? 1 : -1) : 0;
    out_ += std::string(static_cast<size_t>(std::max(0, indent + off)), ' ') + text;
    if (Pick(10) == 0) out_ += "  # note";
    if (Pick(100) == 0) out_ += Word();
    out_ += "\n";
    if (Pick(15) == 0) out_ += Pick(2) == 0 ? "\n" : std::string(static_cast<size_t>(indent), ' ') + "# c\n";
  }
  void Value(int indent, int depth, const std::string& head) {
    const uint32_t kind = depth > 3 ? 0 : Pick(5);
    if (kind == 0) return Line(indent, head + " " + Scalar());
    if (kind == 1) return Line(indent, head + " " + Flow(0));
    Line(indent, head);
    if (kind == 2) return Map(indent + 2, depth + 1);
    List(Pick(2) == 0 ? indent : indent + 2, depth + 1);
  }
  void Map(int indent, int depth) {
    const uint32_t n = 1 + Pick(4);
    for (uint32_t i = 0; i < n; ++i) Value(indent, depth, Key(i) + (Pick(100) == 0 ? "" : ":"));
  }
  void List(int indent, int depth) {
    const uint32_t n = 1 + Pick(3);
    for (uint32_t i = 0; i < n; ++i) {
      if (Pick(3) == 0 && depth < 4) {
        Line(indent, "- " + Key(0) + ": " + Scalar());
        Map(indent + 2, depth + 1);
      } else {
        Value(indent, depth, Pick(10) != 0 ? "- " + Key(0) + ":" : "-");
      }
    }
  }

  uint32_t state_;
  std::string out_;
};

TEST_CASE("Block scanner: random documents read as libyaml reads them", "[io][yaml]") {
  RandomYaml gen(20261203);
  int fast = 0;
  constexpr int kDocuments = 20000;
  for (int i = 0; i < kDocuments; ++i) {
    const std::string text = gen.Document();
    const ReaderComparison c = CompareYamlReaders(text);
    if (!c.difference.empty()) {
      INFO(text);
      CHECK(c.difference == "");
    }
    fast += c.fast ? 1 : 0;
  }
  // The generator's faults and indicators send many to libyaml; enough must stay.
  CHECK(fast > kDocuments / 5);
  WARN(fast << " of " << kDocuments << " random documents read by the block scanner");
}

// Every YAML file in the repository, whole and split into documents as the loader splits
// a stream: the same trees whichever reader reads them.
TEST_CASE("Block scanner: every YAML file of the repository", "[io][yaml]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(VCSCHED_TEST_DATA_DIR).parent_path().parent_path();
  int pieces = 0, fast = 0;
  for (const char* dir : {"tests", "examples", "docs", "bench"}) {
    if (!fs::exists(root / dir)) continue;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".yaml" && ext != ".yml") || e.file_size() > (size_t{4} << 20)) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      const std::string whole = text.str();
      INFO(e.path().string());
      CHECK(CompareYamlReaders(whole).difference == "");
      // The differential corpus is PyYAML's output, whose `spec:\n  {}` (a flow map on
      // the line below its key) the scanner leaves to libyaml: compared, not counted.
      const bool counted = e.path().string().find("/tests/differential/") == std::string::npos;
      for (const io_internal::DocumentText& piece : io_internal::SplitDocuments(whole)) {
        const ReaderComparison c = CompareYamlReaders(piece.text);
        CHECK(c.difference == "");
        if (!counted) continue;
        ++pieces;
        fast += c.fast ? 1 : 0;
      }
    }
  }
  // Most documents here are block YAML with one-line flow collections: the scanner
  // must read most of them.
  CHECK(fast * 10 > pieces * 8);
  WARN(fast << " of " << pieces << " documents read by the block scanner");
}

}  // namespace
}  // namespace vcsched::testing
