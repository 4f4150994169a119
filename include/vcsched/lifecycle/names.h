// Kubernetes' name rules, with its wording. Each returns the problems, empty when valid.
#ifndef VCSCHED_LIFECYCLE_NAMES_H_
#define VCSCHED_LIFECYCLE_NAMES_H_

#include <string>
#include <vector>

namespace vcsched::lifecycle {

// `[prefix/]name`: name ≤ 63 characters of alphanumerics, '-', '_', '.', starting and
// ending alphanumeric; prefix a DNS-1123 subdomain.
std::vector<std::string> QualifiedNameProblems(const std::string& name);
// ≤ 63 lower-case alphanumerics or '-', starting and ending alphanumeric.
std::vector<std::string> Dns1123LabelProblems(const std::string& name);
// ≤ 253 characters: DNS-1123 labels joined by '.'.
std::vector<std::string> Dns1123SubdomainProblems(const std::string& name);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_NAMES_H_
