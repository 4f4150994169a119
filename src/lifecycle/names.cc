#include "vcsched/lifecycle/names.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace vcsched::lifecycle {

namespace {

bool LowerAlnum(char c) { return absl::ascii_isdigit(c) || (c >= 'a' && c <= 'z'); }

bool IsLabel(absl::string_view s) {
  if (s.empty() || !LowerAlnum(s.front()) || !LowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!LowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool IsSubdomain(absl::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  for (absl::string_view part : absl::StrSplit(s, '.')) {
    if (!IsLabel(part)) return false;
  }
  return true;
}

constexpr char kQualifiedRule[] =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr char kLabelRule[] =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr char kSubdomainRule[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

}  // namespace

std::vector<std::string> QualifiedNameProblems(const std::string& full) {
  std::vector<std::string> out;
  absl::string_view name = full;
  if (const size_t slash = full.find('/'); slash != std::string::npos) {
    const absl::string_view prefix = absl::string_view(full).substr(0, slash);
    name = absl::string_view(full).substr(slash + 1);
    if (prefix.empty()) out.push_back("prefix part must be non-empty");
    else if (!IsSubdomain(prefix)) out.push_back(absl::StrCat("prefix part ", kSubdomainRule));
    if (name.find('/') != absl::string_view::npos) {
      out.push_back("a qualified name must consist of alphanumeric characters, '-', '_' or '.' with an optional "
                    "DNS subdomain prefix and '/'");
      return out;
    }
  }
  if (name.empty()) {
    out.push_back("name part must be non-empty");
    return out;
  }
  if (name.size() > 63) out.push_back("name part must be no more than 63 characters");
  auto alnum = [](char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)); };
  bool ok = alnum(name.front()) && alnum(name.back());
  for (char c : name) ok = ok && (alnum(c) || c == '-' || c == '_' || c == '.');
  if (!ok) out.push_back(kQualifiedRule);
  return out;
}

std::vector<std::string> Dns1123LabelProblems(const std::string& name) {
  std::vector<std::string> out;
  if (name.size() > 63) out.push_back("must be no more than 63 characters");
  if (!IsLabel(name)) out.push_back(kLabelRule);
  return out;
}

std::vector<std::string> Dns1123SubdomainProblems(const std::string& name) {
  std::vector<std::string> out;
  if (name.size() > 253) out.push_back("must be no more than 253 characters");
  if (!IsSubdomain(name.substr(0, 253))) out.push_back(kSubdomainRule);
  return out;
}

}  // namespace vcsched::lifecycle
