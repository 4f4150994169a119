// Cron schedule parsing and the next activation time.
#include <algorithm>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/civil_time.h"
#include "vcsched/arguments.h"
#include "vcsched/lifecycle/cron.h"

namespace vcsched::lifecycle {

namespace {

struct Field {
  int lo, hi;
  const char* const* names;  // names for lo, lo+1, ... (or nullptr)
  int name_count;
};

const char* const kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
const char* const kDays[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

bool Number(absl::string_view s, const Field& f, int* out) {
  if (absl::SimpleAtoi(s, out)) return true;
  if (f.names == nullptr) return false;
  const std::string up = absl::AsciiStrToUpper(s);
  for (int i = 0; i < f.name_count; ++i) {
    if (up == f.names[i]) {
      *out = f.lo + i;
      return true;
    }
  }
  return false;
}

// Parses one field into a bit set; `star` is set when the field is "*" or "?".
absl::StatusOr<uint64_t> ParseField(absl::string_view text, const Field& f, bool* star) {
  uint64_t bits = 0;
  *star = text == "*" || text == "?";
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int step = 1;
    absl::string_view range = part;
    if (size_t slash = part.find('/'); slash != absl::string_view::npos) {
      if (!absl::SimpleAtoi(part.substr(slash + 1), &step) || step <= 0) {
        return absl::InvalidArgumentError(absl::StrCat("bad step in \"", part, "\""));
      }
      range = part.substr(0, slash);
    }
    int lo = f.lo, hi = f.hi;
    if (range != "*" && range != "?") {
      const size_t dash = range.find('-');
      if (!Number(range.substr(0, dash), f, &lo)) return absl::InvalidArgumentError(absl::StrCat("bad value \"", part, "\""));
      hi = lo;
      if (dash != absl::string_view::npos && !Number(range.substr(dash + 1), f, &hi)) {
        return absl::InvalidArgumentError(absl::StrCat("bad value \"", part, "\""));
      }
      if (part.find('/') != absl::string_view::npos && dash == absl::string_view::npos) hi = f.hi;
    }
    if (lo < f.lo || hi > f.hi || lo > hi) {
      return absl::InvalidArgumentError(absl::StrCat("\"", part, "\" is outside ", f.lo, "-", f.hi));
    }
    for (int v = lo; v <= hi; v += std::min(step, 64)) bits |= uint64_t{1} << v;
  }
  if (f.names == kDays && (bits >> 7 & 1)) bits = (bits | 1) & 0x7f;  // 7 is Sunday too
  return bits;
}

}  // namespace

absl::StatusOr<CronSchedule> CronSchedule::Parse(const std::string& raw) {
  std::string text(absl::StripAsciiWhitespace(raw));
  CronSchedule s;
  static const std::pair<const char*, const char*> kShortcuts[] = {
      {"@yearly", "0 0 1 1 *"}, {"@annually", "0 0 1 1 *"}, {"@monthly", "0 0 1 * *"},
      {"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"},    {"@midnight", "0 0 * * *"}, {"@hourly", "0 * * * *"}};
  if (absl::StartsWith(text, "@every ")) {
    absl::StatusOr<int64_t> secs = ParseGoDurationSeconds(absl::StripAsciiWhitespace(text.substr(7)));
    if (!secs.ok() || *secs <= 0) return absl::InvalidArgumentError(absl::StrCat("bad duration in \"", text, "\""));
    s.every_seconds_ = *secs;
    return s;
  }
  for (const auto& [name, expansion] : kShortcuts) {
    if (text == name) text = expansion;
  }
  if (!text.empty() && text[0] == '@') return absl::InvalidArgumentError(absl::StrCat("unknown shortcut \"", text, "\""));
  std::vector<std::string> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (fields.size() != 5) {
    return absl::InvalidArgumentError(absl::StrCat("expected exactly 5 fields, found ", fields.size(), ": \"", text, "\""));
  }
  const Field kFields[] = {{0, 59, nullptr, 0}, {0, 23, nullptr, 0}, {1, 31, nullptr, 0}, {1, 12, kMonths, 12}, {0, 7, kDays, 7}};
  bool star[5];
  uint64_t bits[5];
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<uint64_t> b = ParseField(fields[i], kFields[i], &star[i]);
    if (!b.ok()) return b.status();
    bits[i] = *b;
  }
  s.minutes_ = bits[0];
  s.hours_ = static_cast<uint32_t>(bits[1]);
  s.days_ = static_cast<uint32_t>(bits[2]);
  s.months_ = static_cast<uint32_t>(bits[3]);
  s.weekdays_ = static_cast<uint32_t>(bits[4]);
  s.day_star_ = star[2];
  s.weekday_star_ = star[4];
  return s;
}

std::optional<absl::Time> CronSchedule::Next(absl::Time t, absl::TimeZone zone) const {
  // Nothing after the end of representable time (an absl::Time saturates there rather
  // than wrapping, and a saturated time is on no schedule).
  const auto representable = [](absl::Time x) {
    return x != absl::InfiniteFuture() && x != absl::InfinitePast() && x < absl::FromUnixSeconds(INT64_MAX);
  };
  if (!representable(t)) return std::nullopt;
  if (every_seconds_ > 0) {
    // Like robfig/cron: the next whole second `every` after t.
    const absl::Time next = t + absl::Seconds(every_seconds_);
    if (!representable(next)) return std::nullopt;
    return next;
  }
  absl::CivilMinute m = absl::ToCivilMinute(t, zone) + 1;
  const absl::CivilMinute limit = m + 60 * 24 * 366 * 5;
  auto day_matches = [&](absl::CivilDay d) {
    const bool dom = days_ >> d.day() & 1;
    const int wd = static_cast<int>(absl::GetWeekday(d));  // Monday = 0 in absl
    const bool dow = weekdays_ >> ((wd + 1) % 7) & 1;
    if (day_star_ || weekday_star_) return dom && dow;
    return dom || dow;
  };
  while (m < limit) {
    if (!(months_ >> m.month() & 1)) {
      m = absl::CivilMinute(absl::CivilMonth(m) + 1);
      continue;
    }
    if (!day_matches(absl::CivilDay(m))) {
      m = absl::CivilMinute(absl::CivilDay(m) + 1);
      continue;
    }
    if (!(hours_ >> m.hour() & 1)) {
      m = absl::CivilMinute(absl::CivilHour(m) + 1);
      continue;
    }
    if (!(minutes_ >> m.minute() & 1)) {
      m += 1;
      continue;
    }
    const absl::TimeZone::TimeInfo info = zone.At(m);
    // A minute skipped by a DST jump does not exist; a repeated one runs once (first).
    if (info.kind == absl::TimeZone::TimeInfo::SKIPPED) {
      m += 1;
      continue;
    }
    const absl::Time at = info.pre;
    // A minute past the end of representable time comes back clamped: not this minute.
    if (!representable(at) || absl::ToCivilMinute(at, zone) != m) return std::nullopt;
    if (at > t) return at;
    m += 1;
  }
  return std::nullopt;
}

}  // namespace vcsched::lifecycle
