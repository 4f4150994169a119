// The numbers proportion and capacity give Explain (docs/EXPLAIN.md): which resource a
// queue check refused, with the amounts it compared, and a queue's view at close.
#ifndef VCSCHED_SRC_PLUGINS_QUEUE_EXPLAIN_H_
#define VCSCHED_SRC_PLUGINS_QUEUE_EXPLAIN_H_

#include <string>

#include "src/plugins/queue_amounts.h"
#include "vcsched/explain_records.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// An amount of dimension d as quantity text; +inf is "unlimited".
std::string AmountText(const Session& ssn, size_t d, double v);

// For each dimension `req` asks for where used + req > limit: "<res>.<used_name>",
// "<res>.request" and "<res>.<limit_name>".
CheckNumbers LimitNumbers(const Session& ssn, const Amount& used, absl::Span<const int64_t> req, const Amount& limit,
                          absl::string_view used_name, absl::string_view limit_name);

// Admission (enqueue): minResources + allocated + inqueue - elastic > capability, for
// each dimension where it is.
CheckNumbers AdmissionNumbers(const Session& ssn, const JobInfo& job, const Amount& allocated, const Amount& inqueue,
                              const Amount& elastic, const Amount& capability);

// Volcano's PodGroup event text for a refused admission, "<prefix>: <verb> cpu, <verb>
// memory", naming the resources of `numbers` whose key ends in `suffix`.
std::string EventText(absl::string_view prefix, absl::string_view verb, const CheckNumbers& numbers,
                      absl::string_view suffix);

// Records that job j's queue q is not Open (QueueClosed).
void ExplainQueueClosed(const Session& ssn, JobIndex j, QueueIndex q);

// The queue's amounts as Explain reports them.
QueueView ViewOfQueue(const Session& ssn, QueueIndex q, absl::string_view plugin, const Amount& deserved,
                      const Amount& allocated, const Amount& capability, const Amount& guarantee,
                      const Amount& inqueue, double share);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_QUEUE_EXPLAIN_H_
