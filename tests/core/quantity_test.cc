#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/model/quantity_exact.h"
#include "vcsched/quantity.h"

namespace vcsched {
namespace {

struct Row {
  const char* text;
  int64_t milli;
  int64_t value;
};

TEST_CASE("Quantity: parses every Kubernetes form exactly", "[core][quantity]") {
  const Row row = GENERATE(values<Row>({
      {"500m", 500, 1},          {"1", 1000, 1},
      {"1.5", 1500, 2},          {"4Gi", int64_t{4294967296000}, int64_t{4} << 30},
      {"1G", int64_t{1000000000} * 1000, 1000000000},
      {"3k", 3000000, 3000},     {"2e3", 2000000, 2000},
      {"20000m", 20000, 20},     {"0.1", 100, 1},
      {"1Ki", 1024000, 1024},    {"100M", int64_t{100000000} * 1000, 100000000},
      {"1n", 1, 1},              {"0", 0, 0},
      {"+2", 2000, 2},           {"1E-3", 1, 1},
      {".5", 500, 1},            {"1536Mi", int64_t{1536} * 1024 * 1024 * 1000, int64_t{1536} * 1024 * 1024},
  }));
  DYNAMIC_SECTION(row.text) {
    absl::StatusOr<int64_t> m = ParseMilliValue(row.text);
    absl::StatusOr<int64_t> v = ParseValue(row.text);
    REQUIRE(m.ok());
    REQUIRE(v.ok());
    CHECK(*m == row.milli);
    CHECK(*v == row.value);
  }
}

TEST_CASE("Quantity: rejects malformed text and names it", "[core][quantity]") {
  const char* bad = GENERATE("12x", "", "Gi", "1.2.3", "1e", "--1", "1 Gi", "abc", "1Gii", "1e99999");
  DYNAMIC_SECTION(bad) {
    absl::StatusOr<int64_t> q = ParseMilliValue(bad);
    REQUIRE_FALSE(q.ok());
    CHECK(q.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(q.status().message()), Catch::Contains(std::string("\"") + bad + "\""));
  }
}

TEST_CASE("Quantity: values beyond int64 are errors, not wraps", "[core][quantity]") {
  CHECK_FALSE(ParseValue("99999999999999999999").ok());
  CHECK_FALSE(ParseMilliValue("9300000000000000").ok());
  CHECK(ParseValue("9000000000000000").ok());
  CHECK_FALSE(ParseValue("8Ei").ok());
  CHECK(*ParseValue("7Ei") == int64_t{7} << 60);
}

// The common forms take a shortcut (int64 arithmetic, no general parse): it must agree
// with the general parser on every text, at the edges of int64 above all.
TEST_CASE("Quantity: the common forms' shortcut agrees with the general parser", "[core][quantity]") {
  std::vector<std::string> numbers = {"0", "7", "00012", "999999999999999", "9999999999999999", "1000000000000000",
                                      "9223372036854775", "9223372036854", "9223372036", "8589934591", "123456789012345"};
  for (int digits = 1; digits <= 19; ++digits) numbers.push_back(std::string(static_cast<size_t>(digits), '9'));
  for (int digits = 1; digits <= 19; ++digits) numbers.push_back("1" + std::string(static_cast<size_t>(digits - 1), '0'));
  const char* suffixes[] = {"", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u",
                            "x", "i", "mi", "Kii", "e3", ".5", "Gi "};
  int checked = 0;
  for (const std::string& n : numbers) {
    for (const char* suffix : suffixes) {
      const std::string text = n + suffix;
      for (int scale : {0, 3}) {
        const absl::StatusOr<int64_t> fast = scale == 0 ? ParseValue(text) : ParseMilliValue(text);
        const absl::StatusOr<int64_t> exact = quantity_internal::ParseScaledExactly(text, scale);
        INFO(text << " at scale " << scale);
        REQUIRE(fast.ok() == exact.ok());
        if (fast.ok()) CHECK(*fast == *exact);
        if (!fast.ok()) CHECK(fast.status().message() == exact.status().message());
        ++checked;
      }
    }
  }
  CHECK(checked > 1500);
  CHECK(*ParseValue("1500m") == 2);  // rounded up, as Kubernetes' Value() does
  CHECK(*ParseMilliValue("9223372036854775") == int64_t{9223372036854775000});
  CHECK_FALSE(ParseMilliValue("9223372036854776").ok());
}

TEST_CASE("Quantity: formats canonical text", "[core][quantity]") {
  CHECK(FormatMilli(1500) == "1500m");
  CHECK(FormatMilli(2000) == "2");
  CHECK(FormatBytes(int64_t{4} << 30) == "4Gi");
  CHECK(FormatBytes(1000) == "1000");
}

}  // namespace
}  // namespace vcsched
