#include "vcsched/lifecycle/findings.h"

#include "absl/strings/str_cat.h"

namespace vcsched::lifecycle {

void Findings::Append(const Findings& other) {
  errors.insert(errors.end(), other.errors.begin(), other.errors.end());
  warnings.insert(warnings.end(), other.warnings.begin(), other.warnings.end());
}

std::string FormatFindings(const std::string& object, const Findings& findings) {
  std::string out;
  auto line = [&](const char* prefix, const Violation& v) {
    absl::StrAppend(&out, prefix, object, ": ", v.field.empty() ? "" : absl::StrCat(v.field, ": "), v.message, "\n");
  };
  for (const Violation& v : findings.errors) line("", v);
  for (const Violation& v : findings.warnings) line("warning: ", v);
  return out;
}

}  // namespace vcsched::lifecycle
