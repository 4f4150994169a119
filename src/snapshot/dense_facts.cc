#include "src/snapshot/dense_facts.h"

#include <algorithm>

#include "src/model/pod_facts.h"

namespace vcsched {

uint8_t DenseFacts::FlagsOf(const TaskInfo& t) {
  const PodSpec& pod = *t.pod;
  const bool placement_terms = internal::HasPlacementTerms(pod);
  const bool shape_only = pod.nominated_node_name.empty() && !placement_terms;
  const bool node_selection = !pod.node_selector.empty() || pod.affinity.has_required_node_terms;
  return static_cast<uint8_t>((pod.scheduling_gated ? kTaskGated : 0) | (t.best_effort ? kTaskBestEffort : 0) |
                              (t.role.empty() ? 0 : kTaskHasRole) | (shape_only ? kTaskShapeOnly : 0) |
                              (placement_terms ? kTaskPlacementTerms : 0) |
                              (internal::HasPodAffinityTerms(pod) ? kTaskPodAffinityTerms : 0) |
                              (node_selection ? kTaskNodeSelection : 0));
}

DenseFacts DenseFacts::Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, int dims) {
  std::vector<uint8_t> flags;
  flags.reserve(tasks.size());
  int64_t latest = 0;
  for (const TaskInfo& t : tasks) {
    flags.push_back(FlagsOf(t));
    latest = std::max(latest, t.pod->creation_time);
  }
  return Of(tasks, jobs, dims, std::move(flags), latest);
}

DenseFacts DenseFacts::Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, int dims,
                          std::vector<uint8_t> task_flags, int64_t latest_pod_creation_time) {
  DenseFacts f;
  f.task_flags = std::move(task_flags);
  f.latest_creation_time = latest_pod_creation_time;
  f.task_key.reserve(tasks.size());
  f.job_key.reserve(jobs.size());
  f.task_job.reserve(tasks.size());
  f.task_req.resize(static_cast<Eigen::Index>(tasks.size()), dims);
  for (const TaskInfo& t : tasks) {
    f.task_job.push_back(t.job);
    f.task_shape.push_back(t.shape);
    f.task_nonzero_cpu.push_back(t.nonzero_cpu);
    f.task_nonzero_memory.push_back(t.nonzero_memory);
    f.task_key.push_back(t.key);
    std::copy_n(t.resreq.data(), dims, f.task_req.data() + static_cast<ptrdiff_t>(t.index) * dims);
    if (t.status != TaskStatus::kPending) f.placed_tasks.push_back(t.index);
  }
  f.job_best_effort_count.assign(jobs.size(), 0);
  for (const TaskInfo& t : tasks) {
    if (t.best_effort && t.job != kNone) ++f.job_best_effort_count[static_cast<size_t>(t.job)];
  }
  f.job_min_resources.resize(static_cast<Eigen::Index>(jobs.size()), dims);
  for (const JobInfo& j : jobs) {
    std::copy_n(j.min_resources.data(), dims, f.job_min_resources.data() + static_cast<ptrdiff_t>(j.index) * dims);
    f.latest_creation_time = std::max(f.latest_creation_time, j.pod_group.creation_time);
    f.job_queue.push_back(j.queue);
    f.job_has_min_resources.push_back(j.has_min_resources);
    f.job_key.push_back(j.key);
    f.job_min_member.push_back(j.pod_group.min_member);
    // Per-role minimums apply only when MinAvailable covers their sum.
    f.job_checks_roles.push_back(!j.pod_group.min_task_member.empty() &&
                                 j.pod_group.min_member >= j.task_min_available_total);
    f.job_priority.push_back(j.priority);
    f.job_creation_time.push_back(j.pod_group.creation_time);
    f.job_task_begin.push_back(static_cast<int32_t>(f.job_task_list.size()));
    f.job_task_list.insert(f.job_task_list.end(), j.tasks.begin(), j.tasks.end());
    f.job_phase.push_back(j.pod_group.phase.empty() ? "Pending" : j.pod_group.phase);
  }
  f.job_task_begin.push_back(static_cast<int32_t>(f.job_task_list.size()));
  const auto ascending = [](const PackedStrings& keys) {
    for (size_t i = 1; i < keys.size(); ++i) {
      if (!(keys[i - 1] < keys[i])) return false;
    }
    return true;
  };
  f.task_keys_sorted = ascending(f.task_key);
  f.job_keys_sorted = ascending(f.job_key);
  return f;
}

}  // namespace vcsched
