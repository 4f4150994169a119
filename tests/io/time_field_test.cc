// ObjectReader::Time reads the API server's "YYYY-MM-DDTHH:MM:SSZ" by arithmetic and
// anything else through absl's RFC 3339 parser; both must agree with absl everywhere.
#include <catch2/catch.hpp>

#include <random>

#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "src/io/yaml_reader.h"

namespace vcsched::io_internal {
namespace {

// What absl's parser makes of `text`: seconds, or nullopt when it refuses.
std::optional<int64_t> AbslSeconds(const std::string& text) {
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, text, &t, &err)) return std::nullopt;
  return absl::ToUnixSeconds(t);
}

// ObjectReader::Time on {t: text}: seconds, or nullopt when it reports an error.
std::optional<int64_t> ReaderSeconds(const std::string& text) {
  Diagnostics diag;
  ObjectReader r(&diag, "t.yaml", "");
  YAML::Node doc;
  doc["t"] = text;
  const int64_t v = r.Time(DocNode(doc), "t", "t");
  if (!diag.errors.empty()) return std::nullopt;
  return v;
}

TEST_CASE("Time fields: the arithmetic path agrees with absl's RFC 3339 parser", "[io][time]") {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> year(1600, 2500), month(0, 13), day(0, 32), hour(0, 24), minute(0, 60),
      second(0, 61);
  int compared = 0, accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = absl::StrFormat("%04d-%02d-%02dT%02d:%02d:%02dZ", year(rng), month(rng), day(rng),
                                             hour(rng), minute(rng), second(rng));
    const std::optional<int64_t> want = AbslSeconds(text);
    const std::optional<int64_t> got = ReaderSeconds(text);
    INFO(text);
    REQUIRE(got.has_value() == want.has_value());
    if (want) {
      REQUIRE(*got == *want);
      ++accepted;
    }
    ++compared;
  }
  CHECK(compared == 20000);
  CHECK(accepted > 10000);  // most random fields are valid dates
  // Fixed points: leap days, the epoch, a leap second, offsets (absl's path).
  CHECK(ReaderSeconds("1970-01-01T00:00:00Z") == 0);
  CHECK(ReaderSeconds("2000-02-29T00:00:00Z") == 951782400);
  CHECK(ReaderSeconds("2024-02-29T12:00:00Z") == AbslSeconds("2024-02-29T12:00:00Z"));
  CHECK(ReaderSeconds("2016-12-31T23:59:60Z") == AbslSeconds("2016-12-31T23:59:60Z"));
  CHECK(ReaderSeconds("2026-11-29T18:04:21+02:00") == AbslSeconds("2026-11-29T18:04:21+02:00"));
  CHECK(ReaderSeconds("2026-11-29T18:04:21.5Z") == AbslSeconds("2026-11-29T18:04:21.5Z"));
  CHECK_FALSE(ReaderSeconds("yesterday").has_value());
}

}  // namespace
}  // namespace vcsched::io_internal
