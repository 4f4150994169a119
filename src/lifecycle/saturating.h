// Time arithmetic on values from manifests and hosts (durations, timestamps) that must
// not overflow: results stop at the ends of int64.
#ifndef VCSCHED_SRC_LIFECYCLE_SATURATING_H_
#define VCSCHED_SRC_LIFECYCLE_SATURATING_H_

#include <cstdint>
#include <limits>

#include "absl/numeric/int128.h"

namespace vcsched::lifecycle::internal {

inline int64_t Clamp64(absl::int128 v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

inline int64_t AddSat(int64_t a, int64_t b) { return Clamp64(absl::int128(a) + b); }
inline int64_t SubSat(int64_t a, int64_t b) { return Clamp64(absl::int128(a) - b); }
inline int64_t MulSat(int64_t a, int64_t b) { return Clamp64(absl::int128(a) * b); }

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_SATURATING_H_
