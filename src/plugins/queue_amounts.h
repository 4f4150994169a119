// Per-queue amounts that proportion and capacity share: allocated, request, inqueue,
// elastic, guarantee and the capability bounds, as doubles (Volcano's float semantics,
// with epsilon 0.1 of a stored unit).
#ifndef VCSCHED_SRC_PLUGINS_QUEUE_AMOUNTS_H_
#define VCSCHED_SRC_PLUGINS_QUEUE_AMOUNTS_H_

#include <map>
#include <vector>

#include "vcsched/session.h"

namespace vcsched::internal {

using Amount = std::vector<double>;
inline constexpr double kEpsilon = 0.1;

struct QueueAmounts {
  Amount capability;       // +inf where unlimited
  bool has_capability = false;
  Amount guarantee;
  Amount real_capability;  // ExceededPart(total, all guarantees) + guarantee, min capability
  Amount deserved;
  Amount allocated;        // allocated-class tasks (kept current by event handlers)
  Amount request;          // allocated + Pending
  Amount inqueue;          // admitted, not yet allocated minResources
  Amount elastic;          // allocated beyond minResources
  double share = 0;
};

// The job's tasks in the allocated class (Bound, Binding, Running, Allocated).
int32_t AllocatedTaskCount(const Session& ssn, JobIndex j);

// Amounts for every queue that has at least one job in the session.
std::map<QueueIndex, QueueAmounts> BuildQueueAmounts(const Session& ssn);

// a <= b within epsilon on every dimension (Volcano LessEqual over dense amounts).
bool AllLessEqual(const Amount& a, const Amount& b);
// allocated + req <= limit, strictly, on the dimensions req asks for (pods excluded).
bool FitsWithDimension(const Amount& allocated, absl::Span<const int64_t> req, const Amount& limit);
void Add(Amount& a, absl::Span<const int64_t> r);
void Sub(Amount& a, absl::Span<const int64_t> r);
// cpu, memory and every scalar but pods below epsilon.
bool IsEmptyAmount(const Amount& a);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_QUEUE_AMOUNTS_H_
