// The JSON front end (simdjson) against the YAML one: the same objects must give the same
// snapshot and the same decisions, and bad JSON a clear error.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "vcsched/io/manifests.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') absl::StrAppend(&out, "\\", std::string(1, static_cast<char>(c)));
    else if (c == '\n') out += "\\n";
    else if (c < 0x20) absl::StrAppend(&out, "\\u00", c < 16 ? "0" : "", absl::Hex(c));
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// A Value as JSON, plain scalars typed as a YAML reader would type them.
std::string ToJson(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kScalar: {
      double d;
      if (!v.quoted() && (v.text() == "true" || v.text() == "false" || v.text() == "null")) return v.text();
      if (!v.quoted() && absl::SimpleAtod(v.text(), &d) && v.text().find_first_not_of("-0123456789.") == std::string::npos) {
        return v.text();
      }
      return JsonString(v.text());
    }
    case Value::Kind::kMap: {
      std::string out = "{";
      for (const auto& [k, x] : v.entries()) absl::StrAppend(&out, out.size() > 1 ? "," : "", JsonString(k), ":", ToJson(x));
      return out + "}";
    }
    case Value::Kind::kList: {
      std::string out = "[";
      for (const Value& x : v.items()) absl::StrAppend(&out, out.size() > 1 ? "," : "", ToJson(x));
      return out + "]";
    }
  }
  return "null";
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// Both loaded, with as many tasks and warnings, and the same decisions.
void CheckSameScenario(const absl::StatusOr<Scenario>& a, const absl::StatusOr<Scenario>& b) {
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->snapshot.tasks().size() == b->snapshot.tasks().size());
  CHECK(a->warnings.size() == b->warnings.size());
  const SchedulerConfig config = a->config.value_or(DefaultSchedulerConfig());
  absl::StatusOr<Decisions> da = RunSession(a->snapshot, config), db = RunSession(b->snapshot, config);
  REQUIRE(da.ok());
  REQUIRE(db.ok());
  CHECK(da->ToString() == db->ToString());
}

TEST_CASE("JSON loader: every conformance case decides as its YAML", "[io][json]") {
  int compared = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VCSCHED_CONFORMANCE_DIR)) {
    if (e.path().extension() != ".yaml") continue;
    const std::string yaml = Read(e.path().string());
    absl::StatusOr<std::vector<Manifest>> docs = LoadManifests({{e.path().string(), yaml}});
    REQUIRE(docs.ok());
    std::string json = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (size_t i = 0; i < docs->size(); ++i) absl::StrAppend(&json, i ? "," : "", ToJson((*docs)[i].object));
    json += "]}";
    INFO(e.path().string());
    absl::StatusOr<Scenario> a = LoadScenario({{"case.yaml", yaml}});
    absl::StatusOr<Scenario> b = LoadScenario({{"case.json", json}});
    CheckSameScenario(a, b);
    ++compared;
  }
  CHECK(compared >= 90);
}

TEST_CASE("JSON loader: errors name the source, document, object and field", "[io][json]") {
  auto error = [](const std::string& text) {
    absl::StatusOr<Scenario> sc = LoadScenario({{"in.json", text}});
    return sc.ok() ? std::string() : std::string(sc.status().message());
  };
  CHECK_THAT(error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"priority":"high"}})"),
             Catch::Contains("in.json: document 1: Pod \"default/p\": spec.priority: expected an integer, got \"high\""));
  CHECK_THAT(error(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4x"}}})"),
             Catch::Contains("Node \"n\": status.allocatable.cpu"));
  // Broken from the start: the YAML reader takes it (JSON is YAML) and says where.
  CHECK_THAT(error(R"({"apiVersion":"v1","kind":"Node",)"), Catch::Contains("in.json: line 1:"));
  CHECK_THAT(error(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}} {"kind": )"),
             Catch::Contains("in.json: document 2 (byte 58): invalid JSON: the document is incomplete"));
  CHECK_THAT(error(std::string(300, '[') + std::string(300, ']')), Catch::Contains("nesting deeper than the limit"));
  CHECK_THAT(error("{\"kind\": \"Node\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"\xff\"}}"),
             Catch::Contains("UTF-8"));
  // YAML flow style starts with a brace too, and is read as YAML.
  absl::StatusOr<Scenario> flow = LoadScenario({{"flow.yaml", "{apiVersion: v1, kind: Node, metadata: {name: n1}}\n"}});
  REQUIRE(flow.ok());
  CHECK(flow->snapshot.nodes().size() == 1);
  // JSON then something only YAML reads (a document marker, a comment): the whole text
  // is YAML, read as YAML as every manifest reader reads it, not half-read as JSON. A
  // stream that is neither keeps the JSON error (above, and a later document broken).
  for (const char* tail : {"\n---\n", "\n# the end\n", "\n---\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"b\"}}\n"}) {
    const std::string text = absl::StrCat(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}})", tail);
    INFO(text);
    absl::StatusOr<Scenario> as_yaml = LoadScenario({{"in.json", text}});
    REQUIRE(as_yaml.ok());
    absl::StatusOr<std::vector<Manifest>> manifests = LoadManifests({{"in.json", text}});
    REQUIRE(manifests.ok());
    CHECK(as_yaml->snapshot.nodes().size() == manifests->size());
  }
  CHECK_THAT(error(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}} {"kind": 1 x})"),
             Catch::Contains("in.json: document 2 (byte 58): invalid JSON"));
  // JSON values one after another (not YAML): the manifest readers read them as the
  // loader does, numbered alike; a repeated key is refused by both.
  {
    const std::string stream = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}} null
        [{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}}, null, {"apiVersion":"v1","kind":"Node","metadata":{"name":"c"}}])";
    absl::StatusOr<Scenario> loaded = LoadScenario({{"in.json", stream}});
    REQUIRE(loaded.ok());
    absl::StatusOr<std::vector<Manifest>> manifests = LoadManifests({{"in.json", stream}});
    REQUIRE(manifests.ok());
    REQUIRE(manifests->size() == 3);
    CHECK(manifests->at(1).where == "in.json: document 3");
    CHECK(manifests->at(2).where == "in.json: document 5");
    CHECK(manifests->at(2).object.Find("metadata")->Find("name")->text() == "c");
    CHECK(loaded->snapshot.nodes().size() == manifests->size());
    const std::string repeated = R"({"kind":"Node"} {"kind":"Node","kind":"Pod"})";
    absl::StatusOr<std::vector<Manifest>> refused = LoadManifests({{"in.json", repeated}});
    REQUIRE(!refused.ok());
    CHECK_THAT(std::string(refused.status().message()), Catch::Contains("in.json: document 2: duplicate key \"kind\""));
    CHECK_THAT(error(repeated), Catch::Contains("duplicate key \"kind\""));
  }
  // Several documents one after another, and a top-level array of documents.
  absl::StatusOr<Scenario> two = LoadScenario(
      {{"in.json", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}} [{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}}])"}});
  REQUIRE(two.ok());
  CHECK(two->snapshot.nodes().size() == 2);
}

TEST_CASE("JSON loader: an object of a List is named by its item, field paths by index", "[io][json]") {
  const std::string list = R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4"}}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},
     "spec":{"containers":[{"name":"a"},{"name":"b","resources":{"requests":{"cpu":"1x"}}}],
             "tolerations":[{"key":"k","operator":"Sometimes"}]}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}]})";
  absl::StatusOr<Scenario> sc = LoadScenario({{"in.json", list}});
  REQUIRE_FALSE(sc.ok());
  const std::string msg(sc.status().message());
  CHECK_THAT(msg, Catch::Contains("in.json: document 1, items[1]: Pod \"ns/p\": spec.containers[1].resources.requests.cpu: "
                                  "invalid quantity \"1x\""));
  CHECK_THAT(msg, Catch::Contains("Pod \"ns/p\": spec.tolerations[0].operator: unknown operator \"Sometimes\""));
  CHECK_THAT(msg, Catch::Contains("in.json: document 1, items[2]: Node \"n\": metadata.name: duplicate name "
                                  "(also at in.json: document 1, items[0])"));
}

TEST_CASE("JSON loader: a List read item by item reads as the same objects read whole", "[io][json]") {
  // A top-level array of the same objects is read whole: same decisions, same warnings.
  int compared = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VCSCHED_CONFORMANCE_DIR)) {
    if (e.path().extension() != ".yaml" || compared == 20) continue;
    absl::StatusOr<std::vector<Manifest>> docs = LoadManifests({{e.path().string(), Read(e.path().string())}});
    REQUIRE(docs.ok());
    std::string items;
    for (size_t i = 0; i < docs->size(); ++i) absl::StrAppend(&items, i ? "," : "", ToJson((*docs)[i].object));
    INFO(e.path().string());
    absl::StatusOr<Scenario> list = LoadScenario({{"l.json", absl::StrCat(R"({"apiVersion":"v1","items":[)", items,
                                                                         R"(],"kind":"List","metadata":{"a":[1,{}]}})")}});
    absl::StatusOr<Scenario> whole = LoadScenario({{"w.json", absl::StrCat("[", items, "]")}});
    CheckSameScenario(list, whole);
    ++compared;
  }
  CHECK(compared == 20);
  // A List that is not valid JSON everywhere, or not only a List, is read whole and
  // reported as before; nothing read item by item is left behind (node n would be a
  // duplicate).
  auto load = [](const std::string& text) { return LoadScenario({{"in.json", text}}); };
  const std::string node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}})";
  absl::StatusOr<Scenario> broken_item = load(absl::StrCat(R"({"kind":"List","items":[)", node, R"(,{"kind":"Pod" "x"}]})"));
  REQUIRE_FALSE(broken_item.ok());
  // Not YAML either: the error is JSON's, as the file's name promises JSON.
  CHECK_THAT(std::string(broken_item.status().message()), Catch::StartsWith("in.json: line 1:97: invalid JSON: "));
  // An item that is YAML but not JSON: the whole text goes to the YAML reader, which
  // reads both nodes once.
  absl::StatusOr<Scenario> yaml_item = load(absl::StrCat(
      R"({"kind":"List","items":[)", node, R"(,{"apiVersion":"v1","kind":"Node","metadata":{"name":"m","labels":{"a":tru}}}]})"));
  REQUIRE(yaml_item.ok());
  CHECK(yaml_item->snapshot.nodes().size() == 2);
  // Not JSON outside the items either: the YAML reader takes it, as it takes any such text.
  absl::StatusOr<Scenario> yaml_scalar = load(absl::StrCat(R"({"kind":"List","items":[)", node, R"(],"metadata":{"a":tru}})"));
  REQUIRE(yaml_scalar.ok());
  CHECK(yaml_scalar->snapshot.nodes().size() == 1);
  absl::StatusOr<Scenario> second = load(absl::StrCat(R"({"kind":"List","items":[)", node, R"(]} {"kind":"Node"})"));
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().message() == "in.json: document 2: apiVersion: unsupported apiVersion \"\" for kind Node");
}

TEST_CASE("JSON loader: text with spare capacity is read in place, and reads the same", "[io][json]") {
  const std::string doc = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4"}}})";
  std::string roomy;
  roomy.reserve(doc.size() + 64);  // the parser's padding fits after the text
  roomy = doc;
  REQUIRE(roomy.capacity() >= roomy.size() + 64);
  std::vector<ScenarioSource> sources(1);
  sources[0].name = "in.json";
  sources[0].text = std::move(roomy);
  absl::StatusOr<Scenario> in_place = LoadScenario(std::move(sources));
  absl::StatusOr<Scenario> copied = LoadScenario({{"in.json", doc}});
  REQUIRE(in_place.ok());
  REQUIRE(copied.ok());
  REQUIRE(in_place->snapshot.nodes().size() == 1);
  CHECK(in_place->snapshot.nodes()[0].allocatable[kCpu] == 4000);
  CHECK(copied->snapshot.nodes()[0].allocatable[kCpu] == 4000);
}

TEST_CASE("Loader: borrowed text reads as owned text, with or without room past its end", "[io][json]") {
  const std::string json = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4"}}})";
  const std::string yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: m}\nstatus: {allocatable: {cpu: '2'}}\n";
  // The JSON text sits at the front of a larger buffer, so reading past it stays inside.
  const std::string roomy = json + std::string(64, ' ');
  for (size_t room : {size_t{0}, size_t{64}}) {
    ScenarioSource a, b;
    a.name = "a.json";
    a.text = "ignored: the borrowed text is read instead";
    a.borrowed_text = absl::string_view(roomy.data(), json.size());
    a.readable_past_end = room;
    b.name = "b.yaml";
    b.borrowed_text = yaml;
    absl::StatusOr<Scenario> sc = LoadScenario({a, b});
    INFO("room past the end: " << room);
    REQUIRE(sc.ok());
    REQUIRE(sc->snapshot.nodes().size() == 2);
    CHECK(sc->snapshot.nodes()[0].spec.name == "m");
    CHECK(sc->snapshot.nodes()[0].allocatable[kCpu] == 2000);
    CHECK(sc->snapshot.nodes()[1].allocatable[kCpu] == 4000);
  }
  ScenarioSource bad;
  bad.name = "bad.json";
  bad.borrowed_text = absl::string_view(json.data(), json.size() - 1);  // cut short
  absl::StatusOr<Scenario> cut = LoadScenario({bad});
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(std::string(cut.status().message()), Catch::Contains("bad.json"));
  ScenarioSource config;
  config.name = "c.yaml";
  config.borrowed_text = "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: gang\n";
  absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig(config);
  REQUIRE(c.ok());
  CHECK(c->actions.size() == 1);
}

}  // namespace
}  // namespace vcsched
