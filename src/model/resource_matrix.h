// Rows of resource vectors (nodes, jobs or tasks x dimensions), stored densely.
#ifndef VCSCHED_SRC_MODEL_RESOURCE_MATRIX_H_
#define VCSCHED_SRC_MODEL_RESOURCE_MATRIX_H_

#include <cstdint>

#include <Eigen/Core>

#include "absl/types/span.h"

namespace vcsched {

// Row-major so a row is one contiguous resource vector.
using ResourceMatrix = Eigen::Array<int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

inline absl::Span<const int64_t> Row(const ResourceMatrix& m, int32_t i) {
  return absl::Span<const int64_t>(m.data() + static_cast<ptrdiff_t>(i) * m.cols(),
                                   static_cast<size_t>(m.cols()));
}
inline absl::Span<int64_t> MutableRow(ResourceMatrix& m, int32_t i) {
  return absl::Span<int64_t>(m.data() + static_cast<ptrdiff_t>(i) * m.cols(),
                             static_cast<size_t>(m.cols()));
}

}  // namespace vcsched

#endif  // VCSCHED_SRC_MODEL_RESOURCE_MATRIX_H_
