#include "vcsched/quantity.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/model/quantity_exact.h"

namespace vcsched {
namespace {

__extension__ typedef __int128 int128;  // GCC and clang; __extension__ keeps -Wpedantic quiet
constexpr int128 kInt128Limit = static_cast<int128>(1) << 120;

// A parsed quantity: mantissa * 10^exp10 * 1024^binary_power.
struct Parsed {
  int128 mantissa = 0;
  int exp10 = 0;
  int binary_power = 0;
};

absl::Status Invalid(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("invalid quantity \"", text, "\"", why));
}

// A quantity's suffix: its power of ten and of 1024.
struct Suffix {
  absl::string_view text;
  int exp10;
  int binary_power;
};
constexpr Suffix kSuffixes[] = {
    {"", 0, 0},   {"n", -9, 0}, {"u", -6, 0}, {"m", -3, 0}, {"k", 3, 0},
    {"M", 6, 0},  {"G", 9, 0},  {"T", 12, 0}, {"P", 15, 0}, {"E", 18, 0},
    {"Ki", 0, 1}, {"Mi", 0, 2}, {"Gi", 0, 3}, {"Ti", 0, 4}, {"Pi", 0, 5}, {"Ei", 0, 6}};

// The SI suffix `text` names, or nullptr (an exponent such as "e3" is not one).
const Suffix* FindSuffix(absl::string_view text) {
  for (const Suffix& s : kSuffixes) {
    if (text == s.text) return &s;
  }
  return nullptr;
}

absl::StatusOr<Parsed> Parse(absl::string_view text) {
  Parsed p;
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  bool digits = false, seen_dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits = true;
      if (p.mantissa < kInt128Limit / 10) {
        p.mantissa = p.mantissa * 10 + (c - '0');
        if (seen_dot) --p.exp10;
      } else if (!seen_dot) {
        ++p.exp10;  // digits beyond precision: the value is out of range anyway
      }
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!digits) return Invalid(text, "");
  const absl::string_view suffix = text.substr(i);
  if (const Suffix* si = FindSuffix(suffix)) {
    p.exp10 += si->exp10;
    p.binary_power = si->binary_power;
  } else {
    if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
      size_t j = 1;
      bool neg_exp = false;
      if (suffix[j] == '+' || suffix[j] == '-') {
        neg_exp = suffix[j] == '-';
        ++j;
      }
      if (j >= suffix.size()) return Invalid(text, "");
      int e = 0;
      for (; j < suffix.size(); ++j) {
        if (suffix[j] < '0' || suffix[j] > '9') return Invalid(text, "");
        e = e * 10 + (suffix[j] - '0');
        if (e > 1000) return Invalid(text, ": exponent out of range");
      }
      p.exp10 += neg_exp ? -e : e;
    } else {
      return Invalid(text, "");
    }
  }
  if (negative) p.mantissa = -p.mantissa;
  return p;
}

// ceil(p * scale) as int64, or an out-of-range error.
absl::StatusOr<int64_t> Scaled(absl::string_view text, const Parsed& p, int scale_exp10) {
  int128 num = p.mantissa;
  // Check before multiplying so the int128 never overflows.
  for (int b = 0; b < p.binary_power; ++b) {
    if (num > kInt128Limit / 1024 || num < -kInt128Limit / 1024) return Invalid(text, ": out of range");
    num *= 1024;
  }
  int exp = p.exp10 + scale_exp10;
  for (; exp > 0; --exp) {
    if (num == 0) break;
    if (num > kInt128Limit / 10 || num < -kInt128Limit / 10) return Invalid(text, ": out of range");
    num *= 10;
  }
  if (exp < 0) {
    if (exp < -36) {
      num = num > 0 ? 1 : 0;  // a positive amount too small to show rounds up to 1
    } else {
      int128 den = 1;
      for (; exp < 0; ++exp) den *= 10;
      int128 q = num / den;
      if (num % den != 0 && num > 0) ++q;  // round towards +infinity
      num = q;
    }
  }
  if (num > INT64_MAX || num < INT64_MIN) return Invalid(text, ": out of range");
  return static_cast<int64_t>(num);
}

// The forms nearly every manifest writes ("2", "500m", "4Gi", "100M": up to 15 digits and
// an SI suffix, no sign, dot or exponent), computed in int64 when no step overflows: then
// the result is exact, as the general parser's is. False sends the text to it.
bool ParseCommonForm(absl::string_view text, int scale_exp10, int64_t* out) {
  size_t digits = 0;
  int64_t v = 0;
  while (digits < text.size() && digits < 16 && text[digits] >= '0' && text[digits] <= '9') {
    v = v * 10 + (text[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits > 15) return false;
  const Suffix* suffix = FindSuffix(text.substr(digits));
  if (suffix == nullptr) return false;
  for (int b = 0; b < suffix->binary_power; ++b) {
    if (__builtin_mul_overflow(v, int64_t{1024}, &v)) return false;
  }
  int exp10 = suffix->exp10 + scale_exp10;
  for (; exp10 > 0; --exp10) {
    if (__builtin_mul_overflow(v, int64_t{10}, &v)) return false;
  }
  if (exp10 < 0) {  // "500m" in whole units, "1n" in milli: rounded up
    int64_t den = 1;
    for (; exp10 < 0; ++exp10) den *= 10;  // at most 10^9
    v = v / den + (v % den != 0 ? 1 : 0);
  }
  *out = v;
  return true;
}

}  // namespace

absl::StatusOr<int64_t> quantity_internal::ParseScaledExactly(absl::string_view text, int scale_exp10) {
  absl::StatusOr<Parsed> p = Parse(text);
  if (!p.ok()) return p.status();
  return Scaled(text, *p, scale_exp10);
}

absl::StatusOr<int64_t> ParseValue(absl::string_view text) {
  if (int64_t v = 0; ParseCommonForm(text, 0, &v)) return v;
  return quantity_internal::ParseScaledExactly(text, 0);
}

absl::StatusOr<int64_t> ParseMilliValue(absl::string_view text) {
  if (int64_t v = 0; ParseCommonForm(text, 3, &v)) return v;
  return quantity_internal::ParseScaledExactly(text, 3);
}

std::string FormatMilli(int64_t milli) {
  if (milli % 1000 == 0) return absl::StrCat(milli / 1000);
  return absl::StrCat(milli, "m");
}

std::string FormatBytes(int64_t bytes) {
  static const char* kSuffix[] = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
  if (bytes == 0) return "0";
  for (int i = 0; i < 6; ++i) {
    const int64_t unit = int64_t{1} << (10 * (6 - i));
    if (bytes % unit == 0) return absl::StrCat(bytes / unit, kSuffix[i]);
  }
  return absl::StrCat(bytes);
}

}  // namespace vcsched
