#include <cstdint>
#include <string>

#include "absl/time/time.h"
#include "vcsched/objects.h"

namespace vcsched {
namespace {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "2026-11-29T18:04:21Z", the form the API server prints, without a general time parser
// (anything else goes to absl's RFC 3339 parser).
bool ParseUtcSeconds(absl::string_view s, int64_t* out) {
  if (s.size() != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z') {
    return false;
  }
  // A field's digits, unrolled where the counts are constants.
  const auto digits = [s](int from, int count, int64_t* value) {
    int64_t n = 0;
    for (int k = from; k < from + count; ++k) {
      const unsigned d = static_cast<unsigned char>(s[k]) - unsigned{'0'};
      if (d > 9) return false;
      n = n * 10 + d;
    }
    *value = n;
    return true;
  };
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(0, 4, &year) || !digits(5, 2, &month) || !digits(8, 2, &day) || !digits(11, 2, &hour) ||
      !digits(14, 2, &minute) || !digits(17, 2, &second)) {
    return false;
  }
  static constexpr int8_t kMonthDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kMonthDays[month - 1] + (month == 2 && leap ? 1 : 0)) return false;
  // A leap second (60) counts as the next minute's first, as a civil-time conversion does.
  *out = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return true;
}

}  // namespace

bool ParseApiTime(absl::string_view text, int64_t* seconds) {
  if (ParseUtcSeconds(text, seconds)) return true;
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, text, &t, &err)) return false;
  *seconds = absl::ToUnixSeconds(t);
  return true;
}

}  // namespace vcsched
