// A tdm revocable zone's daily window ("HH:MM-HH:MM", the plugin argument
// tdm.revocable-zone.<zone>), read as Volcano's tdm plugin reads it, and when it is open.
#ifndef VCSCHED_SRC_MODEL_REVOCABLE_WINDOW_H_
#define VCSCHED_SRC_MODEL_REVOCABLE_WINDOW_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

struct RevocableWindow {
  int64_t from_s = 0;  // seconds after midnight
  int64_t to_s = 0;
  // The window of the day of `now` (seconds since the epoch, UTC): it opens at from_s
  // that day and closes at to_s that day, or the next day when to_s is not after from_s.
  // Both ends are open instants.
  int64_t OpensAt(int64_t now) const { return DayOf(now) + from_s; }
  int64_t ClosesAt(int64_t now) const { return DayOf(now) + (from_s >= to_s ? 86400 : 0) + to_s; }
  bool OpenAt(int64_t now) const { return now >= OpensAt(now) && now <= ClosesAt(now); }
  static int64_t DayOf(int64_t now) { return now / 86400 * 86400 - (now % 86400 < 0 ? 86400 : 0); }
};

// Spaces around the whole are trimmed, then two Go "15:04" times (one or two hour
// digits, two minute digits) joined by '-'. The error is Volcano's wording where it has
// one ("revocable zone <raw> format error"), else which time does not parse.
absl::StatusOr<RevocableWindow> ParseRevocableWindow(absl::string_view raw);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_REVOCABLE_WINDOW_H_
