// "Does not fit" is data: the result of a predicate, with interned reason texts.
#ifndef VCSCHED_FIT_H_
#define VCSCHED_FIT_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"

namespace vcsched {

// Kubernetes framework status codes that predicates return.
enum class FitCode : uint8_t {
  kSuccess,
  kUnschedulable,                 // evictions might make it fit
  kUnschedulableAndUnresolvable,  // nothing on this node can make it fit
  kError,
  kSkip,
  kWait,
};

// Id of an interned reason text (Session::InternReason).
using ReasonId = int32_t;

struct FitResult {
  FitCode code = FitCode::kSuccess;
  absl::InlinedVector<ReasonId, 2> reasons;

  bool ok() const { return code == FitCode::kSuccess; }
  static FitResult Success() { return {}; }
  static FitResult Fail(FitCode code, ReasonId reason) {
    FitResult r;
    r.code = code;
    r.reasons.push_back(reason);
    return r;
  }
};

// Votes of JobPipelined / JobEnqueueable callbacks and of victim filters.
enum class Vote : int8_t { kReject = -1, kAbstain = 0, kPermit = 1 };

}  // namespace vcsched

#endif  // VCSCHED_FIT_H_
