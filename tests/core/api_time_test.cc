#include <catch2/catch.hpp>

#include <cstdint>

#include "absl/time/time.h"
#include "vcsched/objects.h"

namespace vcsched {
namespace {

TEST_CASE("API times: the API server's form and the rest of RFC 3339 agree with absl's parser", "[core][time]") {
  // The short route (the API server's "...Z") against the general parser, across the
  // calendar's edges: leap days, century years, the last second of a year.
  for (const char* text : {"1970-01-01T00:00:00Z", "2024-02-29T10:11:12Z", "2000-02-29T23:59:59Z",
                           "2026-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "2100-03-01T00:00:00Z",
                           "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-06-30T23:59:60Z"}) {
    INFO(text);
    absl::Time t;
    std::string err;
    REQUIRE(absl::ParseTime(absl::RFC3339_full, text, &t, &err));
    int64_t seconds = -1;
    REQUIRE(ParseApiTime(text, &seconds));
    CHECK(seconds == absl::ToUnixSeconds(t));
  }
  int64_t seconds = 0;
  REQUIRE(ParseApiTime("2026-01-01T02:00:00.5+02:00", &seconds));  // other forms: absl's parser
  CHECK(seconds == 1767225600);
  for (const char* bad : {"", "yesterday", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z",
                          "2026-01-01 00:00:00Z", "2026-01-01T00:00:00", "+026-01-01T00:00:00Z"}) {
    INFO(bad);
    CHECK_FALSE(ParseApiTime(bad, &seconds));
  }
}

}  // namespace
}  // namespace vcsched
