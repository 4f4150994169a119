#include "src/plugins/queue_amounts.h"

#include <algorithm>
#include <limits>

#include "absl/strings/string_view.h"

namespace vcsched::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Amount ToAmount(absl::Span<const int64_t> r) {
  Amount a(r.size());
  for (size_t d = 0; d < r.size(); ++d) a[d] = r[d] >= kUnlimited ? kInf : static_cast<double>(r[d]);
  return a;
}

}  // namespace

bool AllLessEqual(const Amount& a, const Amount& b) {
  for (size_t d = 0; d < a.size(); ++d) {
    if (!(a[d] < b[d] || std::abs(a[d] - b[d]) < kEpsilon)) return false;
  }
  return true;
}

bool FitsWithDimension(const Amount& allocated, absl::Span<const int64_t> req, const Amount& limit) {
  for (size_t d = 0; d < req.size(); ++d) {
    if (static_cast<int>(d) == kPods || req[d] <= 0) continue;
    if (allocated[d] + static_cast<double>(req[d]) > limit[d]) return false;
  }
  return true;
}

void Add(Amount& a, absl::Span<const int64_t> r) {
  for (size_t d = 0; d < a.size(); ++d) a[d] += static_cast<double>(r[d]);
}

void Sub(Amount& a, absl::Span<const int64_t> r) {
  for (size_t d = 0; d < a.size(); ++d) a[d] -= static_cast<double>(r[d]);
}

bool IsEmptyAmount(const Amount& a) {
  for (size_t d = 0; d < a.size(); ++d) {
    if (static_cast<int>(d) != kPods && a[d] >= kEpsilon) return false;
  }
  return true;
}

int32_t AllocatedTaskCount(const Session& ssn, JobIndex j) {
  return ssn.job_count(j, TaskStatus::kBound) + ssn.job_count(j, TaskStatus::kBinding) +
         ssn.job_count(j, TaskStatus::kRunning) + ssn.job_count(j, TaskStatus::kAllocated);
}

std::map<QueueIndex, QueueAmounts> BuildQueueAmounts(const Session& ssn) {
  const Session& s = ssn;
  const size_t dims = static_cast<size_t>(s.dims());
  Amount total = ToAmount(s.total_resource().span());
  Amount all_guarantee(dims, 0);
  for (const QueueInfo& q : s.snapshot().queues()) {
    for (size_t d = 0; d < dims; ++d) all_guarantee[d] += static_cast<double>(q.guarantee[static_cast<int>(d)]);
  }
  // Sums that are exact in any order may be taken per job (the session keeps each job's
  // allocated total) instead of per task; the result is the same to the last bit.
  const bool exact = ssn.request_sums_exact();
  std::map<QueueIndex, QueueAmounts> out;
  for (JobIndex j = 0; j < static_cast<JobIndex>(s.num_jobs()); ++j) {
    const QueueIndex queue = s.queue_of(j);
    if (queue == kNone) continue;
    auto [it, inserted] = out.try_emplace(queue);
    QueueAmounts& a = it->second;
    if (inserted) {
      const QueueInfo& q = s.queue(queue);
      a.has_capability = !q.spec.capability.empty();
      a.capability = ToAmount(q.capability.span());
      if (a.has_capability) {
        // An unset or non-positive cpu/memory capability means no limit.
        if (a.capability[kCpu] <= 0) a.capability[kCpu] = kInf;
        if (a.capability[kMemory] <= 0) a.capability[kMemory] = kInf;
      }
      a.guarantee = ToAmount(q.guarantee.span());
      a.real_capability.assign(dims, 0);
      for (size_t d = 0; d < dims; ++d) {
        a.real_capability[d] = std::max(total[d] - all_guarantee[d], 0.0) + a.guarantee[d];
        if (a.has_capability) a.real_capability[d] = std::min(a.real_capability[d], a.capability[d]);
      }
      a.deserved.assign(dims, 0);
      a.allocated.assign(dims, 0);
      a.request.assign(dims, 0);
      a.inqueue.assign(dims, 0);
      a.elastic.assign(dims, 0);
    }
    const auto job_alloc = ssn.job_allocated(j);
    const absl::Span<const int64_t> min_resources = s.job_min_resources(j);
    if (exact) {
      // The job's allocated total stands for its allocated tasks' requests; only pending
      // tasks are visited, and only in a job that has some.
      Add(a.allocated, job_alloc);
      Add(a.request, job_alloc);
      if (s.job_count(j, TaskStatus::kPending) > 0) {
        for (TaskIndex t : s.job_tasks(j)) {
          if (s.task_status(t) == TaskStatus::kPending) Add(a.request, s.task_resreq(t));
        }
      }
    } else {
      for (TaskIndex t : s.job_tasks(j)) {
        const TaskStatus st = s.task_status(t);
        if (IsAllocatedStatus(st)) {
          Add(a.allocated, s.task_resreq(t));
          Add(a.request, s.task_resreq(t));
        } else if (st == TaskStatus::kPending) {
          Add(a.request, s.task_resreq(t));
        }
      }
    }
    const absl::string_view phase = ssn.job_phase(j);  // compared by length first
    if (s.job_has_min_resources(j)) {
      const int32_t allocated_tasks = AllocatedTaskCount(s, j);
      if (phase == "Inqueue" || (phase == "Running" && allocated_tasks >= s.job_min_member(j))) {
        for (size_t d = 0; d < dims; ++d) {
          a.inqueue[d] += static_cast<double>(std::max<int64_t>(min_resources[d] - job_alloc[d], 0));
        }
      }
    }
    for (size_t d = 0; d < dims; ++d) {
      a.elastic[d] += static_cast<double>(std::max<int64_t>(job_alloc[d] - min_resources[d], 0));
    }
  }
  return out;
}

}  // namespace vcsched::internal
