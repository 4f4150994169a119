// The libyaml-built document tree: what Kubernetes' decoder does (merge keys, repeated
// and non-scalar keys refused), aliases shared and bounded, positions, and the same
// reading on one thread or several.
#include <catch2/catch.hpp>

#include <string>

#include "absl/strings/str_cat.h"
#include "src/io/yaml_reader.h"
#include "src/io/yaml_tree.h"
#include "vcsched/io/scenario.h"

namespace vcsched::io_internal {
namespace {

using Kind = YamlTree::Kind;

// The tree of one document, which must parse.
struct Parsed {
  YamlTree tree;
  int32_t root = -1;
};
void ParseOk(const std::string& text, Parsed* p) {
  std::string error;
  REQUIRE(p->tree.Parse(text, 0, 200, &error) == YamlTree::Failure::kNone);
  REQUIRE(p->tree.documents().size() == 1);
  p->root = p->tree.documents()[0];
}

// The value of `key` in map node `map`, or -1.
int32_t Get(const YamlTree& t, int32_t map, const std::string& key) {
  const YamlTree::Node& n = t.node(map);
  if (n.kind != Kind::kMap) return -1;
  for (uint32_t k = 0; k < n.size; ++k) {
    if (t.key(n, k) == key) return t.value(n, k);
  }
  return -1;
}

std::string ErrorOf(const std::string& text, YamlTree::Failure want) {
  YamlTree tree;
  std::string error;
  CHECK(tree.Parse(text, 10, 200, &error) == want);
  return error;
}

TEST_CASE("YamlTree: scalars, nulls, quoting and positions", "[io][yaml]") {
  Parsed p;
  ParseOk("a: 1\nb: \"2\"\nc: ~\nd:\ne: 'null'\nf: |\n  text\ng: !!str 3\nh: [x, {y: z}]\n", &p);
  const YamlTree& t = p.tree;
  const YamlTree::Node& a = t.node(Get(t, p.root, "a"));
  CHECK(a.kind == Kind::kScalar);
  CHECK_FALSE(a.quoted);
  CHECK(t.text(a) == "1");
  CHECK(a.line == 0);
  CHECK(a.column == 3);
  CHECK(t.node(Get(t, p.root, "b")).quoted);
  CHECK(t.node(Get(t, p.root, "c")).kind == Kind::kNull);
  CHECK(t.node(Get(t, p.root, "d")).kind == Kind::kNull);
  const YamlTree::Node& e = t.node(Get(t, p.root, "e"));
  CHECK(e.kind == Kind::kScalar);  // a quoted "null" is a string
  CHECK(e.quoted);
  CHECK(t.text(t.node(Get(t, p.root, "f"))) == "text\n");
  CHECK(t.node(Get(t, p.root, "f")).quoted);
  CHECK(t.node(Get(t, p.root, "g")).quoted);
  const YamlTree::Node& h = t.node(Get(t, p.root, "h"));
  REQUIRE(h.kind == Kind::kList);
  REQUIRE(h.size == 2);
  CHECK(t.node(t.link(h, 1)).kind == Kind::kMap);
  CHECK(t.node(t.link(h, 1)).line == 8);
}

TEST_CASE("YamlTree: merge keys expand, own keys first and winning", "[io][yaml]") {
  Parsed p;
  ParseOk("base: &b {cpu: 1, memory: 2}\nmore: &m {gpu: 3, cpu: 9}\n"
          "one: {<<: *b, cpu: 5}\nmany: {<<: [*m, *b], pods: 4}\nquoted: {\"<<\": *b}\n",
          &p);
  const YamlTree& t = p.tree;
  const int32_t one = Get(t, p.root, "one");
  REQUIRE(t.node(one).size == 2);
  CHECK(t.text(t.node(t.link(t.node(one), 0))) == "cpu");
  CHECK(t.text(t.node(Get(t, one, "cpu"))) == "5");
  CHECK(t.text(t.node(Get(t, one, "memory"))) == "2");
  const int32_t many = Get(t, p.root, "many");
  REQUIRE(t.node(many).size == 4);  // pods, then gpu and cpu of *m, then memory of *b
  CHECK(t.text(t.node(t.link(t.node(many), 0))) == "pods");
  CHECK(t.text(t.node(Get(t, many, "cpu"))) == "9");
  CHECK(t.text(t.node(Get(t, many, "memory"))) == "2");
  // A quoted "<<" is an ordinary key (Kubernetes' decoder resolves only plain ones).
  const int32_t quoted = Get(t, p.root, "quoted");
  REQUIRE(t.node(quoted).size == 1);
  CHECK(Get(t, quoted, "<<") >= 0);
}

TEST_CASE("YamlTree: what a manifest may not hold is an error with its place", "[io][yaml]") {
  CHECK(ErrorOf("a: 1\nb: 2\na: 3\n", YamlTree::Failure::kContent) ==
        "line 13:1: duplicate key \"a\" (first at line 11:1)");
  // Keys are compared after merging too: a repeat among many keys is found by hashing.
  std::string many;
  for (int i = 0; i < 40; ++i) absl::StrAppend(&many, "k", i, ": ", i, "\n");
  CHECK_THAT(ErrorOf(many + "k33: again\n", YamlTree::Failure::kContent), Catch::Contains("duplicate key \"k33\""));
  CHECK_THAT(ErrorOf("? [a]\n: 1\n", YamlTree::Failure::kContent),
             Catch::Contains("a mapping key must be a string or a number, not a list"));
  CHECK_THAT(ErrorOf("~: 1\n", YamlTree::Failure::kContent), Catch::Contains("not null"));
  CHECK_THAT(ErrorOf("a: {<<: 5}\n", YamlTree::Failure::kContent),
             Catch::Contains("a merge key (<<) takes a mapping or a list of mappings"));
  CHECK_THAT(ErrorOf("x: &x [1]\na: {<<: [*x]}\n", YamlTree::Failure::kContent),
             Catch::Contains("a merge key (<<) takes mappings, got a list"));
  // An alias inside the node it names would make a cycle.
  CHECK_THAT(ErrorOf("a: &a [x, *a]\n", YamlTree::Failure::kContent),
             Catch::Contains("line 11:11: invalid YAML: the alias *a names no anchor"));
  CHECK_THAT(ErrorOf("a: *nowhere\n", YamlTree::Failure::kContent), Catch::Contains("the alias *nowhere"));
  std::string deep;
  for (int i = 0; i < 250; ++i) deep += "[";
  CHECK_THAT(ErrorOf(deep, YamlTree::Failure::kContent), Catch::Contains("nesting depth exceeds the limit of 200"));
}

TEST_CASE("YamlTree: aliases are shared, and what they stand for is bounded", "[io][yaml]") {
  Parsed p;
  ParseOk("a: &a {x: 1}\nb: *a\n", &p);
  CHECK(Get(p.tree, p.root, "a") == Get(p.tree, p.root, "b"));  // one node, two places
  // Ten levels of ten aliases stand for ten billion nodes: refused at the alias that
  // passes the limit, in microseconds and without the memory.
  std::string bomb = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    absl::StrAppend(&bomb, "l", i, ": &l", i, " [");
    for (int k = 0; k < 10; ++k) absl::StrAppend(&bomb, k ? ", " : "", "*l", i - 1);
    bomb += "]\n";
  }
  CHECK_THAT(ErrorOf(bomb, YamlTree::Failure::kContent), Catch::Contains("values once its aliases are expanded"));
  // Nor may a large scalar aliased many times stand for more text than an input holds.
  std::string text_bomb = "a: &a " + std::string(1 << 20, 'x') + "\nb: [";
  for (int i = 0; i < 300; ++i) absl::StrAppend(&text_bomb, i ? ", " : "", "*a");
  text_bomb += "]\n";
  CHECK_THAT(ErrorOf(text_bomb, YamlTree::Failure::kContent), Catch::Contains("bytes of text"));
  // A large document without aliases is not what the limit is for.
  std::string large;
  for (int i = 0; i < 20000; ++i) absl::StrAppend(&large, "- {a: ", i, ", b: [1, 2, 3]}\n");
  Parsed big;
  ParseOk(large, &big);
  CHECK(big.tree.node(big.root).size == 20000);
}

TEST_CASE("YamlTree: syntax errors say where, never past the text", "[io][yaml]") {
  CHECK_THAT(ErrorOf("a: [1, 2\n", YamlTree::Failure::kSyntax), Catch::StartsWith("line 12:1: invalid YAML: "));
  // libyaml moves to a new line at the end of the text; the error stays on the last one.
  CHECK_THAT(ErrorOf("{\"a\": 1,", YamlTree::Failure::kSyntax), Catch::StartsWith("line 11:9: invalid YAML: "));
  CHECK_THAT(ErrorOf(",x\n", YamlTree::Failure::kSyntax), Catch::Contains("invalid YAML"));
}

TEST_CASE("YamlTree: several documents, each with its own anchors", "[io][yaml]") {
  YamlTree tree;
  std::string error;
  REQUIRE(tree.Parse("a: &x 1\n---\nb: 2\n---\n", 0, 200, &error) == YamlTree::Failure::kNone);
  CHECK(tree.documents().size() == 3);
  CHECK(tree.node(tree.documents()[2]).kind == Kind::kNull);
  CHECK(tree.Parse("a: &x 1\n---\nb: *x\n", 0, 200, &error) == YamlTree::Failure::kContent);
}

TEST_CASE("YamlTree: blank pieces are empty documents or none, without a parser", "[io][yaml]") {
  YamlTree tree;
  std::string error;
  for (const char* blank : {"---\n", "--- # note\n\n  \t\r\n# more\n", "---"}) {
    REQUIRE(tree.Parse(blank, 0, 200, &error) == YamlTree::Failure::kNone);
    REQUIRE(tree.documents().size() == 1);
    CHECK(tree.node(tree.documents()[0]).kind == Kind::kNull);
  }
  for (const char* nothing : {"", "# only a comment\n", "\n\n   \n"}) {
    REQUIRE(tree.Parse(nothing, 0, 200, &error) == YamlTree::Failure::kNone);
    CHECK(tree.documents().empty());
  }
  // Not blank: a value after the marker, or a '#' that is not a comment.
  REQUIRE(tree.Parse("--- x\n", 0, 200, &error) == YamlTree::Failure::kNone);
  CHECK(tree.node(tree.documents()[0]).kind == Kind::kScalar);
  REQUIRE(tree.Parse("---\na#b: 1\n", 0, 200, &error) == YamlTree::Failure::kNone);
  CHECK(tree.node(tree.documents()[0]).kind == Kind::kMap);
}

TEST_CASE("Loader: a stream of many empty documents keeps its numbering and no label per document",
          "[io][yaml]") {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "---\n";
  text += "---\napiVersion: v1\nkind: Nod\n";
  for (int threads : {1, 2}) {
    LoadOptions options;
    options.threads = threads;
    const absl::StatusOr<Scenario> sc = LoadScenario({{"e.yaml", text}}, options);
    REQUIRE_FALSE(sc.ok());
    CHECK_THAT(std::string(sc.status().message()), Catch::Contains("e.yaml: document 200001, line 200003:7"));
  }
}

TEST_CASE("FirstInvalidUtf8 finds the first bad byte wherever it is", "[io][yaml]") {
  const std::string clean(64, 'a');
  CHECK(FirstInvalidUtf8(clean) == -1);
  CHECK(FirstInvalidUtf8(clean + "\t\n\r" + clean + "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == -1);
  for (size_t at = 0; at < 40; ++at) {
    for (const char* bad : {"\x01", "\x7f", "\x1f", "\xff", "\xc0\xaf", "\xed\xa0\x80"}) {
      std::string text = clean;
      text.insert(at, bad);
      CHECK(FirstInvalidUtf8(text) == static_cast<int64_t>(at));
    }
  }
}

TEST_CASE("Loader: YAML read on several threads reads and reports the same", "[io][yaml]") {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    absl::StrAppend(&text, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n", i, "}\n",
                    "status: {allocatable: {cpu: \"", i % 17 == 0 ? "x" : "4", "\", pods: \"10\"}}\n");
    if (i % 50 == 7) text += "---\n: [\n";  // malformed
    if (i % 60 == 11) text += "---\na: 1\na: 2\n";  // a repeated key
  }
  LoadOptions one, many;
  many.threads = 4;
  const absl::StatusOr<Scenario> a = LoadScenario({{"t.yaml", text}}, one);
  const absl::StatusOr<Scenario> b = LoadScenario({{"t.yaml", text}}, many);
  REQUIRE_FALSE(a.ok());
  CHECK(a.status().message() == b.status().message());
  CHECK_THAT(std::string(a.status().message()), Catch::Contains("duplicate key \"a\""));
  // And without errors, the same snapshot; a few documents are large (their trees are
  // given back once read, and fewer are parsed ahead).
  std::string good;
  const std::string large(3 << 20, 'x');
  for (int i = 0; i < 300; ++i) {
    absl::StrAppend(&good, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n", i,
                    i % 97 == 5 ? absl::StrCat(", annotations: {big: ", large, "}") : "",
                    "}\nstatus: {allocatable: {cpu: \"4\", pods: \"10\"}}\n");
  }
  const absl::StatusOr<Scenario> c = LoadScenario({{"g.yaml", good}}, one);
  const absl::StatusOr<Scenario> d = LoadScenario({{"g.yaml", good}}, many);
  REQUIRE(c.ok());
  REQUIRE(d.ok());
  REQUIRE(c->snapshot.nodes().size() == 300);
  REQUIRE(d->snapshot.nodes().size() == 300);
  for (size_t i = 0; i < 300; ++i) CHECK(c->snapshot.nodes()[i].spec.name == d->snapshot.nodes()[i].spec.name);
}

}  // namespace
}  // namespace vcsched::io_internal
