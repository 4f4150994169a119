#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/snapshot/snapshot_impl.h"
#include "src/snapshot/snapshot_patch.h"
#include "tests/testing/builders.h"
#include "vcsched/session.h"
#include "vcsched/snapshot.h"

namespace vcsched {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;

// A snapshot whose pods cover each flag, placed and pending tasks, and namespaces whose
// keys ("a-b/..." before "a/...") sort apart from the index order ("a" before "a-b").
Snapshot Mixed() {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
  b.AddPodGroup(MakePodGroup("a/g", 2));
  b.AddPodGroup(MakePodGroup("a-b/h", 1));
  PodSpec selected = MakePod("a/g-0", "g", "cpu=1");
  selected.node_selector["zone"] = "z1";
  selected.creation_time = 50;
  b.AddPod(selected);
  PodSpec anti = MakePod("a/g-1", "g", "cpu=1");
  anti.affinity.required_pod_anti_affinity.push_back({});
  anti.affinity.required_pod_anti_affinity.back().topology_key = "zone";
  b.AddPod(anti);
  PodSpec gated = MakePod("a-b/h-0", "h", "");
  gated.scheduling_gated = true;
  gated.annotations["volcano.sh/task-spec"] = "worker";
  gated.creation_time = 70;
  b.AddPod(gated);
  b.AddPod(MakePod("a-b/h-1", "h", "cpu=2", "n1", "Running"));
  return *std::move(b).Build();
}

TEST_CASE("DenseFacts: every fact agrees with the task and job records", "[core][dense]") {
  const Snapshot snap = Mixed();
  const DenseFacts& f = SnapshotInternals::Of(snap).dense;
  int64_t latest = 0;
  for (const TaskInfo& t : snap.tasks()) {
    const size_t i = static_cast<size_t>(t.index);
    CAPTURE(t.key);
    latest = std::max(latest, t.pod->creation_time);
    CHECK(f.task_job[i] == t.job);
    CHECK(f.task_shape[i] == t.shape);
    CHECK(f.task_key[i] == t.key);
    for (int d = 0; d < snap.dims(); ++d) CHECK(f.task_req(t.index, d) == t.resreq[d]);
    const uint8_t flags = f.task_flags[i];
    CHECK(((flags & kTaskGated) != 0) == t.pod->scheduling_gated);
    CHECK(((flags & kTaskBestEffort) != 0) == t.best_effort);
    CHECK(((flags & kTaskHasRole) != 0) == !t.role.empty());
    CHECK(((flags & kTaskNodeSelection) != 0) == !t.pod->node_selector.empty());
    CHECK(((flags & kTaskPodAffinityTerms) != 0) == !t.pod->affinity.required_pod_anti_affinity.empty());
    CHECK(((flags & kTaskPlacementTerms) != 0) == !t.pod->affinity.required_pod_anti_affinity.empty());
    CHECK(((flags & kTaskShapeOnly) != 0) == t.pod->affinity.required_pod_anti_affinity.empty());
    const bool placed = std::find(f.placed_tasks.begin(), f.placed_tasks.end(), t.index) != f.placed_tasks.end();
    CHECK(placed == (t.status != TaskStatus::kPending));
  }
  for (const JobInfo& j : snap.jobs()) {
    const size_t i = static_cast<size_t>(j.index);
    CAPTURE(j.key);
    latest = std::max(latest, j.pod_group.creation_time);
    CHECK(f.job_queue[i] == j.queue);
    CHECK(f.job_key[i] == j.key);
    CHECK(f.job_min_member[i] == j.pod_group.min_member);
    const std::vector<TaskIndex> listed(f.job_task_list.begin() + f.job_task_begin[i],
                                        f.job_task_list.begin() + f.job_task_begin[i + 1]);
    CHECK(listed == j.tasks);
    CHECK(f.PhaseOf(i) == (j.pod_group.phase.empty() ? "Pending" : j.pod_group.phase));
    std::array<int32_t, kTaskStatusCount> counts{};
    std::vector<int64_t> allocated(static_cast<size_t>(snap.dims()), 0);
    for (TaskIndex t : j.tasks) {
      const TaskInfo& task = snap.tasks()[static_cast<size_t>(t)];
      ++counts[static_cast<size_t>(task.status)];
      if (!IsAllocatedStatus(task.status)) continue;
      for (int d = 0; d < snap.dims(); ++d) allocated[static_cast<size_t>(d)] += task.resreq[d];
    }
    CHECK(f.job_opening_counts[i] == counts);
    for (int d = 0; d < snap.dims(); ++d) CHECK(f.job_opening_allocated(j.index, d) == allocated[static_cast<size_t>(d)]);
  }
  CHECK(f.latest_creation_time == latest);
  // The builder works the spec-derived facts out in its task loop; laid out from the
  // records alone they are the same.
  const DenseFacts again = DenseFacts::Of(snap.tasks(), snap.jobs(), snap.nodes().size(), snap.space().size());
  CHECK(again.task_flags == f.task_flags);
  CHECK(again.latest_creation_time == f.latest_creation_time);
  CHECK(f.placed_tasks.size() == 1);
  // Index order is (namespace, name): "a" before "a-b"; key order puts "a-b/" first.
  CHECK_FALSE(f.task_keys_sorted);
  CHECK_FALSE(f.job_keys_sorted);
}

TEST_CASE("DenseFacts: keys in index order are recognised as sorted", "[core][dense]") {
  SnapshotBuilder b;
  b.AddPodGroup(MakePodGroup("ns/g", 1));
  b.AddPod(MakePod("ns/g-0", "g", "cpu=1"));
  b.AddPod(MakePod("ns/g-1", "g", "cpu=1"));
  const Snapshot snap = *std::move(b).Build();
  CHECK(SnapshotInternals::Of(snap).dense.task_keys_sorted);
  CHECK(SnapshotInternals::Of(snap).dense.job_keys_sorted);
}

TEST_CASE("PackedStrings: a run appended from another list reads back alike", "[core][dense]") {
  PackedStrings a, b;
  for (const char* s : {"x", "", "yz", "abc"}) a.push_back(s);
  b.push_back("first");
  b.append_range(a, 1, 4);
  b.append_range(a, 0, 0);  // empty: nothing
  b.push_back("last");
  REQUIRE(b.size() == 5);
  CHECK(b[0] == "first");
  CHECK(b[1] == "");
  CHECK(b[2] == "yz");
  CHECK(b[3] == "abc");
  CHECK(b[4] == "last");
}

TEST_CASE("PackedStrings: rearranged in place, a list reads as one built afresh", "[core][dense]") {
  std::mt19937 random(7);
  const auto text = [&](size_t most) {
    std::string s(random() % (most + 1), 'a');
    for (char& c : s) c = static_cast<char>('a' + random() % 26);
    return s;
  };
  for (int round = 0; round < 500; ++round) {
    CAPTURE(round);
    // A base of strings (some empty, some long), then each kept, dropped or preceded by
    // new ones, as a patch lays tasks out.
    const size_t count = random() % 40;
    std::vector<std::string> base;
    PackedStrings packed;
    for (size_t i = 0; i < count; ++i) {
      base.push_back(text(round % 3 == 0 ? 40 : 6));
      packed.push_back(base.back());
    }
    std::vector<TaskRun> runs;
    std::vector<std::string> now;  // the new list; fresh[i] says whether now[i] is new
    std::vector<bool> fresh;
    for (size_t i = 0; i <= count; ++i) {
      while (random() % 4 == 0) {
        now.push_back(text(round % 2 == 0 ? 30 : 3));
        fresh.push_back(true);
      }
      if (i == count || random() % 3 == 0) continue;  // dropped
      const auto old_index = static_cast<TaskIndex>(i), new_index = static_cast<TaskIndex>(now.size());
      if (!runs.empty() && runs.back().old_end == old_index && !fresh.back()) {
        ++runs.back().old_end;
      } else {
        runs.push_back({old_index, static_cast<TaskIndex>(old_index + 1), new_index});
      }
      now.push_back(base[i]);
      fresh.push_back(false);
    }
    packed.Rearrange(runs, now.size(), [&](size_t i) {
      REQUIRE(fresh[i]);  // asked only for the new places
      return absl::string_view(now[i]);
    });
    REQUIRE(packed.size() == now.size());
    for (size_t i = 0; i < now.size(); ++i) CHECK(packed[i] == now[i]);
  }
}

// The dense facts as text, to compare a patched snapshot's with a build's.
std::string FactsText(const DenseFacts& f) {
  std::string out = absl::StrCat("latest=", f.latest_creation_time, " sorted=", f.task_keys_sorted, f.job_keys_sorted, "\n");
  for (size_t t = 0; t < f.task_flags.size(); ++t) {
    absl::StrAppend(&out, f.task_key[t], " flags=", f.task_flags[t], " job=", f.task_job[t], " role=", f.task_role_slot[t],
                    " shape=", f.task_shape[t],
                    " nz=", f.task_nonzero_cpu[t], "/", f.task_nonzero_memory[t], " req=");
    for (Eigen::Index d = 0; d < f.task_req.cols(); ++d) absl::StrAppend(&out, f.task_req(static_cast<Eigen::Index>(t), d), ",");
    out += "\n";
  }
  absl::StrAppend(&out, "shape firsts=", absl::StrJoin(f.shape_first_task, ","), "\n");
  absl::StrAppend(&out, "placed=", absl::StrJoin(f.placed_tasks, ","), " list=", absl::StrJoin(f.job_task_list, ","),
                  " begins=", absl::StrJoin(f.job_task_begin, ","),
                  " queue=", absl::StrJoin(f.job_queue, ","), " phase=");
  for (size_t j = 0; j < f.job_phase.size(); ++j) absl::StrAppend(&out, f.PhaseOf(j), ",");
  out += "\n";
  // What sessions start from: statuses and nodes shifted with the tasks, node sums
  // taken out and put in, job facts counted again for changed jobs, carried for the rest.
  for (size_t t = 0; t < f.task_status.size(); ++t) {
    absl::StrAppend(&out, "start ", t, " status=", static_cast<int>(f.task_status[t]), " node=", f.task_node[t], "\n");
  }
  absl::StrAppend(&out, "node sums exact=", f.node_sums_exact, "\n");
  for (Eigen::Index n = 0; n < f.node_used.rows(); ++n) {
    for (Eigen::Index d = 0; d < f.node_used.cols(); ++d) {
      absl::StrAppend(&out, f.node_used(n, d), "/", f.node_releasing(n, d), "/", f.node_pipelined(n, d), ",");
    }
    out += "\n";
  }
  for (size_t j = 0; j < f.job_opening_counts.size(); ++j) {
    absl::StrAppend(&out, "opening ", j, " counts=", absl::StrJoin(f.job_opening_counts[j], ","), " allocated=");
    for (Eigen::Index d = 0; d < f.job_opening_allocated.cols(); ++d) {
      absl::StrAppend(&out, f.job_opening_allocated(static_cast<Eigen::Index>(j), d), ",");
    }
    absl::StrAppend(&out, " best_effort_pending=", f.job_opening_best_effort_pending[j], " roles=", f.job_opening_roles[j], "\n");
  }
  for (size_t j = 0; j < f.job_key.size(); ++j) {
    absl::StrAppend(&out, f.job_key[j], " min=", f.job_min_member[j], " roles=", f.job_checks_roles[j],
                    " priority=", f.job_priority[j], " created=", f.job_creation_time[j],
                    " has_min=", f.job_has_min_resources[j], " min_resources=");
    for (Eigen::Index d = 0; d < f.job_min_resources.cols(); ++d) {
      absl::StrAppend(&out, f.job_min_resources(static_cast<Eigen::Index>(j), d), ",");
    }
    out += ";";
  }
  return out;
}

TEST_CASE("DenseFacts: a patched snapshot's facts are a build's", "[core][dense]") {
  const Snapshot base = Mixed();
  // Changes that shift indices both ways, with keys out of byte order ("a-b/..." before "a/...").
  SnapshotChanges changes;
  changes.deleted_pods = {"a/g-0"};
  changes.put_pods.push_back(std::make_shared<PodSpec>(MakePod("a-b/h-2", "h", "cpu=3", "n1", "Running")));
  changes.put_pods.push_back(std::make_shared<PodSpec>(MakePod("a/g-2", "g", "")));
  PodSpec worker = MakePod("a/g-3", "g", "cpu=1");
  worker.annotations["volcano.sh/task-spec"] = "worker";
  changes.put_pods.push_back(std::make_shared<PodSpec>(worker));
  // g's PodGroup now has per-role minimums (its carried tasks' roles are found again);
  // h's keeps its own.
  PodGroupSpec phase = MakePodGroup("a/g", 2);
  phase.phase = "Inqueue";
  phase.min_task_member = {{"", 1}, {"worker", 1}};
  changes.put_pod_groups.push_back(phase);
  std::optional<Snapshot> patched = PatchSnapshot(base, changes);
  REQUIRE(patched.has_value());
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
  b.AddPodGroup(phase);
  b.AddPodGroup(MakePodGroup("a-b/h", 1));
  for (const TaskInfo& t : patched->tasks()) b.AddPod(*t.pod);
  const Snapshot built = *std::move(b).Build();
  CHECK(FactsText(SnapshotInternals::Of(*patched).dense) == FactsText(SnapshotInternals::Of(built).dense));
  const std::vector<int32_t>& roles = SnapshotInternals::Of(*patched).dense.task_role_slot;
  CHECK(roles[static_cast<size_t>(*patched->FindTask("a/g-3"))] == 1);  // "worker", after ""
  CHECK(roles[static_cast<size_t>(*patched->FindTask("a/g-1"))] == 0);  // no role: the "" minimum
  CHECK_FALSE(SnapshotInternals::Of(*patched).dense.task_keys_sorted);
  CHECK(patched->FindTask("a/g-2") == built.FindTask("a/g-2"));
  CHECK_FALSE(patched->FindTask("a/g-0").has_value());
  // The base is as it was.
  CHECK(base.FindTask("a/g-0").has_value());
  CHECK(base.tasks().size() == 4);
  CHECK(SnapshotInternals::Of(base).dense.task_role_slot == std::vector<int32_t>(4, -1));
}

TEST_CASE("DenseFacts: node sums that could saturate leave the session to sum its tasks", "[core][dense]") {
  const auto make = [](bool huge) {
    SnapshotBuilder b;
    b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
    b.AddPodGroup(MakePodGroup("a/g", 1));
    b.AddPod(MakePod("a/g-0", "g", "cpu=1", "n1", "Running"));
    b.AddPod(MakePod("a/g-1", "g", "cpu=2", "n1", "Running"));
    if (huge) {
      // Two requests of more than 2^62 millicores: their sum saturates.
      b.AddPod(MakePod("a/g-2", "g", "cpu=5000000000000000", "n1", "Running"));
      b.AddPod(MakePod("a/g-3", "g", "cpu=5000000000000000", "n1", "Running"));
    }
    return *std::move(b).Build();
  };
  const Snapshot small = make(false), huge = make(true);
  const int cpu = small.space().Find("cpu");
  REQUIRE(cpu >= 0);
  REQUIRE(huge.space().Find("cpu") == cpu);
  const DenseFacts& exact = SnapshotInternals::Of(small).dense;
  CHECK(exact.node_sums_exact);
  CHECK(exact.node_used(0, cpu) == 3000);
  // Inexact: a session sums the tasks itself, saturating, as it always has.
  CHECK_FALSE(SnapshotInternals::Of(huge).dense.node_sums_exact);
  const SchedulerConfig config;
  const Session on_huge(huge, config, 0, "s");
  CHECK(on_huge.node_used(0)[static_cast<size_t>(cpu)] == std::numeric_limits<int64_t>::max());
  CHECK(on_huge.node_idle(0)[static_cast<size_t>(cpu)] == std::numeric_limits<int64_t>::min());
  const Session on_small(small, config, 0, "s");
  CHECK(on_small.node_used(0)[static_cast<size_t>(cpu)] == 3000);
  CHECK(on_small.node_idle(0)[static_cast<size_t>(cpu)] == 5000);
}

TEST_CASE("PatchSnapshot: a pod deleted with its PodGroup stays deleted", "[core][dense]") {
  // The PodGroup's other pods are worked out again (they lose their job) and are listed
  // after the host's changes; the deleted pod must not come back with them.
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
  b.AddPodGroup(MakePodGroup("a/g", 1));
  b.AddPodGroup(MakePodGroup("a/h", 1));
  for (const char* key : {"a/g-0", "a/g-1", "a/g-2"}) b.AddPod(MakePod(key, "g", "cpu=1"));
  b.AddPod(MakePod("a/h-0", "h", "cpu=1"));
  const Snapshot base = *std::move(b).Build();
  SnapshotChanges changes;
  changes.deleted_pod_groups = {"a/g"};
  changes.deleted_pods = {"a/g-2"};
  std::optional<Snapshot> patched = PatchSnapshot(base, changes);
  REQUIRE(patched.has_value());
  CHECK_FALSE(patched->FindTask("a/g-2").has_value());
  SnapshotBuilder again;
  again.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
  again.AddPodGroup(MakePodGroup("a/h", 1));
  for (const char* key : {"a/g-0", "a/g-1"}) again.AddPod(MakePod(key, "g", "cpu=1"));
  again.AddPod(MakePod("a/h-0", "h", "cpu=1"));
  const Snapshot built = *std::move(again).Build();
  CHECK(FactsText(SnapshotInternals::Of(*patched).dense) == FactsText(SnapshotInternals::Of(built).dense));
  CHECK(patched->warnings() == built.warnings());
}

TEST_CASE("PatchSnapshot: shapes are numbered as a build numbers them when their first tasks go or come", "[core][dense]") {
  // Shapes by request: cpu=1 is shape 0 (first a/p-0), cpu=2 shape 1 (first a/p-2).
  const std::vector<std::pair<const char*, const char*>> pods = {
      {"a/p-0", "cpu=1"}, {"a/p-1", "cpu=1"}, {"a/p-2", "cpu=2"}, {"a/p-3", "cpu=1"}, {"a/p-4", "cpu=2"}};
  const auto build = [](const std::vector<std::pair<std::string, std::string>>& with) {
    SnapshotBuilder b;
    b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
    b.AddPodGroup(MakePodGroup("a/p", 1));
    for (const auto& [key, req] : with) b.AddPod(MakePod(key, "p", req));
    return *std::move(b).Build();
  };
  std::vector<std::pair<std::string, std::string>> all(pods.begin(), pods.end());
  struct Case {
    std::vector<std::string> deleted;
    std::vector<std::pair<std::string, std::string>> put;
  };
  const std::vector<Case> cases = {
      {{"a/p-0"}, {}},                      // shape 0's next task still leads
      {{"a/p-0", "a/p-1"}, {}},             // its next task now comes after shape 1's: numbered again
      {{"a/p-2"}, {}},                      // shape 1's next task is far on
      {{"a/p-2", "a/p-4"}, {}},             // shape 1 has no task left
      {{}, {{"a/p-00", "cpu=2"}}},          // a new task leads shape 1 before shape 0's first
      {{}, {{"a/p-25", "cpu=1"}}},          // a new task of shape 0 after its first
      {{}, {{"a/p-25", "cpu=3"}}},          // a new shape
      {{"a/p-0"}, {{"a/p-0", "cpu=2"}}},    // shape 0's first changed to shape 1
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    for (const bool in_place : {false, true}) {
      Snapshot base = build(all);
      SnapshotChanges changes;
      changes.deleted_pods = cases[i].deleted;
      std::vector<std::pair<std::string, std::string>> now;
      for (const auto& [key, req] : all) {
        const bool gone = std::find(cases[i].deleted.begin(), cases[i].deleted.end(), key) != cases[i].deleted.end();
        if (!gone) now.emplace_back(key, req);
      }
      for (const auto& [key, req] : cases[i].put) {
        changes.put_pods.push_back(std::make_shared<PodSpec>(MakePod(key, "p", req)));
        now.emplace_back(key, req);
      }
      std::sort(now.begin(), now.end());
      changes.deleted_pods.erase(std::remove_if(changes.deleted_pods.begin(), changes.deleted_pods.end(),
                                                [&](const std::string& k) {
                                                  return std::any_of(cases[i].put.begin(), cases[i].put.end(),
                                                                     [&](const auto& p) { return p.first == k; });
                                                }),
                                 changes.deleted_pods.end());
      std::optional<Snapshot> patched = in_place ? PatchSnapshot(std::move(base), changes) : PatchSnapshot(base, changes);
      REQUIRE(patched.has_value());
      const Snapshot built = build(now);
      CHECK(FactsText(SnapshotInternals::Of(*patched).dense) == FactsText(SnapshotInternals::Of(built).dense));
      CHECK(SnapshotInternals::Of(*patched).shape_keys == SnapshotInternals::Of(built).shape_keys);
      for (const TaskInfo& t : patched->tasks()) CHECK(t.shape == built.tasks()[static_cast<size_t>(t.index)].shape);
    }
  }
}

TEST_CASE("PatchSnapshot: the latest pod time follows its newest pod changed, replaced or deleted", "[core][dense]") {
  const auto pod = [](const char* key, int64_t created, const char* node = "") {
    PodSpec p = MakePod(key, "g", "cpu=1", node, node[0] != 0 ? "Running" : "Pending");
    p.creation_time = created;
    return p;
  };
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=20"));
  b.AddPodGroup(MakePodGroup("a/g", 1));  // created at 0: the pods' times decide
  b.AddPod(pod("a/g-0", 100));
  b.AddPod(pod("a/g-1", 300));
  b.AddPod(pod("a/g-2", 200));
  const Snapshot base = *std::move(b).Build();
  REQUIRE(SnapshotInternals::Of(base).latest_pod_creation_time == 300);
  const auto latest_after = [&](SnapshotChanges changes) {
    std::optional<Snapshot> patched = PatchSnapshot(base, std::move(changes));
    REQUIRE(patched.has_value());
    return std::pair(SnapshotInternals::Of(*patched).latest_pod_creation_time,
                     SnapshotInternals::Of(*patched).dense.latest_creation_time);
  };
  SnapshotChanges bound;  // the newest pod changed in place: its time stays the latest
  bound.put_pods.push_back(std::make_shared<PodSpec>(pod("a/g-1", 300, "n1")));
  CHECK(latest_after(bound) == std::pair<int64_t, int64_t>(300, 300));
  SnapshotChanges deleted;  // the newest pod gone: the next newest, among the tasks kept
  deleted.deleted_pods = {"a/g-1"};
  CHECK(latest_after(deleted) == std::pair<int64_t, int64_t>(200, 200));
  SnapshotChanges older;  // replaced by an older print, beside a new pod older still
  older.put_pods.push_back(std::make_shared<PodSpec>(pod("a/g-1", 250)));
  older.put_pods.push_back(std::make_shared<PodSpec>(pod("a/g-3", 150)));
  CHECK(latest_after(older) == std::pair<int64_t, int64_t>(250, 250));
  SnapshotChanges newer;  // a newer pod arrives as the newest goes
  newer.deleted_pods = {"a/g-1"};
  newer.put_pods.push_back(std::make_shared<PodSpec>(pod("a/g-3", 400)));
  CHECK(latest_after(newer) == std::pair<int64_t, int64_t>(400, 400));
}

TEST_CASE("PatchSnapshot: a packed key orders against a change as its namespace and name do", "[core][dense]") {
  // Namespaces share prefixes and hold '-' and '.', which sort before '/': a plain byte
  // comparison of "namespace/name" would put "a-b/x" before "a/x".
  const std::vector<std::string> namespaces = {"", "a", "a-b", "a.b", "ab", "b", "a-", "aa"};
  const std::vector<std::string> names = {"", "x", "x-1", "x-10", "x/y", "y", "x.0"};
  int pairs = 0;
  for (const std::string& ns_a : namespaces) {
    for (const std::string& name_a : names) {
      const std::string key = absl::StrCat(ns_a, "/", name_a);
      for (const std::string& ns_b : namespaces) {
        for (const std::string& name_b : names) {
          INFO(key << " against " << ns_b << " / " << name_b);
          CHECK(internal::PackedKeyBefore(key, ns_b, name_b) == internal::KeyBefore(ns_a, name_a, ns_b, name_b));
          ++pairs;
        }
      }
    }
  }
  CHECK(pairs == 56 * 56);
}

}  // namespace
}  // namespace vcsched
