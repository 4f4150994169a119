// The block scanner reads what it accepts exactly as libyaml does (same nodes, texts,
// flags and positions), and leaves everything else to libyaml.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
      for (const io_internal::DocumentText& piece : io_internal::SplitDocuments(whole)) {
        const ReaderComparison c = CompareYamlReaders(piece.text);
        CHECK(c.difference == "");
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
