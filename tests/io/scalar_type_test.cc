// Kubernetes' YAML 1.1 typing of plain scalars (go-yaml v2's resolve, through
// sigs.k8s.io/yaml): what the API server then refuses where a string belongs.
#include <catch2/catch.hpp>

#include "src/io/scalar_type.h"
#include "vcsched/io/scenario.h"

namespace vcsched::io_internal {
namespace {

TEST_CASE("Plain scalars typed as go-yaml v2 types them", "[io][yaml]") {
  for (const char* b : {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
                        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"}) {
    INFO(b);
    CHECK(PlainYamlScalarType(b) == ScalarType::kBool);
  }
  for (const char* n : {"0", "7", "-7", "+7", "007", "08", "0x1F", "0X1f", "0o17", "0b101", "-0b101", "1_000",
                        "1.5", "-1.5", ".5", "1.", "1e3", "1E-3", "+.5e2", ".inf", "-.Inf", "+.INF", ".nan", ".NaN",
                        "18446744073709551615", "99999999999999999999999", "-9223372036854775808"}) {
    INFO(n);
    CHECK(PlainYamlScalarType(n) == ScalarType::kNumber);
  }
  for (const char* s : {"yess", "nope", "On1", "tRUE", "x", "train-0", "1.2.3", "2024-01-01", "2024-01-01T10:00:00Z",
                        "1e", "0x", "0xZZ", "0b", "-", "+", ".", "inf", "nan", "Infinity", "1e999", "1:30", "1Gi",
                        "100m", "-1.5.", "0x1p3", "v1", "<<", "12 34", "0xFFFFFFFFFFFFFFFFFF"}) {
    INFO(s);
    CHECK(PlainYamlScalarType(s) == ScalarType::kString);
  }
  for (const char* z : {"", "~", "null", "Null", "NULL"}) {
    INFO(z);
    CHECK(PlainYamlScalarType(z) == ScalarType::kNull);
  }
}

TEST_CASE("A string field refuses a number or boolean and takes the same text quoted", "[io][yaml]") {
  auto load = [](const std::string& labels) {
    return LoadScenario({{"t.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: " + labels +
                                        "}\nstatus: {allocatable: {cpu: \"1\", pods: \"1\"}}\n"}});
  };
  CHECK(load("{a: \"no\", b: '1.5', c: !!str on, d: yesterday, e: 2024-01-01}").ok());
  for (const char* bad : {"{a: no}", "{a: 1.5}", "{a: 0x10}", "{a: !!int 5}"}) {
    const absl::StatusOr<Scenario> sc = load(bad);
    INFO(bad);
    REQUIRE_FALSE(sc.ok());
    CHECK(std::string(sc.status().message()).find("metadata.labels.a: expected a string, got the ") !=
          std::string::npos);
  }
  // JSON: the value's own type.
  const absl::StatusOr<Scenario> json = LoadScenario(
      {{"t.json", R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"a": true}}})"}});
  REQUIRE_FALSE(json.ok());
  CHECK(std::string(json.status().message()).find("metadata.labels.a: expected a string, got the boolean true") !=
        std::string::npos);
}

}  // namespace
}  // namespace vcsched::io_internal
