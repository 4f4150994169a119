// Kubernetes resource quantities ("500m", "1.5", "4Gi", "1G", "2e3") parsed exactly.
//
// A quantity is a signed decimal number with an optional suffix: a binary SI suffix
// (Ki Mi Gi Ti Pi Ei), a decimal SI suffix (n u m k M G T P E) or a decimal exponent
// (e3, E-2). Parsing is exact: the number is held as an integer mantissa and a power of
// ten, and converted with Kubernetes' rounding (towards +infinity).
//
// Example:
//   absl::StatusOr<int64_t> cpu = ParseMilliValue("1.5");   // 1500
//   absl::StatusOr<int64_t> mem = ParseValue("4Gi");         // 4294967296
#ifndef VCSCHED_QUANTITY_H_
#define VCSCHED_QUANTITY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched {

// The quantity's value in whole units, rounded up (Kubernetes Quantity.Value()).
// On failure: kInvalidArgument naming the text, e.g. `invalid quantity "12x"`, also for
// values whose magnitude does not fit in int64.
absl::StatusOr<int64_t> ParseValue(absl::string_view text);

// The quantity's value in thousandths, rounded up (Kubernetes Quantity.MilliValue()).
// Same failures as ParseValue.
absl::StatusOr<int64_t> ParseMilliValue(absl::string_view text);

// Formats milli-units the way Kubernetes prints a canonical quantity: "1500m", "2".
std::string FormatMilli(int64_t milli);

// Formats bytes with the largest exact binary suffix: "4Gi", "1536Mi", "1000".
std::string FormatBytes(int64_t bytes);

}  // namespace vcsched

#endif  // VCSCHED_QUANTITY_H_
