#include "src/model/object_names.h"

#include <array>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace vcsched {
namespace {

// Per byte: 1 for a letter or digit, 2 for '-', '_' or '.', 0 otherwise (a table: every
// object's name and namespace are checked, more than once on their way in).
constexpr std::array<unsigned char, 256> kNameChars = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    t[c] = alnum ? 1 : c == '-' || c == '_' || c == '.' ? 2 : 0;
  }
  return t;
}();

bool Alnum(char c) { return kNameChars[static_cast<unsigned char>(c)] == 1; }

bool Made(absl::string_view name) {
  if (name.empty() || !Alnum(name.front()) || !Alnum(name.back())) return false;
  for (char c : name) {
    if (kNameChars[static_cast<unsigned char>(c)] == 0) return false;
  }
  return true;
}

}  // namespace

bool IsValidObjectName(absl::string_view name) { return Made(name); }

bool IsValidNamespace(absl::string_view name) { return name.size() <= 63 && Made(name); }

bool IsQualifiedName(absl::string_view name) {
  const size_t slash = name.find('/');
  if (slash != absl::string_view::npos) {
    const absl::string_view prefix = name.substr(0, slash);
    // A DNS subdomain: lower-case letters, digits, '-' and '.', alphanumeric at both ends.
    if (prefix.empty() || prefix.size() > 253) return false;
    for (char c : prefix) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    }
    if (!Alnum(prefix.front()) || !Alnum(prefix.back())) return false;
    name = name.substr(slash + 1);
  }
  return name.size() <= 63 && Made(name);
}

bool IsLabelValue(absl::string_view value) { return value.empty() || (value.size() <= 63 && Made(value)); }

std::string QuoteName(absl::string_view name) {
  const bool cut = name.size() > 64;
  return absl::StrCat("\"", absl::CHexEscape(name.substr(0, 64)), cut ? "...\"" : "\"");
}

}  // namespace vcsched
