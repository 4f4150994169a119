#include "tests/testing/snapshot_compare.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/snapshot/snapshot_impl.h"

namespace vcsched::testing {
namespace {

std::string TaskLine(const Snapshot& s, const TaskInfo& t) {
  const PodSpec& p = *t.pod;
  return absl::StrCat(t.index, " ", t.key, " uid=", t.uid, " status=", TaskStatusName(t.status), " node=", t.node,
                      " job=", t.job, " priority=", t.priority, " best_effort=", t.best_effort,
                      " preemptable=", t.preemptable, " shape=", t.shape, " req=", t.resreq.ToString(s.space()),
                      " nonzero=", t.nonzero_cpu, "/", t.nonzero_memory, " role=", t.role, " pod_index=", t.pod_index,
                      " sub_job=", t.sub_job, " pod=", p.namespace_, "/", p.name, " ", p.phase, " ", p.node_name, " ",
                      p.nominated_node_name, " deleting=", p.deleting,
                      " ns_labels=", p.namespace_labels == nullptr ? -1 : static_cast<int>(p.namespace_labels->size()));
}

std::string JobLine(const JobInfo& j) {
  std::string subs;
  for (const SubJobInfo& sub : j.sub_jobs) {
    absl::StrAppend(&subs, "[", sub.id, " policy=", sub.policy, " min=", sub.min_available, " tasks=",
                    absl::StrJoin(sub.tasks, ","), "]");
  }
  const PodGroupSpec& g = j.pod_group;
  std::string conditions;
  for (const PodGroupConditionSpec& c : g.conditions) absl::StrAppend(&conditions, c.type, "=", c.status, "/", c.reason, ";");
  return absl::StrCat(j.index, " ", j.key, " queue=", j.queue, " priority=", j.priority, " preemptable=", j.preemptable,
                      " tasks=", absl::StrJoin(j.tasks, ","), " subs=", subs, " phase=", g.phase, " counts=", g.running,
                      "/", g.succeeded, "/", g.failed, " conditions=", conditions, " min_member=", g.min_member,
                      " task_min_total=", j.task_min_available_total);
}

}  // namespace

std::string SnapshotDifference(const Snapshot& a, const Snapshot& b) {
  if (a.dims() != b.dims()) return absl::StrCat("dims: ", a.dims(), " against ", b.dims());
  for (int d = 0; d < a.dims(); ++d) {
    if (a.space().name(d) != b.space().name(d)) return absl::StrCat("resource ", d, ": ", a.space().name(d), " against ", b.space().name(d));
  }
  const auto compare = [](const char* what, size_t count_a, size_t count_b, auto line_a, auto line_b) -> std::string {
    if (count_a != count_b) return absl::StrCat(what, ": ", count_a, " against ", count_b);
    for (size_t i = 0; i < count_a; ++i) {
      const std::string x = line_a(i), y = line_b(i);
      if (x != y) return absl::StrCat(what, " ", i, ":\n  ", x, "\n  ", y);
    }
    return "";
  };
  std::string diff = compare(
      "node", a.nodes().size(), b.nodes().size(),
      [&](size_t i) { return absl::StrCat(a.nodes()[i].spec.name, " ", a.nodes()[i].allocatable.ToString(a.space())); },
      [&](size_t i) { return absl::StrCat(b.nodes()[i].spec.name, " ", b.nodes()[i].allocatable.ToString(b.space())); });
  if (diff.empty()) {
    diff = compare("task", a.tasks().size(), b.tasks().size(), [&](size_t i) { return TaskLine(a, a.tasks()[i]); },
                   [&](size_t i) { return TaskLine(b, b.tasks()[i]); });
  }
  if (diff.empty()) {
    diff = compare("job", a.jobs().size(), b.jobs().size(), [&](size_t i) { return JobLine(a.jobs()[i]); },
                   [&](size_t i) { return JobLine(b.jobs()[i]); });
  }
  if (diff.empty()) {
    diff = compare("queue", a.queues().size(), b.queues().size(),
                   [&](size_t i) { return absl::StrCat(a.queues()[i].spec.name, " parent=", a.queues()[i].parent); },
                   [&](size_t i) { return absl::StrCat(b.queues()[i].spec.name, " parent=", b.queues()[i].parent); });
  }
  if (diff.empty()) {
    diff = compare("warning", a.warnings().size(), b.warnings().size(), [&](size_t i) { return a.warnings()[i]; },
                   [&](size_t i) { return b.warnings()[i]; });
  }
  if (diff.empty()) {
    // The shape columns a patch may keep or number again: as a build numbers them.
    const auto shapes = [](const Snapshot& s) {
      const Snapshot::Impl& impl = SnapshotInternals::Of(s);
      return absl::StrCat("shapes=", absl::StrJoin(impl.dense.task_shape, ","), " flags=",
                          absl::StrJoin(impl.dense.task_flags, ",", [](std::string* out, uint8_t f) { absl::StrAppend(out, f); }),
                          " firsts=", absl::StrJoin(impl.dense.shape_first_task, ","), " keys=", absl::StrJoin(impl.shape_keys, "|"));
    };
    if (shapes(a) != shapes(b)) return absl::StrCat("dense shapes:\n  ", shapes(a), "\n  ", shapes(b));
  }
  if (diff.empty()) {
    for (const TaskInfo& t : a.tasks()) {
      if (a.FindTask(t.key) != b.FindTask(t.key)) return absl::StrCat("FindTask(", t.key, ") differs");
    }
    for (const JobInfo& j : a.jobs()) {
      if (a.FindJob(j.key) != b.FindJob(j.key)) return absl::StrCat("FindJob(", j.key, ") differs: ", a.FindJob(j.key).value_or(-9), " against ", b.FindJob(j.key).value_or(-9), " of ", a.jobs().size());
    }
  }
  return diff;
}

}  // namespace vcsched::testing
