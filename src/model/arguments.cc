#include "vcsched/arguments.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace vcsched {
namespace {

constexpr char kWrongTypePayload[] = "vcsched/wrong-type-argument";

// The text of a scalar, or of a null (an empty value, as Volcano's YAML reading gives).
const std::string* ScalarText(const Value& v) {
  static const std::string* const kEmpty = new std::string();
  if (v.is_null()) return kEmpty;
  return v.is_scalar() ? &v.text() : nullptr;
}

absl::Status WrongType(absl::string_view key, absl::string_view want, const Value& v) {
  const std::string* text = ScalarText(v);
  const std::string got = text != nullptr ? absl::StrCat("\"", *text, "\"") : (v.is_map() ? "a map" : "a list");
  absl::Status s = absl::InvalidArgumentError(absl::StrCat("argument \"", key, "\": expected ", want, ", got ", got));
  s.SetPayload(kWrongTypePayload, absl::Cord(key));
  return s;
}

}  // namespace

template <typename T>
absl::StatusOr<T> Arguments::WrongTypeOr(absl::string_view key, absl::string_view want, const Value& v,
                                         T fallback) const {
  absl::Status error = WrongType(key, want, v);
  if (wrong_type_sink_ == nullptr) return error;
  wrong_type_sink_->push_back(std::string(error.message()));
  return fallback;
}

std::optional<std::string> WrongTypeArgument(const absl::Status& status) {
  const auto key = status.GetPayload(kWrongTypePayload);  // absl::optional<absl::Cord>
  if (!key) return std::nullopt;
  return std::string(*key);
}

absl::StatusOr<int64_t> Arguments::GetInt(absl::string_view key, int64_t fallback) const {
  const Value* v = Find(key);
  if (v == nullptr) return fallback;
  int64_t out = 0;
  const std::string* text = ScalarText(*v);
  if (text == nullptr || v->quoted() || !absl::SimpleAtoi(*text, &out)) {
    return WrongTypeOr(key, "an integer", *v, fallback);
  }
  return out;
}

absl::StatusOr<double> Arguments::GetFloat(absl::string_view key, double fallback) const {
  const Value* v = Find(key);
  if (v == nullptr) return fallback;
  double out = 0;
  const std::string* text = ScalarText(*v);
  if (text == nullptr || v->quoted() || !absl::SimpleAtod(*text, &out) ||
      !std::isfinite(out)) {
    return WrongTypeOr(key, "a number", *v, fallback);
  }
  return out;
}

absl::StatusOr<bool> Arguments::GetBool(absl::string_view key, bool fallback) const {
  const Value* v = Find(key);
  if (v == nullptr) return fallback;
  bool out = false;
  const std::string* text = ScalarText(*v);
  if (text != nullptr && ParseGoBool(*text, &out)) return out;
  return WrongTypeOr(key, "a bool", *v, fallback);
}

absl::StatusOr<std::string> Arguments::GetString(absl::string_view key,
                                                 std::string fallback) const {
  const Value* v = Find(key);
  if (v == nullptr) return fallback;
  const std::string* text = ScalarText(*v);
  if (text == nullptr) return WrongTypeOr(key, "a string", *v, std::move(fallback));
  return *text;
}

bool ParseGoBool(absl::string_view s, bool* out) {
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") {
    *out = true;
    return true;
  }
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") {
    *out = false;
    return true;
  }
  return false;
}

namespace {

// A Go duration ([-]{number unit}+, units ns us µs ms s m h) in seconds, as a double.
absl::StatusOr<double> ParseGoDuration(absl::string_view text) {
  const absl::Status bad =
      absl::InvalidArgumentError(absl::StrCat("invalid duration \"", text, "\""));
  if (text.empty()) return bad;
  if (text == "0") return 0.0;
  size_t i = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    ++i;
  }
  double total = 0;
  bool any = false;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (start == i) return bad;
    double number = 0;
    if (!absl::SimpleAtod(text.substr(start, i - start), &number)) return bad;
    size_t ustart = i;
    while (i < text.size() && !((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    const absl::string_view unit = text.substr(ustart, i - ustart);
    double scale = 0;
    if (unit == "h") scale = 3600;
    else if (unit == "m") scale = 60;
    else if (unit == "s") scale = 1;
    else if (unit == "ms") scale = 1e-3;
    else if (unit == "us" || unit == "\xC2\xB5s") scale = 1e-6;
    else if (unit == "ns") scale = 1e-9;
    else return bad;
    total += number * scale;
    any = true;
    if (total > 1e15) return bad;
  }
  if (!any) return bad;
  return negative ? -total : total;
}

}  // namespace

absl::StatusOr<int64_t> ParseGoDurationSeconds(absl::string_view text) {
  absl::StatusOr<double> s = ParseGoDuration(text);
  if (!s.ok()) return s.status();
  const int64_t secs = static_cast<int64_t>(std::floor(std::fabs(*s)));
  return *s < 0 ? -secs : secs;
}

absl::StatusOr<int64_t> ParseGoDurationMillis(absl::string_view text) {
  absl::StatusOr<double> s = ParseGoDuration(text);
  if (!s.ok()) return s.status();
  return static_cast<int64_t>(std::llround(*s * 1000));
}

absl::StatusOr<RuntimeRange> ParseRuntimeRange(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  absl::string_view middle = text, spread;
  bool has_spread = false;
  for (absl::string_view sep : {absl::string_view("\xC2\xB1"), absl::string_view("+-")}) {  // ± or +-
    if (const size_t at = text.find(sep); at != absl::string_view::npos) {
      middle = absl::StripAsciiWhitespace(text.substr(0, at));
      spread = absl::StripAsciiWhitespace(text.substr(at + sep.size()));
      has_spread = true;
      break;
    }
  }
  const absl::StatusOr<int64_t> m = ParseGoDurationMillis(middle);
  if (!m.ok() || *m < 0) {
    return absl::InvalidArgumentError(absl::StrCat("\"", text, "\": expected a duration such as 90m or 1h\xC2\xB1" "20m"));
  }
  RuntimeRange r{*m, *m, false};
  if (!has_spread) return r;
  const absl::StatusOr<int64_t> e = ParseGoDurationMillis(spread);
  if (!e.ok() || *e < 0) {
    return absl::InvalidArgumentError(absl::StrCat("\"", text, "\": expected a spread such as 20m after the \xC2\xB1"));
  }
  r.spread = true;
  r.low_ms = std::max<int64_t>(0, *m - *e);
  r.high_ms = *m > INT64_MAX - *e ? INT64_MAX : *m + *e;
  return r;
}

}  // namespace vcsched
