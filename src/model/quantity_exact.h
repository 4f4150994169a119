// The general quantity parser, without the common forms' shortcut: the test and the
// fuzzer compare the two on every text.
#ifndef VCSCHED_SRC_MODEL_QUANTITY_EXACT_H_
#define VCSCHED_SRC_MODEL_QUANTITY_EXACT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched::quantity_internal {

// The quantity times 10^scale_exp10, rounded up (scale 0: ParseValue, 3: ParseMilliValue).
absl::StatusOr<int64_t> ParseScaledExactly(absl::string_view text, int scale_exp10);

}  // namespace vcsched::quantity_internal

#endif  // VCSCHED_SRC_MODEL_QUANTITY_EXACT_H_
