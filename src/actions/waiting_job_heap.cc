#include "src/actions/waiting_job_heap.h"

#include <cmath>

namespace vcsched::internal {

WaitingJobHeap::WaitingJobHeap(const Session& ssn) : ssn_(&ssn), s_(&ssn) {
  const bool keyed = s_->job_order_keys().size() <= kMaxKeys &&
                     std::all_of(s_->job_order_keys().begin(), s_->job_order_keys().end(),
                                 [](const JobOrderKeyFn& k) { return static_cast<bool>(k); });
  if (!keyed) fallback_.emplace(JobHeap(ssn));
}

bool WaitingJobHeap::After(const Entry& a, const Entry& b) {
  for (size_t i = 0; i < kMaxKeys; ++i) {
    if (a.keys[i] != b.keys[i]) return a.keys[i] > b.keys[i];
  }
  if (a.created != b.created) return a.created > b.created;
  return a.job > b.job;
}

void WaitingJobHeap::Push(JobIndex j) {
  if (fallback_) {
    fallback_->Push(j);
    return;
  }
  Entry e{};
  for (size_t i = 0; i < s_->job_order_keys().size(); ++i) {
    e.keys[i] = s_->job_order_keys()[i](j);
    // A NaN key (a host plugin's) orders nothing: keys stop being a total order, so the
    // waiting jobs move to the callback heap, which treats NaN as "no opinion".
    if (std::isnan(e.keys[i])) {
      UseCallbacks();
      fallback_->Push(j);
      return;
    }
  }
  e.created = s_->job_creation_time(j);
  e.job = j;
  if (!run_sorted_) {
    run_.push_back(e);
    return;
  }
  entries_.push_back(e);
  std::push_heap(entries_.begin(), entries_.end(), After);
}

void WaitingJobHeap::UseCallbacks() {
  fallback_.emplace(JobHeap(*ssn_));
  for (const Entry& e : run_) fallback_->Push(e.job);
  for (const Entry& e : entries_) fallback_->Push(e.job);
  run_.clear();
  entries_.clear();
}

JobIndex WaitingJobHeap::Pop() {
  if (fallback_) return fallback_->Pop();
  if (!run_sorted_) {
    // Jobs come in index order, which is often already their order (equal keys, older
    // first): then the run only needs reversing. After is a total order, so either way
    // the result is the one sorted sequence.
    if (std::is_sorted(run_.rbegin(), run_.rend(), After)) {
      std::reverse(run_.begin(), run_.end());
    } else {
      std::sort(run_.begin(), run_.end(), After);
    }
    run_sorted_ = true;
  }
  if (!run_.empty() && (entries_.empty() || After(entries_.front(), run_.back()))) {
    const JobIndex j = run_.back().job;
    run_.pop_back();
    return j;
  }
  std::pop_heap(entries_.begin(), entries_.end(), After);
  const JobIndex j = entries_.back().job;
  entries_.pop_back();
  return j;
}

}  // namespace vcsched::internal
