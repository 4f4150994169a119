// InterPodAffinity's score weights for a task: per topology key, the sum over the placed
// pods of each domain of the preferred terms' weights (the task's own terms that select
// a placed pod, and a placed pod's terms that select the task; anti-affinity negative).
//
// The weights of the last task asked are kept and, for a later task with the same
// namespace, labels and preferred pod terms (a job's pods, one after another), brought up
// to date from the view's log of placements since: a task costs the pods placed since the
// last one, not every pod its terms reach.
#ifndef VCSCHED_SRC_PLUGINS_POD_AFFINITY_WEIGHTS_H_
#define VCSCHED_SRC_PLUGINS_POD_AFFINITY_WEIGHTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "src/plugins/node_view.h"
#include "vcsched/session.h"

namespace vcsched::internal {

class PodAffinityWeights {
 public:
  // One topology key's weights, by the view's domain ids.
  struct KeyWeights {
    const std::string* key = nullptr;
    const NodeView::Domains* domains = nullptr;
    std::vector<int64_t> weight;   // by domain id; zero where not written
    std::vector<int32_t> touched;  // domains whose weight left zero (repeats allowed)
  };

  PodAffinityWeights(const Session& ssn, NodeView& view) : ssn_(&ssn), view_(&view) {}

  // The weights for `t` with the pods placed now (valid until the next call).
  absl::Span<const KeyWeights> For(TaskIndex t);

 private:
  // Longest log replayed instead of collecting again.
  static constexpr int64_t kMaxReplay = 4096;

  void Clear();
  // From every placed pod (the label index finds those a term can select).
  void CollectAll(TaskIndex t);
  // What placed pod `other` on `where` adds (sign +1) or took away (-1) for `t`.
  void Contribute(TaskIndex t, TaskIndex other, NodeIndex where, int64_t sign);
  void Add(const PodAffinityTerm& term, NodeIndex where, int64_t w);

  const Session* ssn_;
  NodeView* view_;
  std::vector<KeyWeights> keys_;  // [0, used_) are the current task's
  size_t used_ = 0;
  const PodSpec* pod_ = nullptr;  // the pod they were worked out for, and when
  TaskIndex task_ = kNone;
  int64_t seq_ = -1;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_POD_AFFINITY_WEIGHTS_H_
