#include "src/io/scalar_type.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace vcsched::io_internal {
namespace {

// Exact spellings go-yaml v2 resolves before looking at digits.
constexpr absl::string_view kBools[] = {"y",    "Y",    "yes",   "Yes",   "YES",   "true", "True", "TRUE",
                                        "on",   "On",   "ON",    "n",     "N",     "no",   "No",   "NO",
                                        "false", "False", "FALSE", "off", "Off",   "OFF"};
constexpr absl::string_view kNulls[] = {"~", "null", "Null", "NULL"};
constexpr absl::string_view kSpecialFloats[] = {".nan", ".NaN", ".NAN", ".inf",  ".Inf",  ".INF",
                                                "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};

template <size_t N>
bool OneOf(absl::string_view s, const absl::string_view (&words)[N]) {
  for (absl::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

bool AllDigits(absl::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0 || d >= base) return false;
  }
  return true;
}

// Go's strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) succeeding: an optional sign
// (ParseInt only), a base prefix (0x, 0o, 0b, or a leading 0 for octal) and digits,
// within 64 bits.
bool GoInteger(absl::string_view s) {
  bool negative = false, signed_text = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    signed_text = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = absl::ascii_tolower(static_cast<unsigned char>(s[1]));
    if (p == 'x') base = 16;
    else if (p == 'o') base = 8;
    else if (p == 'b') base = 2;
    if (base != 10) s.remove_prefix(2);
    else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (!AllDigits(s, base)) return false;
  // Within range: the magnitude must fit int64 (signed or negative text) or uint64.
  unsigned __int128 value = 0;
  for (char c : s) {
    const int d = c <= '9' ? c - '0' : absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    if (value > (static_cast<unsigned __int128>(1) << 64)) return false;
  }
  if (negative) return value <= (static_cast<unsigned __int128>(1) << 63);
  if (signed_text) return value < (static_cast<unsigned __int128>(1) << 63);
  return value < (static_cast<unsigned __int128>(1) << 64);
}

// go-yaml's float pattern ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, and a
// value that strconv.ParseFloat takes (a finite one: an overflow is an error there).
bool YamlFloat(absl::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  if (i != s.size()) return false;
  const std::string text(s);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  return !std::isinf(v);
}

}  // namespace

ScalarType PlainYamlScalarType(absl::string_view in) {
  if (in.empty()) return ScalarType::kNull;
  // Most text starts with a character no typed scalar starts with.
  if (!absl::StrContains("yYnNtTfFoO~+-.0123456789", in[0])) return ScalarType::kString;
  if (OneOf(in, kNulls)) return ScalarType::kNull;
  if (OneOf(in, kBools)) return ScalarType::kBool;
  if (OneOf(in, kSpecialFloats)) return ScalarType::kNumber;
  const char first = in[0];
  if (first == '.') {
    // strconv.ParseFloat on text that starts with a dot: digits, then an exponent.
    return YamlFloat(in) ? ScalarType::kNumber : ScalarType::kString;
  }
  if (!(first == '+' || first == '-' || (first >= '0' && first <= '9'))) return ScalarType::kString;
  std::string plain;  // underscores are dropped before the number is parsed
  plain.reserve(in.size());
  for (char c : in) {
    if (c != '_') plain.push_back(c);
  }
  if (GoInteger(plain) || YamlFloat(plain)) return ScalarType::kNumber;
  return ScalarType::kString;
}

absl::string_view ScalarTypeNoun(ScalarType type) {
  switch (type) {
    case ScalarType::kBool: return "the boolean";
    case ScalarType::kNumber: return "the number";
    default: return "";
  }
}

}  // namespace vcsched::io_internal
