// Every file of tests/bad_inputs is rejected with the error its first line announces
// ("# expect: <fragment>"), whether at load or when its configuration is used.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "vcsched/io/manifests.h"
#include "vcsched/io/scenario.h"
#include "vcsched/quantity.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string ErrorOf(const std::string& name, const std::string& text, const LoadOptions& opts = {}) {
  absl::StatusOr<Scenario> sc = LoadScenario({{name, text}}, opts);
  if (!sc.ok()) return std::string(sc.status().message());
  if (sc->config) {
    absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
    if (!d.ok()) return std::string(d.status().message());
  }
  return "";
}

TEST_CASE("BadInputs: each corpus file is rejected with a clear error", "[io][bad-inputs]") {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(VCSCHED_TEST_DATA_DIR) + "/../bad_inputs")) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    const std::string first = text.substr(0, text.find('\n'));
    REQUIRE(first.rfind("# expect: ", 0) == 0);
    const std::string expect = first.substr(10);
    const std::string err = ErrorOf(e.path().filename().string(), text);
    INFO(e.path().filename().string());
    CHECK_THAT(err, Catch::Contains(expect));
    CHECK_THAT(err, Catch::Contains(e.path().filename().string()) || Catch::Contains("tiers") ||
                        Catch::Contains("actions["));
  }
  CHECK(files >= 20);
}

TEST_CASE("BadInputs: an input over the size limit is refused before parsing", "[io][bad-inputs]") {
  LoadOptions opts;
  opts.max_bytes = 1 << 20;
  std::string big = "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {";
  while (big.size() < (2u << 20)) big += "k" + std::to_string(big.size()) + ": v, ";
  big += "z: v}}\n";
  CHECK_THAT(ErrorOf("big.yaml", big, opts), Catch::Contains("exceeds the limit of 1048576"));
}

// A file of tests/bad_inputs/warned: it loads, with warnings.
absl::StatusOr<Scenario> LoadWarned(const std::string& name) {
  std::ifstream in(std::string(VCSCHED_TEST_DATA_DIR) + "/../bad_inputs/warned/" + name);
  std::stringstream buf;
  buf << in.rdbuf();
  return LoadScenario({{name, buf.str()}});
}

TEST_CASE("BadInputs: dangling references are warned about and not applied", "[io][bad-inputs]") {
  absl::StatusOr<Scenario> sc = LoadWarned("dangling-references.yaml");
  REQUIRE(sc.ok());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  CHECK(d->binds.empty());
  CHECK(d->pipelined.empty());
  const std::vector<std::string>& w = d->warnings;
  REQUIRE(w.size() == 3);
  CHECK_THAT(w[0], Catch::Contains("Pod \"ns/p-missing-group\": annotation scheduling.k8s.io/group-name") &&
                       Catch::Contains("not found"));
  CHECK_THAT(w[1], Catch::Contains("Pod \"ns/p-missing-node\": spec.nodeName: node \"gone\" not found"));
  CHECK_THAT(w[2], Catch::Contains("PodGroup \"ns/pg-missing-queue\": spec.queue: queue \"nowhere\" not found"));
}

TEST_CASE("BadInputs: a wrongly typed argument is warned about and its default used", "[io][bad-inputs]") {
  absl::StatusOr<Scenario> sc = LoadWarned("wrongly-typed-argument.yaml");
  REQUIRE(sc.ok());
  REQUIRE(sc->config.has_value());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
  REQUIRE(d.ok());
  CHECK(d->binds.size() == 1);
  REQUIRE(d->warnings.size() == 1);
  // The warning names the file and document the configuration came from.
  CHECK_THAT(d->warnings[0], Catch::StartsWith("wrongly-typed-argument.yaml: document 1: tiers[0].plugins[1] (binpack): "
                                               "argument \"binpack.weight\": expected an integer, got \"heavy\"; "
                                               "the default is used there"));
  // Its other argument still applies: only the wrongly typed one was dropped.
  const PluginOption& binpack = sc->config->tiers[0].plugins[1];
  CHECK(binpack.arguments.Find("binpack.cpu") != nullptr);
}

TEST_CASE("BadInputs: regressions found by the fuzzers", "[io][bad-inputs][fuzz]") {
  SECTION("a document starting with ',' used to hang yaml-cpp") {
    CHECK_THAT(std::string(LoadSchedulerConfig({"c.conf", ",iece"}).status().message()),
               Catch::Contains("invalid YAML"));
    CHECK_THAT(ErrorOf("s.yaml", ",a"), Catch::Contains("invalid YAML"));
  }
  SECTION("a huge binary-suffixed quantity overflowed 128-bit arithmetic") {
    CHECK_FALSE(ParseValue("55553558888888888888000000288042220047Mi").ok());
    CHECK_FALSE(ParseMilliValue("9999999999999999999999999999999999Ei").ok());
  }
  SECTION("a cluster with no nodes used to index an empty Eigen matrix") {
    absl::StatusOr<Scenario> sc = LoadScenario({{"empty.yaml", R"(apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg}
spec: {minMember: 1, minResources: {cpu: "1"}}
)"}});
    REQUIRE(sc.ok());
    absl::StatusOr<Decisions> d = RunSession(sc->snapshot, DefaultSchedulerConfig());
    REQUIRE(d.ok());
    CHECK(d->binds.empty());
  }
  SECTION("an anchor aliased inside itself made an endless tree and overflowed the stack") {
    const std::string cyclic = "a: &a [x, *a]\n";
    absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{"m.yaml", "apiVersion: v1\nkind: Node\n" + cyclic}});
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(std::string(m.status().message()), Catch::Contains("line 3:11: invalid YAML: the alias *a names no anchor"));
    absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig(
        {"c.yaml", "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    arguments: &a {x: [*a]}\n"});
    REQUIRE_FALSE(c.ok());
    CHECK_THAT(std::string(c.status().message()), Catch::Contains("nested deeper than 200 levels"));
  }
  SECTION("mapping keys that were mappings read as empty strings and printed as duplicates") {
    // JSON-looking text read as YAML: `{"a": 1, {"b": 2}, {"c": 3}}` holds two mappings as keys.
    for (const char* keys : {R"({"b":2}, {"c":3})", "[x], [y]", "~: 1, null: 2"}) {
      INFO(keys);
      const std::string doc = std::string(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",)") + keys + "}}";
      absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{"k.yaml", doc}});
      REQUIRE_FALSE(m.ok());
      CHECK_THAT(std::string(m.status().message()),
                 Catch::Contains("k.yaml: document 1, line 1:") && Catch::Contains("a mapping key must be a string or a number"));
    }
    // Strings and numbers stay keys, quoted or not.
    CHECK(LoadManifests({{"k.yaml", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","null":1,"1":2}})"}}).ok());
  }
  SECTION("plain and quoted values with carriage returns or outer spaces printed as plain text") {
    // A flow mapping keeps carriage returns in a plain value; JSON strings keep anything.
    const std::vector<std::pair<std::string, std::string>> sources = {
        {"f.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default\r\r\r, labels: {a: b}}\n"},
        {"j.json", R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p ","namespace":" x","labels":{"k\r":"v\t"}}})"}};
    for (const auto& [name, text] : sources) {
      INFO(name);
      absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{name, text}});
      REQUIRE(m.ok());
      REQUIRE(m->size() == 1);
      absl::StatusOr<std::vector<Manifest>> back = LoadManifests({{"back.yaml", ToYaml({&(*m)[0].object})}});
      REQUIRE(back.ok());
      REQUIRE(back->size() == 1);
      CHECK((*back)[0].object == (*m)[0].object);
    }
  }
  SECTION("Unicode line breaks, a byte-order mark and a fuzzer's mutated List print back the same") {
    // libyaml (unlike yaml-cpp) takes U+0085, U+2028 and U+2029 for line breaks in plain
    // text; "\N", "\L" and "\P" are the double-quoted escapes that make them.
    // Every input reader_fuzz kept as a regression prints back the same, too.
    std::vector<std::string> texts;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(VCSCHED_TEST_DATA_DIR) + "/../fuzz/corpus/reader_fuzz")) {
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream buf;
      buf << in.rdbuf();
      texts.push_back(buf.str());
    }
    REQUIRE(texts.size() >= 4);
    const size_t from_corpus = texts.size();
    for (const std::string& text :
         {std::string(R"({"kind":"Pod","metadata":{"name":"p","labels":{"a\Nb":"c\Ld","e":"\Pf","g":"\ufeffh"}}})"),
          std::string("kind: Pod\nmetadata: {name: \"x\\N\", namespace: \"\\L\"}\n"),
          // A quoted "<<" is an ordinary key; printed plain it would be YAML's merge key.
          std::string("kind: Pod\nmetadata:\n  name: p\n  labels: {\"<<\": x, '<<x': y}\n")}) {
      texts.push_back(text);
    }
    for (size_t t = 0; t < texts.size(); ++t) {
      const std::string& text = texts[t];
      INFO(text);
      absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{"u.yaml", text}});
      if (t >= from_corpus) REQUIRE(m.ok());
      if (!m.ok()) {  // refused, with a message: nothing to print
        CHECK_FALSE(m.status().message().empty());
        continue;
      }
      std::vector<const Value*> objects;
      for (const Manifest& one : *m) objects.push_back(&one.object);
      const std::string yaml = ToYaml(objects);
      absl::StatusOr<std::vector<Manifest>> back = LoadManifests({{"back.yaml", yaml}});
      INFO(yaml);
      INFO(back.status().message());
      REQUIRE(back.ok());
      REQUIRE(back->size() == m->size());
      for (size_t i = 0; i < m->size(); ++i) CHECK((*back)[i].object == (*m)[i].object);
    }
  }
  SECTION("brackets in a quoted string counted as nesting: a configuration did not read back") {
    // The configuration reader refused text by counting brackets outside what it took
    // for quotes; an escaped quote ended the string early. yaml-cpp's own depth guard and
    // the reader's value limits now decide, on the parsed text.
    const std::string brackets(250, '[');
    for (const std::string& text : {"actions: z\"enqueue, al" + brackets + "predice\n",
                                    "actions: \"z\\\"enqueue, al" + brackets + "predice\"\n",
                                    "actions: a" + brackets + "\n", "# " + brackets + "\nactions: allocate\n"}) {
      INFO(text);
      absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({"c.conf", text});
      REQUIRE(c.ok());
      const std::string printed = c->ToYaml();
      absl::StatusOr<SchedulerConfig> again = LoadSchedulerConfig({"again.conf", printed});
      REQUIRE(again.ok());
      CHECK(again->ToYaml() == printed);
    }
    // Real nesting past yaml-cpp's guard is refused with what it is.
    const std::string deep = "actions: allocate\nx: " + std::string(3000, '[') + std::string(3000, ']') + "\n";
    CHECK_THAT(std::string(LoadSchedulerConfig({"deep.conf", deep}).status().message()),
               Catch::Contains("deep.conf: line 2:") && Catch::Contains("nesting too deep"));
  }
  SECTION("a key starting with '...' or '---' printed plain at a line's start read as a document marker") {
    // reader_fuzz: an item of a List with the key "...  annotations" (a line indented
    // as the item's keys), printed as a document of its own.
    for (const char* key : {"...  annotations", "---x", "..."}) {
      INFO(key);
      Value pod = Value::Map();
      pod["kind"] = Value::Plain("Pod");
      pod[key] = Value::Plain("v");
      const std::string yaml = ToYaml({&pod});
      absl::StatusOr<std::vector<Manifest>> back = LoadManifests({{"back.yaml", yaml}});
      REQUIRE(back.ok());
      REQUIRE(back->size() == 1);
      CHECK((*back)[0].object == pod);
      // The configuration printer likewise, for an argument key.
      SchedulerConfig c;
      c.actions = {"allocate"};
      PluginOption p;
      p.name = "binpack";
      Value args = Value::Map();
      args[key] = Value::Plain("1");
      p.arguments = Arguments(std::move(args));
      c.tiers.push_back(Tier{{p}});
      const std::string printed = c.ToYaml();
      absl::StatusOr<SchedulerConfig> again = LoadSchedulerConfig({"again.conf", printed});
      REQUIRE(again.ok());
      CHECK(again->ToYaml() == printed);
    }
  }
  SECTION("a string with a line break but no final one printed as a block that added one") {
    Value pod = Value::Map();
    pod["kind"] = Value::Plain("Pod");
    pod["name"] = Value::String("two\nlines");
    pod["block"] = Value::String("ends\nwith one\n");
    const std::string yaml = ToYaml({&pod});
    absl::StatusOr<std::vector<Manifest>> back = LoadManifests({{"back.yaml", yaml}});
    REQUIRE(back.ok());
    REQUIRE(back->size() == 1);
    CHECK((*back)[0].object == pod);
  }
}

}  // namespace
}  // namespace vcsched
