#include "src/model/object_names.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace vcsched {
namespace {

bool Alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool Made(absl::string_view name) {
  if (name.empty() || !Alnum(name.front()) || !Alnum(name.back())) return false;
  for (char c : name) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

bool IsValidObjectName(absl::string_view name) { return Made(name); }

bool IsValidNamespace(absl::string_view name) { return name.size() <= 63 && Made(name); }

std::string QuoteName(absl::string_view name) {
  const bool cut = name.size() > 64;
  return absl::StrCat("\"", absl::CHexEscape(name.substr(0, 64)), cut ? "...\"" : "\"");
}

}  // namespace vcsched
