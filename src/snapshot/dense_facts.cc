#include "src/snapshot/dense_facts.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "src/model/pod_facts.h"
#include "src/snapshot/role_checks.h"

namespace vcsched {
namespace {

// Task `t`'s role position among its job's roles with a minimum (-1: none).
int32_t RoleSlotOf(const TaskInfo& t, absl::Span<const JobInfo> jobs) {
  if (t.job == kNone) return -1;
  int32_t i = 0;
  for (const auto& [role, min] : jobs[static_cast<size_t>(t.job)].pod_group.min_task_member) {
    if (role == t.role) return i;
    ++i;
  }
  return -1;
}

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
  const bool pod_terms_only = placement_terms && pod.nominated_node_name.empty() &&
                              !pod.affinity.has_required_node_terms && pod.affinity.preferred_node_terms.empty();
  return static_cast<uint8_t>((pod.scheduling_gated ? kTaskGated : 0) | (t.best_effort ? kTaskBestEffort : 0) |
                              (t.role.empty() ? 0 : kTaskHasRole) | (shape_only ? kTaskShapeOnly : 0) |
                              (placement_terms ? kTaskPlacementTerms : 0) |
                              (internal::HasPodAffinityTerms(pod) ? kTaskPodAffinityTerms : 0) |
                              (node_selection ? kTaskNodeSelection : 0) | (pod_terms_only ? kTaskPodTermsOnly : 0));
}

DenseFacts DenseFacts::Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, size_t nodes, int dims) {
  std::vector<uint8_t> flags;
  flags.reserve(tasks.size());
  int64_t latest = 0;
  for (const TaskInfo& t : tasks) {
    flags.push_back(FlagsOf(t));
    latest = std::max(latest, t.pod->creation_time);
  }
  return Of(tasks, jobs, nodes, dims, std::move(flags), latest);
}

DenseFacts DenseFacts::Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, size_t nodes, int dims,
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
    if (t.shape >= 0 && static_cast<size_t>(t.shape) >= f.shape_first_task.size()) {
      f.shape_first_task.resize(static_cast<size_t>(t.shape) + 1, kNone);
    }
    if (t.shape >= 0 && f.shape_first_task[static_cast<size_t>(t.shape)] == kNone) {
      f.shape_first_task[static_cast<size_t>(t.shape)] = t.index;
    }
    f.task_nonzero_cpu.push_back(t.nonzero_cpu);
    f.task_nonzero_memory.push_back(t.nonzero_memory);
    f.task_key.push_back(t.key);
    f.task_role_slot.push_back(RoleSlotOf(t, jobs));
    std::copy_n(t.resreq.data(), dims, f.task_req.data() + static_cast<ptrdiff_t>(t.index) * dims);
    if (t.status != TaskStatus::kPending) f.placed_tasks.push_back(t.index);
    f.task_status.push_back(t.status);
    f.task_node.push_back(HoldsNode(t.status) ? t.node : kNone);
  }
  f.BoundRequests(f.task_req.data(), tasks.size() * static_cast<size_t>(dims));
  f.SumNodes(nodes, dims);
  f.FillJobFacts(jobs, dims);
  f.SizeOpening(jobs.size(), dims);
  for (size_t j = 0; j < jobs.size(); ++j) f.CountOpening(j, jobs[j], dims);
  f.task_keys_sorted = Ascending(f.task_key);
  return f;
}

DenseFacts DenseFacts::Patched(const DenseFacts& was, DenseFacts* own, absl::Span<const TaskRun> runs, absl::Span<const TaskIndex> moved,
                               absl::Span<const JobIndex> job_moved, absl::Span<const TaskInfo> tasks,
                               absl::Span<const TaskIndex> fresh, absl::Span<const JobInfo> jobs,
                               const std::vector<bool>& job_redone, const std::vector<bool>& job_affected, size_t nodes, int dims,
                               std::vector<uint8_t> task_flags, std::vector<int32_t> task_shape,
                               std::vector<TaskIndex> shape_first_task, int64_t latest_pod_creation_time) {
  DenseFacts f;
  const size_t n = tasks.size();
  // The nodes' sums without the base's tasks that went, read before their columns move.
  bool sums_exact = was.node_sums_exact && static_cast<size_t>(was.node_used.rows()) == nodes &&
                    was.node_used.cols() == dims && was.task_req.cols() == dims;
  if (sums_exact) {
    f.node_used = own != nullptr ? std::move(own->node_used) : was.node_used;
    f.node_releasing = own != nullptr ? std::move(own->node_releasing) : was.node_releasing;
    f.node_pipelined = own != nullptr ? std::move(own->node_pipelined) : was.node_pipelined;
    // The base's tasks that went are those between the runs (every carried task is in one).
    const auto take_out = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end && sums_exact; ++i) {
        if (was.task_node[i] == kNone) continue;
        sums_exact = f.CountOnNode(was.task_status[i], was.task_node[i], was.task_req.data() + i * static_cast<size_t>(dims), dims, -1);
      }
    };
    size_t carried_to = 0;
    for (const TaskRun& r : runs) {
      take_out(carried_to, static_cast<size_t>(r.old_begin));
      carried_to = static_cast<size_t>(r.old_end);
    }
    take_out(carried_to, moved.size());
  }
  f.task_flags = std::move(task_flags);
  f.task_shape = std::move(task_shape);
  f.shape_first_task = std::move(shape_first_task);
  f.latest_creation_time = latest_pod_creation_time;
  if (own != nullptr) {  // own == &was: only these columns are moved out, the rest is read
    f.task_job = std::move(own->task_job);
    f.task_nonzero_cpu = std::move(own->task_nonzero_cpu);
    f.task_nonzero_memory = std::move(own->task_nonzero_memory);
    f.task_req = std::move(own->task_req);
    f.task_role_slot = std::move(own->task_role_slot);
    f.task_status = std::move(own->task_status);
    f.task_node = std::move(own->task_node);
  } else {
    f.task_job = was.task_job;
    f.task_nonzero_cpu = was.task_nonzero_cpu;
    f.task_nonzero_memory = was.task_nonzero_memory;
    f.task_req = was.task_req;
    f.task_role_slot = was.task_role_slot;
    f.task_status = was.task_status;
    f.task_node = was.task_node;
  }
  ShiftRuns(f.task_job, runs, n);
  for (const TaskRun& r : job_moved.empty() ? absl::Span<const TaskRun>() : runs) {
    for (TaskIndex t = r.new_begin; t < r.new_begin + (r.old_end - r.old_begin); ++t) {
      JobIndex& j = f.task_job[static_cast<size_t>(t)];
      if (j != kNone) j = job_moved[static_cast<size_t>(j)];
    }
  }
  ShiftRuns(f.task_role_slot, runs, n);
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (!job_redone[j]) continue;
    for (TaskIndex t : jobs[j].tasks) f.task_role_slot[static_cast<size_t>(t)] = RoleSlotOf(tasks[static_cast<size_t>(t)], jobs);
  }
  ShiftRuns(f.task_status, runs, n);
  ShiftRuns(f.task_node, runs, n);
  ShiftRuns(f.task_nonzero_cpu, runs, n);
  ShiftRuns(f.task_nonzero_memory, runs, n);
  if (f.task_req.cols() == dims) {
    f.task_req_bound = was.task_req_bound;  // the gone tasks' requests may stay in it: a bound
    const Eigen::Index rows = f.task_req.rows();
    if (static_cast<Eigen::Index>(n) > rows) f.task_req.conservativeResize(static_cast<Eigen::Index>(n), dims);
    MoveRuns(f.task_req.data(), static_cast<size_t>(dims), runs);
    if (static_cast<Eigen::Index>(n) < rows) f.task_req.conservativeResize(static_cast<Eigen::Index>(n), dims);
  } else {  // a resource space of another width: every row from its task
    f.task_req.resize(static_cast<Eigen::Index>(n), dims);
    for (const TaskInfo& t : tasks) std::copy_n(t.resreq.data(), dims, f.task_req.data() + static_cast<ptrdiff_t>(t.index) * dims);
    f.BoundRequests(f.task_req.data(), n * static_cast<size_t>(dims));
  }
  for (TaskIndex j : fresh) {
    const TaskInfo& t = tasks[static_cast<size_t>(j)];
    f.task_job[static_cast<size_t>(j)] = t.job;
    f.task_nonzero_cpu[static_cast<size_t>(j)] = t.nonzero_cpu;
    f.task_nonzero_memory[static_cast<size_t>(j)] = t.nonzero_memory;
    f.task_role_slot[static_cast<size_t>(j)] = RoleSlotOf(t, jobs);
    std::copy_n(t.resreq.data(), dims, f.task_req.data() + static_cast<ptrdiff_t>(j) * dims);
    f.BoundRequests(t.resreq.data(), static_cast<size_t>(dims));
    f.task_status[static_cast<size_t>(j)] = t.status;
    f.task_node[static_cast<size_t>(j)] = HoldsNode(t.status) ? t.node : kNone;
    if (sums_exact && f.task_node[static_cast<size_t>(j)] != kNone) {
      sums_exact = f.CountOnNode(t.status, t.node, f.task_req.data() + static_cast<size_t>(j) * static_cast<size_t>(dims), dims, +1);
    }
  }
  f.node_sums_exact = sums_exact;
  if (!sums_exact) f.SumNodes(nodes, dims);
  // Placed tasks: the carried ones where they went, the new ones merged in order.
  f.placed_tasks.reserve(was.placed_tasks.size() + fresh.size());
  auto next = fresh.begin();
  const auto add_fresh_before = [&](TaskIndex limit) {
    for (; next != fresh.end() && *next < limit; ++next) {
      if (tasks[static_cast<size_t>(*next)].status != TaskStatus::kPending) f.placed_tasks.push_back(*next);
    }
  };
  for (TaskIndex i : was.placed_tasks) {
    const TaskIndex j = moved[static_cast<size_t>(i)];
    if (j == kNone) continue;
    add_fresh_before(j);
    f.placed_tasks.push_back(j);
  }
  add_fresh_before(static_cast<TaskIndex>(n));
  // Keys: the base's own rearranged where they lie; else each run's in one copy, the
  // new tasks' between them.
  const auto key_of = [&](size_t t) { return absl::string_view(tasks[t].key); };
  if (own != nullptr) {
    f.task_key = std::move(own->task_key);
    f.task_key.Rearrange(runs, n, key_of);
  } else {
    f.task_key.reserve(n);
    size_t text = was.task_key.text_size();
    for (TaskIndex t : fresh) text += tasks[static_cast<size_t>(t)].key.size();
    f.task_key.reserve_text(text);
    size_t j = 0;
    for (const TaskRun& r : runs) {
      for (; j < static_cast<size_t>(r.new_begin); ++j) f.task_key.push_back(key_of(j));
      f.task_key.append_range(was.task_key, static_cast<size_t>(r.old_begin), static_cast<size_t>(r.old_end));
      j = static_cast<size_t>(r.new_begin + (r.old_end - r.old_begin));
    }
    for (; j < n; ++j) f.task_key.push_back(key_of(j));
  }
  f.FillJobFacts(jobs, dims);
  // Opening facts: a job whose tasks and record stayed keeps its base job's.
  std::vector<JobIndex> from_job(jobs.size(), kNone);  // the base's index of each job
  for (size_t o = 0; o < was.job_opening_counts.size(); ++o) {
    const JobIndex to = job_moved.empty() ? static_cast<JobIndex>(o) : job_moved[o];
    if (to != kNone && static_cast<size_t>(to) < jobs.size()) from_job[static_cast<size_t>(to)] = static_cast<JobIndex>(o);
  }
  f.SizeOpening(jobs.size(), dims);
  const bool same_width = was.job_opening_allocated.cols() == dims;
  for (size_t k = 0; k < jobs.size(); ++k) {
    const JobIndex o = from_job[k];
    if (o == kNone || job_redone[k] || job_affected[k] || !same_width) {
      f.CountOpening(k, jobs[k], dims);
      continue;
    }
    const auto at = static_cast<size_t>(o);
    f.job_opening_counts[k] = was.job_opening_counts[at];
    std::copy_n(was.job_opening_allocated.data() + at * static_cast<size_t>(dims), dims,
                f.job_opening_allocated.data() + k * static_cast<size_t>(dims));
    f.job_opening_best_effort_pending[k] = was.job_opening_best_effort_pending[at];
    f.job_opening_roles[k] = was.job_opening_roles[at];
  }
  // Removing keys keeps them in order; a new key must sort between its neighbours.
  f.task_keys_sorted = was.task_keys_sorted;
  for (TaskIndex t : fresh) {
    const size_t k = static_cast<size_t>(t);
    if (!f.task_keys_sorted) break;
    if ((k > 0 && !(f.task_key[k - 1] < f.task_key[k])) || (k + 1 < n && !(f.task_key[k] < f.task_key[k + 1]))) {
      f.task_keys_sorted = false;
    }
  }
  if (!was.task_keys_sorted) f.task_keys_sorted = Ascending(f.task_key);
  return f;
}

bool DenseFacts::CountOnNode(TaskStatus st, NodeIndex n, const int64_t* req, int dims, int sign) {
  const auto add = [&](ResourceMatrix& m) {
    int64_t* row = m.data() + static_cast<size_t>(n) * static_cast<size_t>(dims);
    bool exact = true;
    for (int d = 0; d < dims; ++d) {
      // Below the limit and with no negative request, no partial sum saturates: taking a
      // request out again gives what summing the rest would.
      exact = exact && req[d] >= 0 && req[d] < kExactSumLimit;
      row[d] = sign > 0 ? SaturatingAdd(row[d], req[d]) : SaturatingSub(row[d], req[d]);
      exact = exact && row[d] >= 0 && row[d] < kExactSumLimit;
    }
    return exact;
  };
  if (st == TaskStatus::kPipelined) return add(node_pipelined);
  const bool used = add(node_used);
  return (st != TaskStatus::kReleasing || add(node_releasing)) && used;
}

void DenseFacts::BoundRequests(const int64_t* req, size_t count) {
  int64_t bound = task_req_bound;
  for (size_t i = 0; i < count; ++i) {
    const int64_t v = req[i];
    bound = std::max(bound, v >= 0 ? v : (v == INT64_MIN ? INT64_MAX : -v));
  }
  task_req_bound = bound;
}

void DenseFacts::SumNodes(size_t nodes, int dims) {
  const auto rows = static_cast<Eigen::Index>(nodes);
  node_used = ResourceMatrix::Zero(rows, dims);
  node_releasing = ResourceMatrix::Zero(rows, dims);
  node_pipelined = ResourceMatrix::Zero(rows, dims);
  node_sums_exact = true;
  for (size_t t = 0; t < task_node.size(); ++t) {
    if (task_node[t] == kNone) continue;
    node_sums_exact = CountOnNode(task_status[t], task_node[t], task_req.data() + t * static_cast<size_t>(dims), dims, +1) &&
                      node_sums_exact;
  }
}

void DenseFacts::SizeOpening(size_t jobs, int dims) {
  job_opening_counts.assign(jobs, {});
  job_opening_allocated = ResourceMatrix::Zero(static_cast<Eigen::Index>(jobs), dims);
  job_opening_best_effort_pending.assign(jobs, 0);
  job_opening_roles.assign(jobs, static_cast<uint8_t>(kAllRoleChecks));
}

void DenseFacts::CountOpening(size_t j, const JobInfo& job, int dims) {
  std::array<int32_t, kTaskStatusCount>& counts = job_opening_counts[j];
  counts = {};
  int64_t* allocated = job_opening_allocated.data() + j * static_cast<size_t>(dims);
  std::fill_n(allocated, dims, 0);
  int32_t best_effort_pending = 0;
  const auto begin = static_cast<size_t>(job_task_begin[j]), end = static_cast<size_t>(job_task_begin[j + 1]);
  const absl::Span<const TaskIndex> job_tasks = absl::MakeConstSpan(job_task_list).subspan(begin, end - begin);
  for (const TaskIndex t : job_tasks) {
    const TaskStatus st = task_status[static_cast<size_t>(t)];
    ++counts[static_cast<size_t>(st)];
    if (IsAllocatedStatus(st)) {
      const int64_t* req = task_req.data() + static_cast<size_t>(t) * static_cast<size_t>(dims);
      for (int d = 0; d < dims; ++d) allocated[d] = SaturatingAdd(allocated[d], req[d]);
    }
    best_effort_pending += st == TaskStatus::kPending && (task_flags[static_cast<size_t>(t)] & kTaskBestEffort);
  }
  job_opening_best_effort_pending[j] = best_effort_pending;
  if (job_checks_roles[j]) {
    job_opening_roles[j] = static_cast<uint8_t>(RoleAnswers(job.pod_group.min_task_member, job_tasks, task_role_slot,
                                                            task_flags, [&](TaskIndex t) { return task_status[static_cast<size_t>(t)]; }));
  }
}

void DenseFacts::FillJobFacts(absl::Span<const JobInfo> jobs, int dims) {
  DenseFacts& f = *this;
  f.job_min_resources.resize(static_cast<Eigen::Index>(jobs.size()), dims);
  // Keys view the jobs' own text (phase_names may move its strings as it grows).
  absl::flat_hash_map<absl::string_view, int32_t> phase_at;
  // Each column sized once (a patch lays them all out again).
  size_t key_text = 0, task_count = 0;
  for (const JobInfo& j : jobs) {
    key_text += j.key.size();
    task_count += j.tasks.size();
  }
  f.job_key.reserve(jobs.size());
  f.job_key.reserve_text(key_text);
  f.job_task_list.reserve(task_count);
  f.job_task_begin.reserve(jobs.size() + 1);
  for (auto* column : {&f.job_min_member, &f.job_priority, &f.job_phase}) column->reserve(jobs.size());
  for (auto* column : {&f.job_has_min_resources, &f.job_checks_roles}) column->reserve(jobs.size());
  f.job_queue.reserve(jobs.size());
  f.job_creation_time.reserve(jobs.size());
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
    const absl::string_view phase = j.pod_group.phase.empty() ? absl::string_view("Pending") : j.pod_group.phase;
    auto [named, added] = phase_at.try_emplace(phase, static_cast<int32_t>(f.phase_names.size()));
    if (added) f.phase_names.emplace_back(phase);
    f.job_phase.push_back(named->second);
  }
  f.job_task_begin.push_back(static_cast<int32_t>(f.job_task_list.size()));
  f.job_keys_sorted = Ascending(f.job_key);
}

}  // namespace vcsched
