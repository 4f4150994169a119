// PatchSnapshot's job table: PodGroups that came, went or changed, and each job's tasks
// and sub-groups once the task table is made.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/snapshot/hyper_node_tree.h"
#include "src/snapshot/object_lint.h"
#include "src/snapshot/snapshot_patch.h"
#include "src/snapshot/task_facts.h"

namespace vcsched::internal {

// Sorts the PodGroup changes and finds each one's job in the base; lists the pods whose
// PodGroup comes or goes (their tasks are worked out again). False when a PodGroup is
// one a build refuses, or names a resource the snapshot lacks.
bool SnapshotPatch::AdmitGroups(const SnapshotChanges& changes, std::vector<Change>& regrouped) {
  for (const std::string& key : changes.deleted_pod_groups) {
    const size_t slash = key.find('/');
    std::optional<JobIndex> j = base_.FindJob(key);
    if (slash == std::string::npos || !j) continue;  // no such PodGroup: no change
    groups_.push_back({key, slash, *j, nullptr});
  }
  for (const PodGroupSpec& g : changes.put_pod_groups) {
    if (!ObjectProblems(g).empty()) return false;
    if (g.min_resources && !CountResources(*g.min_resources, +1)) return false;
    std::string key = absl::StrCat(g.namespace_, "/", g.name);
    const JobIndex old = base_.FindJob(key).value_or(kNone);
    groups_.push_back({std::move(key), g.namespace_.size(), old, &g});
  }
  std::sort(groups_.begin(), groups_.end(),
            [](const GroupChange& a, const GroupChange& b) { return KeyBefore(a.ns(), a.name(), b.ns(), b.name()); });
  for (size_t i = 1; i < groups_.size(); ++i) {
    if (groups_[i].key == groups_[i - 1].key) return false;
  }
  const auto regroup = [&](TaskIndex t) {
    const TaskInfo& task = was_.tasks[static_cast<size_t>(t)];
    regrouped.push_back({task.key, task.pod->namespace_.size(), kNone, nullptr, task.pod});
  };
  for (const GroupChange& g : groups_) {
    if (g.old_job != kNone) {
      const JobInfo& job = was_.jobs[static_cast<size_t>(g.old_job)];
      if (job.pod_group.min_resources) CountResources(*job.pod_group.min_resources, -1);
      if (g.now == nullptr) {
        for (TaskIndex t : job.tasks) regroup(t);  // now without a PodGroup
      }
    } else {
      // Tasks that named this PodGroup while it was missing join it.
      const auto first = std::lower_bound(was_.orphans.begin(), was_.orphans.end(), std::make_pair(g.key, std::string()));
      for (auto it = first; it != was_.orphans.end() && it->first == g.key; ++it) {
        if (std::optional<TaskIndex> t = base_.FindTask(it->second)) regroup(*t);
      }
    }
  }
  return true;
}

// The new job table: the base's jobs in key order, PodGroups that went left out, new and
// changed ones worked out (with their warnings; the old ones' are dropped). job_moved_
// maps the base's jobs to their new indices when any moved.
void SnapshotPatch::MakeJobTable() {
  std::vector<JobInfo>& out = next_->jobs;
  const std::vector<JobInfo>& old = *old_jobs_;
  if (groups_.empty()) {
    job_redone_.assign(old.size(), false);
    if (in_place_) out = std::move(own_jobs_);
    else out = old;
    return;
  }
  const std::optional<int32_t> global_default = GlobalDefaultPriority(next_->priority_classes);
  const auto facts_of = [&](const GroupChange& g) {
    JobInfo job = WorkOutJobFacts(*g.now, *next_, global_default.value_or(0), new_warnings_);
    LintPodGroupAlone(*g.now, next_->pc_by_name.count(g.now->priority_class_name) > 0, global_default.has_value(),
                      new_warnings_);
    return job;
  };
  for (const GroupChange& change : groups_) {
    if (change.old_job != kNone) dropped_prefixes_.push_back(absl::StrCat("PodGroup \"", change.key, "\": "));
  }
  // PodGroups that only changed (a status written back, say): every job keeps its index,
  // and only the changed records are worked out again.
  const bool updates_only = std::all_of(groups_.begin(), groups_.end(),
                                        [](const GroupChange& g) { return g.old_job != kNone && g.now != nullptr; });
  if (updates_only) {
    job_redone_.assign(old.size(), false);
    if (in_place_) out = std::move(own_jobs_);
    else out = old;
    for (const GroupChange& g : groups_) {
      const auto j = static_cast<size_t>(g.old_job);
      std::vector<TaskIndex> tasks = std::move(out[j].tasks);  // the base's: MakeJobs moves them
      out[j] = facts_of(g);
      out[j].tasks = std::move(tasks);
      out[j].index = g.old_job;
      job_redone_[j] = true;
      affected_jobs_.push_back(g.old_job);  // its sub-groups are made anew
    }
    return;
  }
  // Where each change goes among the base's jobs (both are in key order), found by
  // search; the base's jobs between changes are carried as runs, which move only when
  // the changes before them added and removed different numbers of jobs.
  job_moved_.assign(old.size(), kNone);
  std::vector<TaskRun> runs;  // of jobs
  std::vector<std::pair<JobIndex, const GroupChange*>> made;  // a record worked out, at its new index
  size_t i = 0;
  JobIndex next = 0;
  const auto carry_until = [&](size_t end) {
    if (end <= i) return;
    runs.push_back({static_cast<JobIndex>(i), static_cast<JobIndex>(end), next});
    for (; i < end; ++i) job_moved_[i] = next++;
  };
  for (const GroupChange& g : groups_) {
    if (g.old_job != kNone) {  // changed or gone: the base's job at its index
      carry_until(static_cast<size_t>(g.old_job));
      if (g.now != nullptr) {
        job_moved_[i] = next;
        made.emplace_back(next++, &g);
      }
      ++i;
      continue;
    }
    const auto at = std::lower_bound(old.begin() + static_cast<ptrdiff_t>(i), old.end(), g, [](const JobInfo& j, const GroupChange& c) {
      return KeyBefore(j.pod_group.namespace_, j.pod_group.name, c.ns(), c.name());
    });
    carry_until(static_cast<size_t>(at - old.begin()));
    made.emplace_back(next++, &g);
  }
  carry_until(old.size());
  // A changed PodGroup's record keeps the base's task list (MakeJobs moves it): taken
  // before the runs move over it.
  std::vector<std::vector<TaskIndex>> kept_tasks(made.size());
  for (size_t k = 0; k < made.size(); ++k) {
    const JobIndex was = made[k].second->old_job;
    if (was == kNone) continue;
    kept_tasks[k] = in_place_ ? std::move(own_jobs_[static_cast<size_t>(was)].tasks) : old[static_cast<size_t>(was)].tasks;
  }
  const auto total = static_cast<size_t>(next);
  if (in_place_) {
    std::vector<JobInfo>& v = own_jobs_;
    if (total > v.size()) v.resize(total);
    MoveRunsInPlace(v, runs);
    v.resize(total);
    out = std::move(v);
  } else {
    out.resize(total);
    for (const TaskRun& r : runs) {
      for (JobIndex j = r.old_begin; j < r.old_end; ++j) {
        JobInfo& to = out[static_cast<size_t>(r.new_begin + (j - r.old_begin))];
        to = old[static_cast<size_t>(j)];
        to.index = r.new_begin + (j - r.old_begin);
      }
    }
  }
  job_redone_.assign(total, false);
  for (size_t k = 0; k < made.size(); ++k) {
    const auto [at, g] = made[k];
    JobInfo& job = out[static_cast<size_t>(at)];
    job = facts_of(*g);
    job.tasks = std::move(kept_tasks[k]);
    job.index = at;
    job_redone_[static_cast<size_t>(at)] = true;
    affected_jobs_.push_back(at);  // its sub-groups are made anew
  }
}

// Each job's tasks listed again (from the layout, not the records); the sub-groups of
// jobs that lost or gained a task, or were worked out again, are made anew, the others'
// renumbered.
void SnapshotPatch::MakeJobs() {
  next_->tasks = std::move(tasks_);  // sub-groups read them
  std::vector<TaskInfo>& tasks = next_->tasks;
  std::vector<JobInfo>& jobs = next_->jobs;
  // Every record still lists its base tasks (a new PodGroup's, none): each kept one goes
  // where it moved. The order stays ascending, as the layout keeps the base's order.
  for (JobInfo& j : jobs) {
    size_t kept = 0;
    for (const TaskIndex t : j.tasks) {
      const TaskIndex to = moved_[static_cast<size_t>(t)];
      if (to != kNone) j.tasks[kept++] = to;
    }
    j.tasks.resize(kept);
  }
  // The new tasks join their jobs: appended (fresh_ ascends), then merged with the kept.
  std::vector<int32_t> kept_of(jobs.size(), -1);
  std::vector<JobIndex> joined;
  for (const TaskIndex f : fresh_) {
    const JobIndex j = tasks[static_cast<size_t>(f)].job;
    if (j == kNone) continue;
    std::vector<TaskIndex>& list = jobs[static_cast<size_t>(j)].tasks;
    if (kept_of[static_cast<size_t>(j)] < 0) {
      kept_of[static_cast<size_t>(j)] = static_cast<int32_t>(list.size());
      joined.push_back(j);
    }
    list.push_back(f);
  }
  for (const JobIndex j : joined) {
    std::vector<TaskIndex>& list = jobs[static_cast<size_t>(j)].tasks;
    std::inplace_merge(list.begin(), list.begin() + kept_of[static_cast<size_t>(j)], list.end());
  }
  std::vector<bool>& affected = job_affected_;
  affected.assign(jobs.size(), false);
  for (JobIndex j : affected_jobs_) {
    if (j != kNone) affected[static_cast<size_t>(j)] = true;
  }
  // A carried job whose tasks were all in its one default sub-group keeps it, with the
  // new task list; its carried tasks' sub-group (0) stands, its new ones get it below.
  std::vector<bool> one_group(jobs.size(), false);
  for (JobInfo& j : jobs) {
    const size_t at = static_cast<size_t>(j.index);
    if (!affected[at] && j.pod_group.sub_group_policy.empty() && j.sub_jobs.size() == 1) {
      j.sub_jobs[0].tasks = j.tasks;  // its one sub-group holds every task: written, not read
    } else if (!affected[at]) {
      for (SubJobInfo& sub : j.sub_jobs) {
        for (TaskIndex& t : sub.tasks) t = moved_[static_cast<size_t>(t)];
      }
    } else if (!job_redone_[at] && j.pod_group.sub_group_policy.empty() && j.sub_jobs.size() == 1) {
      one_group[at] = true;
      if (j.tasks.empty()) j.sub_jobs.clear();
      else j.sub_jobs[0].tasks = j.tasks;
    } else {
      BuildSubJobsOf(*next_, j);
    }
  }
  for (TaskIndex f : fresh_) {
    TaskInfo& t = tasks[static_cast<size_t>(f)];
    if (t.job != kNone && one_group[static_cast<size_t>(t.job)]) t.sub_job = 0;
  }
}

}  // namespace vcsched::internal
