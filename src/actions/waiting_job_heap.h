// Allocate's heap of a queue's waiting jobs.
//
// Allocate pops a job, changes only that job, and pushes it back, so a job's place in
// the order cannot change while it waits. When every job-order opinion of the session
// is a key (Session::AddJobOrderKeyFn), the keys are read once at push and stored in
// the heap entry, and comparisons touch no other memory; the order is the session's
// JobOrderLess (keys in registration order, then creation time, then index), which is
// total, so the pops are the same as through the callbacks. Otherwise it compares
// through the callbacks. The jobs pushed before the first pop are sorted once (a
// sequential pass instead of a sift per pop; only reversed when they came in order);
// later pushes (jobs coming back) go to a heap, and a pop takes the first of the two.
#ifndef VCSCHED_SRC_ACTIONS_WAITING_JOB_HEAP_H_
#define VCSCHED_SRC_ACTIONS_WAITING_JOB_HEAP_H_

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "src/actions/helpers.h"

namespace vcsched::internal {

class WaitingJobHeap {
 public:
  explicit WaitingJobHeap(const Session& ssn);
  void Push(JobIndex j);
  JobIndex Pop();
  bool empty() const { return fallback_ ? fallback_->empty() : entries_.empty() && run_.empty(); }

 private:
  static constexpr size_t kMaxKeys = 4;
  struct Entry {
    std::array<double, kMaxKeys> keys;  // unused slots are 0 in every entry
    int64_t created;
    JobIndex job;
  };
  // "a goes after b": std heaps keep the greatest at the front.
  static bool After(const Entry& a, const Entry& b);
  // Moves the waiting jobs to the callback heap, for the rest of this heap's life.
  void UseCallbacks();

  const Session* ssn_;
  const Session* s_;
  std::vector<Entry> run_;      // pushed before the first pop; sorted then, first to go last
  bool run_sorted_ = false;
  std::vector<Entry> entries_;  // pushed after the first pop, a heap
  std::optional<OrderedHeap<JobIndex>> fallback_;  // some opinion is not a key
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_WAITING_JOB_HEAP_H_
