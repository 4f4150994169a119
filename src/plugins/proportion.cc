// proportion: weighted water-filling of the cluster into per-queue deserved shares,
// which order queues, cap allocation and admission, and decide reclaim victims
// (docs/reference/scheduler.md §10.7). Amounts are doubles because deserved shares are fractional.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "src/plugins/plugins.h"
#include "src/plugins/queue_amounts.h"
#include "src/plugins/queue_explain.h"
#include "absl/strings/str_cat.h"

namespace vcsched::internal {
namespace {

class ProportionPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    attrs_ = BuildQueueAmounts(ssn);
    for (const QueueInfo& q : s.snapshot().queues()) {
      if (!q.spec.parent.empty() && q.spec.parent != "root") {
        ssn.AddWarning(absl::StrCat("Queue \"", q.spec.name, "\": spec.parent: \"", q.spec.parent,
                                    "\" is ignored: proportion shares the cluster among all queues as one level "
                                    "(capacity with enableHierarchy reads parents)"));
      }
    }
    ComputeDeserved();
    for (auto& [q, a] : attrs_) a.share = Share(a);

    ssn.AddQueueOrderFn([this](QueueIndex l, QueueIndex r) {
      const int32_t lp = s_->queue(l).spec.priority, rp = s_->queue(r).spec.priority;
      if (lp != rp) return lp > rp ? -1 : 1;
      const double ls = ShareOf(l), rs = ShareOf(r);
      return ls < rs ? -1 : (ls > rs ? 1 : 0);
    });
    ssn.AddOverusedFn([this](QueueIndex q) {
      const QueueAmounts* a = Find(q);
      const bool overused = a != nullptr && AllLessEqual(a->deserved, a->allocated);
      if (overused && s_->explaining()) ExplainOverused(q, *a);
      return overused;
    });
    ssn.AddAllocatableFn([this](QueueIndex q, TaskIndex t) {
      const QueueAmounts* a = Find(q);
      if (a != nullptr && s_->queue(q).spec.state == "Open" && FitsWithDimension(a->allocated, s_->task_resreq(t), a->deserved)) {
        return true;
      }
      if (s_->explaining()) ExplainRefusedTask(q, t, a);
      return false;
    });
    ssn.AddSimulateAllocatableFn([this](QueueIndex q, TaskIndex t, absl::Span<const TaskIndex> removed) {
      const QueueAmounts* a = Find(q);
      if (a == nullptr || s_->queue(q).spec.state != "Open") return false;
      Amount allocated = a->allocated;
      for (TaskIndex v : removed) {
        const JobIndex vj = s_->job_of(v);
        if (vj != kNone && s_->queue_of(vj) == q) Sub(allocated, s_->task_resreq(v));
      }
      return FitsWithDimension(allocated, s_->task_resreq(t), a->deserved);
    });
    ssn.AddPreemptiveFn([this](QueueIndex q, absl::Span<const TaskIndex> tasks) {
      const QueueAmounts* a = Find(q);
      // Volcano HEAD asks for an Open queue here as it does in Allocatable.
      if (a == nullptr || s_->queue(q).spec.state != "Open") return false;
      Resource sum(s_->dims());
      for (TaskIndex t : tasks) sum += s_->task_resreq(t);
      return FitsWithDimension(a->allocated, sum.span(), a->deserved);
    });
    ssn.AddReclaimableFn([this](TaskIndex, absl::Span<const TaskIndex> cands) {
      std::map<QueueIndex, Amount> running;
      std::vector<TaskIndex> victims;
      for (TaskIndex c : cands) {
        const JobIndex j = s_->job_of(c);
        if (j == kNone) continue;
        const QueueIndex q = s_->queue_of(j);
        const QueueAmounts* a = Find(q);
        if (a == nullptr) continue;
        auto it = running.find(q);
        if (it == running.end()) it = running.emplace(q, a->allocated).first;
        if (!AllLessEqual(it->second, a->deserved)) {
          Sub(it->second, s_->task_resreq(c));
          victims.push_back(c);
        }
      }
      return std::make_pair(std::move(victims), Vote::kPermit);
    });
    ssn.AddJobEnqueueableFn([this](JobIndex j) { return Enqueueable(j); });
    ssn.AddJobEnqueuedFn([this](JobIndex j) {
      const JobInfo& job = s_->job(j);
      QueueAmounts* a = Find(job.queue);
      if (a != nullptr && job.has_min_resources) Add(a->inqueue, job.min_resources.span());
    });
    ssn.AddEventHandler({[this](TaskIndex t) { Update(t, true); }, [this](TaskIndex t) { Update(t, false); }});
    return absl::OkStatus();
  }

 private:
  void OnSessionClose(Session& ssn) override {
    if (!ssn.explaining()) return;
    for (const auto& [q, a] : attrs_) {
      ssn.DescribeQueue(ViewOfQueue(ssn, q, "proportion", a.deserved, a.allocated, a.capability, a.guarantee, a.inqueue,
                                    a.share));
    }
  }

  QueueAmounts* Find(QueueIndex q) {
    auto it = attrs_.find(q);
    return it == attrs_.end() ? nullptr : &it->second;
  }
  const QueueAmounts* Find(QueueIndex q) const {
    auto it = attrs_.find(q);
    return it == attrs_.end() ? nullptr : &it->second;
  }
  double ShareOf(QueueIndex q) const {
    const QueueAmounts* a = Find(q);
    return a == nullptr ? 0 : a->share;
  }

  // max over the deserved dimensions of allocated/deserved.
  static double Share(const QueueAmounts& a) {
    double share = 0;
    for (size_t d = 0; d < a.deserved.size(); ++d) {
      if (a.deserved[d] < kEpsilon) continue;
      share = std::max(share, a.allocated[d] / a.deserved[d]);
    }
    return share;
  }

  Vote Enqueueable(JobIndex j) const {
    const JobInfo& job = s_->job(j);
    const QueueAmounts* a = Find(job.queue);
    if (a == nullptr) return Vote::kPermit;
    if (s_->queue(job.queue).spec.state != "Open") {
      if (s_->explaining()) ExplainQueueClosed(*s_, j, job.queue);
      return Vote::kReject;
    }
    if (!job.has_min_resources) return Vote::kPermit;
    for (int d = 0; d < s_->dims(); ++d) {
      if (d == kPods || job.min_resources[d] <= 0) continue;
      const size_t i = static_cast<size_t>(d);
      const double need = static_cast<double>(job.min_resources[d]) + a->allocated[i] + a->inqueue[i] - a->elastic[i];
      if (need > a->real_capability[i]) {
        if (s_->explaining()) {
          CheckNumbers numbers = AdmissionNumbers(*s_, job, a->allocated, a->inqueue, a->elastic, a->real_capability);
          std::string message =
              absl::StrCat(EventText("queue resource quota insufficient", "insufficient", numbers, ".minResources"),
                           " (queue ", s_->queue(job.queue).spec.name,
                           ", proportion: minResources + allocated + inqueue - elastic > capability)");
          s_->ExplainJob(j, reason_code::kQueueCapabilityExceeded, std::move(message), std::move(numbers));
        }
        return Vote::kReject;
      }
    }
    return Vote::kPermit;
  }

  // Out of line: the refusal path of a hot callback, taken only while explaining.
  [[gnu::noinline, gnu::cold]] void ExplainRefusedTask(QueueIndex q, TaskIndex t, const QueueAmounts* a) const {
    if (a == nullptr) return;
    if (s_->queue(q).spec.state != "Open") return ExplainQueueClosed(*s_, s_->job_of(t), q);
    // Deserved is capped by the capability: where every refusing resource's deserved is
    // the capability itself, below what the cluster has, more share would not help, and
    // the capability is the cause.
    const auto req = s_->task_resreq(t);
    bool capped = true;
    for (size_t d = 0; d < req.size(); ++d) {
      if (static_cast<int>(d) == kPods || req[d] <= 0 || a->allocated[d] + static_cast<double>(req[d]) <= a->deserved[d]) continue;
      const double total = static_cast<double>(s_->total_resource()[static_cast<int>(d)]);
      capped = capped && a->has_capability && a->capability[d] - a->deserved[d] < kEpsilon && a->capability[d] < total;
    }
    if (capped) {
      s_->ExplainJob(s_->job_of(t), reason_code::kQueueCapabilityExceeded,
                     absl::StrCat("queue ", s_->queue(q).spec.name, " would pass its capability with task ",
                                  s_->task(t).key, " (proportion: allocated + request > capability)"),
                     LimitNumbers(*s_, a->allocated, req, a->capability, "allocated", "capability"));
      return;
    }
    s_->ExplainJob(s_->job_of(t), reason_code::kQueueShareExceeded,
                   absl::StrCat("queue ", s_->queue(q).spec.name, " would pass its deserved share with task ",
                                s_->task(t).key, " (proportion: allocated + request > deserved)"),
                   LimitNumbers(*s_, a->allocated, s_->task_resreq(t), a->deserved, "allocated", "deserved"));
  }

  [[gnu::noinline, gnu::cold]] void ExplainOverused(QueueIndex q, const QueueAmounts& a) const {
    CheckNumbers numbers;
    for (size_t d = 0; d < a.deserved.size(); ++d) {
      if (static_cast<int>(d) == kPods || (a.deserved[d] < kEpsilon && a.allocated[d] < kEpsilon)) continue;
      const std::string& name = s_->snapshot().space().name(static_cast<int>(d));
      numbers.emplace_back(name + ".allocated", AmountText(*s_, d, a.allocated[d]));
      numbers.emplace_back(name + ".deserved", AmountText(*s_, d, a.deserved[d]));
    }
    s_->ExplainQueue(q, reason_code::kQueueShareExceeded,
                     absl::StrCat("queue ", s_->queue(q).spec.name,
                                  " is overused: its allocation has reached its deserved share in every resource"),
                     std::move(numbers));
  }

  void Update(TaskIndex t, bool allocate) {
    const JobIndex j = s_->job_of(t);
    if (j == kNone) return;
    QueueAmounts* a = Find(s_->queue_of(j));
    if (a == nullptr) return;
    if (allocate) Add(a->allocated, s_->task_resreq(t));
    else Sub(a->allocated, s_->task_resreq(t));
    a->share = Share(*a);
  }

  // Weighted water-filling (docs/reference/scheduler.md §10.7, worked example §15 A).
  void ComputeDeserved() {
    const int dims = s_->dims();
    Amount remaining(static_cast<size_t>(dims));
    for (int d = 0; d < dims; ++d) remaining[static_cast<size_t>(d)] = static_cast<double>(s_->total_resource()[d]);
    std::map<QueueIndex, bool> meet;
    while (true) {
      double total_weight = 0;
      for (const auto& [q, a] : attrs_) {
        if (!meet[q]) total_weight += static_cast<double>(s_->queue(q).spec.weight);
      }
      if (total_weight == 0) break;
      const Amount old_remaining = remaining;
      Amount inc(static_cast<size_t>(dims), 0), dec(static_cast<size_t>(dims), 0);
      for (auto& [q, a] : attrs_) {
        if (meet[q]) continue;
        const Amount old = a.deserved;
        const double w = static_cast<double>(s_->queue(q).spec.weight) / total_weight;
        for (size_t d = 0; d < a.deserved.size(); ++d) {
          double v = a.deserved[d] + old_remaining[d] * w;
          v = std::min(v, a.real_capability[d]);
          v = std::min(v, a.request[d]);
          v = std::max(v, a.guarantee[d]);
          a.deserved[d] = v;
        }
        if (AllLessEqual(a.request, a.deserved) || a.deserved == old) meet[q] = true;
        for (size_t d = 0; d < a.deserved.size(); ++d) {
          if (a.deserved[d] > old[d]) inc[d] += a.deserved[d] - old[d];
          else dec[d] += old[d] - a.deserved[d];
        }
      }
      for (size_t d = 0; d < remaining.size(); ++d) {
        remaining[d] = std::max(remaining[d] + dec[d] - inc[d], 0.0);
      }
      if (IsEmptyAmount(remaining) || remaining == old_remaining) break;
    }
  }

  const Session* s_ = nullptr;
  std::map<QueueIndex, QueueAmounts> attrs_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewProportionPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new ProportionPlugin());
}

}  // namespace vcsched::internal
