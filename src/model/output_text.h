// Text helpers shared by the output formats.
#ifndef VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_
#define VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_

#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace vcsched {

// `s` as a double-quoted JSON string: quotes, backslashes and control bytes escaped.
// Also a valid YAML double-quoted scalar.
std::string JsonQuote(absl::string_view s);

// A task key "namespace/name" as (namespace, name); a key without a slash is in "default".
std::pair<absl::string_view, absl::string_view> SplitTaskKey(absl::string_view key);

}  // namespace vcsched

#endif  // VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_
