// Go's strconv.Atoi, as Volcano parses numbers out of annotations and CPU lists: an
// optional sign and decimal digits, nothing around them, within int64.
#ifndef VCSCHED_SRC_MODEL_GO_PARSE_H_
#define VCSCHED_SRC_MODEL_GO_PARSE_H_

#include <cstdint>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

inline std::optional<int64_t> GoAtoi(absl::string_view text) {
  if (text.empty()) return std::nullopt;
  for (char c : text) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) return std::nullopt;
  }
  int64_t v = 0;
  if (!absl::SimpleAtoi(text, &v)) return std::nullopt;
  return v;
}

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_GO_PARSE_H_
