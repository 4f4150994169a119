#include "src/model/revocable_window.h"

#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace vcsched::internal {
namespace {

// A "15:04" clock time as Go's time.Parse reads it; seconds after midnight.
std::optional<int64_t> ParseClock(absl::string_view text) {
  const size_t colon = text.find(':');
  if (colon == absl::string_view::npos || colon == 0 || colon > 2 || text.size() != colon + 3) return std::nullopt;
  int64_t hour = 0, minute = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == colon) continue;
    if (!absl::ascii_isdigit(text[i])) return std::nullopt;
    int64_t& part = i < colon ? hour : minute;
    part = part * 10 + (text[i] - '0');
  }
  if (hour > 23 || minute > 59) return std::nullopt;
  return hour * 3600 + minute * 60;
}

}  // namespace

absl::StatusOr<RevocableWindow> ParseRevocableWindow(absl::string_view raw) {
  const std::vector<absl::string_view> parts = absl::StrSplit(absl::StripAsciiWhitespace(raw), '-');
  if (parts.size() != 2) return absl::InvalidArgumentError(absl::StrCat("revocable zone ", raw, " format error"));
  const std::optional<int64_t> from = ParseClock(parts[0]), to = ParseClock(parts[1]);
  if (!from || !to) {
    return absl::InvalidArgumentError(
        absl::StrCat("parsing time \"", from ? parts[1] : parts[0], "\" as \"15:04\": not a time of day"));
  }
  return RevocableWindow{*from, *to};
}

}  // namespace vcsched::internal
