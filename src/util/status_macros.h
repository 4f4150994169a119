// Status propagation helpers (Debian's Abseil ships none).
#ifndef VCSCHED_SRC_UTIL_STATUS_MACROS_H_
#define VCSCHED_SRC_UTIL_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define VCSCHED_RETURN_IF_ERROR(expr)          \
  do {                                         \
    const ::absl::Status _vcsched_st = (expr); \
    if (!_vcsched_st.ok()) return _vcsched_st; \
  } while (0)

#define VCSCHED_CONCAT_INNER(a, b) a##b
#define VCSCHED_CONCAT(a, b) VCSCHED_CONCAT_INNER(a, b)
#define VCSCHED_ASSIGN_OR_RETURN(lhs, expr) \
  VCSCHED_ASSIGN_OR_RETURN_IMPL(VCSCHED_CONCAT(_vcsched_or_, __LINE__), lhs, expr)
#define VCSCHED_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(*tmp)

#endif  // VCSCHED_SRC_UTIL_STATUS_MACROS_H_
