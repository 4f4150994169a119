// Kubernetes' rules for object names, checked on every object a snapshot takes: a name
// with a newline or a control character could otherwise forge lines of the text output.
#ifndef VCSCHED_SRC_MODEL_OBJECT_NAMES_H_
#define VCSCHED_SRC_MODEL_OBJECT_NAMES_H_

#include <string>

#include "absl/strings/string_view.h"

namespace vcsched {

// Kubernetes requires RFC 1123 subdomains (lower-case alphanumerics, '-' and '.') for
// these names and labels for namespaces; Volcano's own scheduler tests, which the
// conformance cases come from, also name objects with '_' and upper case. So a name is
// accepted when it is made of ASCII letters, digits, '-', '.' and '_' and starts and
// ends with a letter or digit; a namespace likewise, at most 63 characters. Anything else (spaces, control characters, '/', quotes, non-ASCII) is
// refused. Length of names is checked separately.
bool IsValidObjectName(absl::string_view name);
bool IsValidNamespace(absl::string_view name);
// What an error says about a name or namespace that fails the rule above.
inline constexpr absl::string_view kInvalidNameMessage =
    "not a valid name: letters, digits, '-', '.' and '_' only, starting and ending with a letter or digit "
    "(Kubernetes allows a lower-case RFC 1123 subdomain)";
inline constexpr absl::string_view kInvalidNamespaceMessage =
    "not a valid namespace: letters, digits, '-', '.' and '_' only, starting and ending with a letter or digit, "
    "at most 63 characters (Kubernetes allows a lower-case RFC 1123 label)";
// Kubernetes' qualified names (label keys, taint and toleration keys, resource names): an
// optional DNS subdomain prefix of at most 253 characters and a '/', then a name of at most
// 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit.
bool IsQualifiedName(absl::string_view name);
// Kubernetes' label values (also taint and toleration values): empty, or at most 63
// characters as a qualified name's name part.
bool IsLabelValue(absl::string_view value);
inline constexpr absl::string_view kQualifiedNameMessage =
    "not a qualified name: an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' "
    "and '.', starting and ending with a letter or digit";
inline constexpr absl::string_view kLabelValueMessage =
    "not a valid label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or "
    "digit, or empty";

// The name as it may be printed in a message: quoted, control and non-ASCII bytes
// escaped, cut after 64 characters.
std::string QuoteName(absl::string_view name);

}  // namespace vcsched

#endif  // VCSCHED_SRC_MODEL_OBJECT_NAMES_H_
