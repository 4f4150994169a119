#include "src/snapshot/dense_facts.h"

#include <algorithm>

#include "src/model/pod_facts.h"

namespace vcsched {
namespace {

bool Ascending(const PackedStrings& keys) {
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!(keys[i - 1] < keys[i])) return false;
  }
  return true;
}

}  // namespace

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
  f.FillJobFacts(jobs, dims);
  f.task_keys_sorted = Ascending(f.task_key);
  return f;
}

DenseFacts DenseFacts::Patched(const DenseFacts& was, absl::Span<const TaskIndex> moved,
                               absl::Span<const JobIndex> job_moved, absl::Span<const TaskInfo> tasks,
                               absl::Span<const TaskIndex> fresh, absl::Span<const JobInfo> jobs, int dims,
                               std::vector<uint8_t> task_flags, std::vector<int32_t> task_shape,
                               int64_t latest_pod_creation_time) {
  DenseFacts f;
  const size_t n = tasks.size();
  f.task_flags = std::move(task_flags);
  f.task_shape = std::move(task_shape);
  f.latest_creation_time = latest_pod_creation_time;
  f.task_req.resize(static_cast<Eigen::Index>(n), dims);
  f.task_job.resize(n);
  f.task_nonzero_cpu.resize(n);
  f.task_nonzero_memory.resize(n);
  std::vector<TaskIndex> from(n, kNone);  // the earlier index of each carried task
  std::vector<uint8_t> placed(n, 0);
  for (TaskIndex i : was.placed_tasks) {
    if (moved[static_cast<size_t>(i)] != kNone) placed[static_cast<size_t>(moved[static_cast<size_t>(i)])] = 1;
  }
  for (size_t i = 0; i < moved.size(); ++i) {
    const TaskIndex j = moved[i];
    if (j == kNone) continue;
    from[static_cast<size_t>(j)] = static_cast<TaskIndex>(i);
    const JobIndex job = was.task_job[i];
    f.task_job[static_cast<size_t>(j)] = job == kNone || job_moved.empty() ? job : job_moved[static_cast<size_t>(job)];
    f.task_nonzero_cpu[static_cast<size_t>(j)] = was.task_nonzero_cpu[i];
    f.task_nonzero_memory[static_cast<size_t>(j)] = was.task_nonzero_memory[i];
    std::copy_n(was.task_req.data() + static_cast<ptrdiff_t>(i) * dims, dims,
                f.task_req.data() + static_cast<ptrdiff_t>(j) * dims);
  }
  for (TaskIndex j : fresh) {
    const TaskInfo& t = tasks[static_cast<size_t>(j)];
    f.task_job[static_cast<size_t>(j)] = t.job;
    f.task_nonzero_cpu[static_cast<size_t>(j)] = t.nonzero_cpu;
    f.task_nonzero_memory[static_cast<size_t>(j)] = t.nonzero_memory;
    std::copy_n(t.resreq.data(), dims, f.task_req.data() + static_cast<ptrdiff_t>(j) * dims);
    placed[static_cast<size_t>(j)] = t.status != TaskStatus::kPending;
  }
  f.task_key.reserve(n);
  for (size_t j = 0; j < n;) {
    if (from[j] == kNone) {
      f.task_key.push_back(tasks[j].key);
      ++j;
      continue;
    }
    size_t end = j + 1;  // a run of carried tasks, consecutive in the earlier table too
    while (end < n && from[end] != kNone && from[end] == from[end - 1] + 1) ++end;
    f.task_key.append_range(was.task_key, static_cast<size_t>(from[j]), static_cast<size_t>(from[end - 1]) + 1);
    j = end;
  }
  for (size_t j = 0; j < n; ++j) {
    if (placed[j]) f.placed_tasks.push_back(static_cast<TaskIndex>(j));
  }
  f.FillJobFacts(jobs, dims);
  // Removing keys keeps them in order; a new key must sort between its neighbours.
  f.task_keys_sorted = was.task_keys_sorted;
  for (TaskIndex j : fresh) {
    const size_t k = static_cast<size_t>(j);
    if (!f.task_keys_sorted) break;
    if ((k > 0 && !(f.task_key[k - 1] < f.task_key[k])) || (k + 1 < n && !(f.task_key[k] < f.task_key[k + 1]))) {
      f.task_keys_sorted = false;
    }
  }
  if (!was.task_keys_sorted) f.task_keys_sorted = Ascending(f.task_key);
  return f;
}

void DenseFacts::FillJobFacts(absl::Span<const JobInfo> jobs, int dims) {
  DenseFacts& f = *this;
  f.job_best_effort_count.assign(jobs.size(), 0);
  for (size_t t = 0; t < f.task_job.size(); ++t) {
    if ((f.task_flags[t] & kTaskBestEffort) && f.task_job[t] != kNone) ++f.job_best_effort_count[static_cast<size_t>(f.task_job[t])];
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
  f.job_keys_sorted = Ascending(f.job_key);
}

}  // namespace vcsched
