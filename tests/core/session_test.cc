#include <catch2/catch.hpp>

#include "src/framework/session_state.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"
#include "vcsched/statement.h"

namespace vcsched {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;

Snapshot TwoNodeCluster() {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,memory=4Gi,pods=10"));
  b.AddNode(MakeNode("n2", "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/a", 2));
  b.AddPodGroup(MakePodGroup("ns/b", 1));
  b.AddPod(MakePod("ns/a-0", "a", "cpu=1,memory=1Gi"));
  b.AddPod(MakePod("ns/a-1", "a", "cpu=1,memory=1Gi"));
  b.AddPod(MakePod("ns/b-0", "b", "cpu=2", "n1", "Running"));
  return *std::move(b).Build();
}

void InTier(Session& ssn, int tier) { SessionInternals::Of(ssn).current_tier = tier; }

TEST_CASE("Session: order functions take the first non-zero opinion across tiers", "[core][session]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  CHECK(ssn.JobOrderLess(0, 1));  // fallback: "ns/a" before "ns/b"
  InTier(ssn, 0);
  ssn.AddJobOrderFn([](JobIndex, JobIndex) { return 0; });
  InTier(ssn, 1);
  ssn.AddJobOrderFn([](JobIndex l, JobIndex r) { return l > r ? -1 : (l < r ? 1 : 0); });
  CHECK(ssn.JobOrderLess(1, 0));
  CHECK(ssn.JobOrderCompare(0, 1) == 1);
}

TEST_CASE("Session: pipelined votes decide per tier", "[core][session]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  SECTION("all abstain means true") {
    Session ssn(snap, cfg, 0, "s");
    ssn.AddJobPipelinedFn([](JobIndex) { return Vote::kAbstain; });
    CHECK(ssn.JobPipelined(0));
  }
  SECTION("a permit in an earlier tier hides a later reject") {
    Session ssn(snap, cfg, 0, "s");
    InTier(ssn, 0);
    ssn.AddJobPipelinedFn([](JobIndex) { return Vote::kPermit; });
    InTier(ssn, 1);
    ssn.AddJobPipelinedFn([](JobIndex) { return Vote::kReject; });
    CHECK(ssn.JobPipelined(0));
  }
  SECTION("a reject in the same tier wins over a permit") {
    Session ssn(snap, cfg, 0, "s");
    ssn.AddJobPipelinedFn([](JobIndex) { return Vote::kPermit; });
    ssn.AddJobPipelinedFn([](JobIndex) { return Vote::kReject; });
    CHECK_FALSE(ssn.JobPipelined(0));
  }
}

TEST_CASE("Session: starving is decided by the first tier that registered", "[core][session]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  CHECK_FALSE(ssn.JobStarving(0));
  InTier(ssn, 1);
  ssn.AddJobStarvingFn([](JobIndex) { return true; });
  CHECK(ssn.JobStarving(0));
  InTier(ssn, 2);
  ssn.AddJobStarvingFn([](JobIndex) { return false; });
  CHECK(ssn.JobStarving(0));
}

TEST_CASE("Session: victims intersect within a tier and an empty answer passes to the next", "[core][session]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  const std::vector<TaskIndex> cands = {0, 1, 2};
  auto returns = [](std::vector<TaskIndex> v) {
    return [v](TaskIndex, absl::Span<const TaskIndex>) { return std::make_pair(v, Vote::kPermit); };
  };
  SECTION("intersection keeps the first plugin's order") {
    Session ssn(snap, cfg, 0, "s");
    ssn.AddPreemptableFn(returns({2, 1, 0}));
    ssn.AddPreemptableFn(returns({0, 2}));
    CHECK(ssn.Preemptable(0, cands) == std::vector<TaskIndex>{2, 0});
  }
  SECTION("an empty answer abandons the tier") {
    Session ssn(snap, cfg, 0, "s");
    InTier(ssn, 0);
    ssn.AddPreemptableFn(returns({}));
    ssn.AddPreemptableFn(returns({1}));
    InTier(ssn, 1);
    ssn.AddPreemptableFn(returns({2}));
    CHECK(ssn.Preemptable(0, cands) == std::vector<TaskIndex>{2});
  }
  SECTION("an empty intersection lets the next plugin start over") {
    Session ssn(snap, cfg, 0, "s");
    ssn.AddPreemptableFn(returns({0}));
    ssn.AddPreemptableFn(returns({1}));
    ssn.AddPreemptableFn(returns({2}));
    CHECK(ssn.Preemptable(0, cands) == std::vector<TaskIndex>{2});
  }
  SECTION("abstentions are skipped") {
    Session ssn(snap, cfg, 0, "s");
    ssn.AddPreemptableFn([](TaskIndex, absl::Span<const TaskIndex>) {
      return std::make_pair(std::vector<TaskIndex>{}, Vote::kAbstain);
    });
    ssn.AddPreemptableFn(returns({1}));
    CHECK(ssn.Preemptable(0, cands) == std::vector<TaskIndex>{1});
  }
}

TEST_CASE("Session: request sums are exact while every request times the tasks stays below 2^53", "[core][session]") {
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  const Snapshot small = TwoNodeCluster();
  CHECK(Session(small, cfg, 0, "s").request_sums_exact());
  // 3 tasks: the limit is 2^53 / 3, about 3.0e15; 4Pi of memory is 2^52, about 4.5e15.
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/a", 1));
  b.AddPod(MakePod("ns/a-0", "a", "cpu=1"));
  b.AddPod(MakePod("ns/a-1", "a", "cpu=1"));
  b.AddPod(MakePod("ns/a-2", "a", "memory=4Pi"));
  const Snapshot large = *std::move(b).Build();
  CHECK_FALSE(Session(large, cfg, 0, "s").request_sums_exact());
  // Patched snapshots keep a bound on the requests that a deletion does not lower: the
  // answer is still the requests' own.
  SnapshotChanges drop;
  drop.deleted_pods = {"ns/a-2"};
  const std::optional<Snapshot> dropped = PatchSnapshot(large, drop);
  REQUIRE(dropped.has_value());
  CHECK(Session(*dropped, cfg, 0, "s").request_sums_exact());
  SnapshotChanges add;
  add.put_pods.push_back(std::make_shared<PodSpec>(MakePod("ns/a-2", "a", "memory=4Pi")));
  SnapshotBuilder c;
  c.AddNode(MakeNode("n1", "cpu=4,memory=4Gi,pods=10"));
  c.AddPodGroup(MakePodGroup("ns/a", 1));
  c.AddPod(MakePod("ns/a-0", "a", "cpu=1"));
  c.AddPod(MakePod("ns/a-1", "a", "cpu=1"));
  const Snapshot two = *std::move(c).Build();
  CHECK(Session(two, cfg, 0, "s").request_sums_exact());
  const std::optional<Snapshot> added = PatchSnapshot(two, add);
  REQUIRE(added.has_value());
  CHECK_FALSE(Session(*added, cfg, 0, "s").request_sums_exact());
}

TEST_CASE("Session: node accounting follows task status", "[core][session]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  CHECK(ssn.node_idle(0)[kCpu] == 2000);
  CHECK(ssn.node_used(0)[kPods] == 1);
  CHECK(ssn.JobReadyTaskNum(1) == 1);
  Statement st(ssn);
  REQUIRE(st.Evict(2, "preempt", 0, "test").ok());
  CHECK(ssn.node_releasing(0)[kCpu] == 2000);
  CHECK(ssn.node_future_idle(0)[kCpu] == 4000);
  REQUIRE(st.Pipeline(0, 0).ok());
  CHECK(ssn.node_pipelined(0)[kCpu] == 1000);
  CHECK(ssn.node_future_idle(0)[kCpu] == 3000);
  CHECK(ssn.JobWaitingTaskNum(0) == 1);
}

TEST_CASE("Statement: discard restores the session exactly", "[core][statement]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  int allocs = 0, deallocs = 0;
  ssn.AddEventHandler({[&](TaskIndex) { ++allocs; }, [&](TaskIndex) { ++deallocs; }});
  const ResourceMatrix idle = SessionInternals::Of(ssn).idle, used = SessionInternals::Of(ssn).used, rel = SessionInternals::Of(ssn).releasing;
  const auto counts = SessionInternals::Of(ssn).job_counts;
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 1).ok());
  REQUIRE(st.Pipeline(1, 0).ok());
  REQUIRE(st.Evict(2, "preempt", 1, "x").ok());
  CHECK(ssn.task_status(0) == TaskStatus::kAllocated);
  CHECK_FALSE(st.Allocate(0, 1).ok());  // not pending any more
  st.Discard();
  CHECK((SessionInternals::Of(ssn).idle == idle).all());
  CHECK((SessionInternals::Of(ssn).used == used).all());
  CHECK((SessionInternals::Of(ssn).releasing == rel).all());
  CHECK((SessionInternals::Of(ssn).pipelined == 0).all());
  CHECK(SessionInternals::Of(ssn).job_counts == counts);
  CHECK(ssn.task_status(0) == TaskStatus::kPending);
  CHECK(ssn.task_node(0) == kNone);
  CHECK(ssn.task_status(2) == TaskStatus::kRunning);
  CHECK(allocs == 3);
  CHECK(deallocs == 3);
  CHECK(SessionInternals::Of(ssn).last_txn_status[0] == TaskStatus::kAllocated);
  CHECK(SessionInternals::Of(ssn).decisions.binds.empty());
  CHECK(SessionInternals::Of(ssn).decisions.evictions.empty());
}

TEST_CASE("Statement: commit turns allocations into binds and evictions into evictions", "[core][statement]") {
  const Snapshot snap = TwoNodeCluster();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 1).ok());
  REQUIRE(st.Evict(2, "preempt", 1, "for a-1").ok());
  st.Commit();
  CHECK(ssn.task_status(0) == TaskStatus::kBinding);
  REQUIRE(SessionInternals::Of(ssn).decisions.binds.size() == 1);
  CHECK(SessionInternals::Of(ssn).decisions.binds[0].node == "n2");
  REQUIRE(SessionInternals::Of(ssn).decisions.evictions.size() == 1);
  CHECK(SessionInternals::Of(ssn).decisions.evictions[0].preemptor == "ns/a-1");
  CHECK(st.empty());
}

TEST_CASE("RunSession: decisions are in key order when index order is not", "[core][session]") {
  // Objects are indexed by (namespace, name), keys compare as "namespace/name": '-' and
  // '.' sort before '/', so "a-b/x" precedes "a/x" although namespace "a" precedes "a-b".
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=16,memory=16Gi,pods=100"));
  for (const char* ns : {"a", "a-b", "a.b", "b"}) {
    for (const char* job : {"j1", "j2"}) {
      b.AddPodGroup(MakePodGroup(std::string(ns) + "/" + job, 1));
      b.AddPod(MakePod(std::string(ns) + "/" + job + "-0", job, "cpu=1,memory=1Gi"));
    }
  }
  const Snapshot snap = *std::move(b).Build();
  const Decisions d = *RunSession(snap, DefaultSchedulerConfig());
  REQUIRE(d.binds.size() == 8);
  REQUIRE(d.pod_groups.size() == 8);
  for (size_t i = 1; i < d.binds.size(); ++i) CHECK(d.binds[i - 1].task < d.binds[i].task);
  for (size_t i = 1; i < d.pod_groups.size(); ++i) CHECK(d.pod_groups[i - 1].job < d.pod_groups[i].job);
  CHECK(d.binds.front().task == "a-b/j1-0");
  CHECK(d.pod_groups.front().job == "a-b/j1");
}

TEST_CASE("RunSession: binds committed out of task order come out sorted", "[core][session]") {
  // The higher-priority job's pod is committed first but sorts last.
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=16,memory=16Gi,pods=100"));
  PriorityClassSpec high;
  high.name = "high";
  high.value = 1000;
  b.AddPriorityClass(high);
  PodGroupSpec urgent = MakePodGroup("ns/z", 1);
  urgent.priority_class_name = "high";
  b.AddPodGroup(urgent);
  b.AddPodGroup(MakePodGroup("ns/a", 1));
  b.AddPod(MakePod("ns/z-0", "z", "cpu=1,memory=1Gi"));
  b.AddPod(MakePod("ns/a-0", "a", "cpu=1,memory=1Gi"));
  const Decisions d = *RunSession(*std::move(b).Build(), DefaultSchedulerConfig());
  REQUIRE(d.binds.size() == 2);
  CHECK(d.binds[0].task == "ns/a-0");
  CHECK(d.binds[1].task == "ns/z-0");
}

TEST_CASE("Session: node task lists made on first use agree with every move before and after", "[core][session]") {
  // The lists are made when an action first asks (eviction actions only), from where the
  // tasks are then; from there on each move keeps them.
  const Snapshot snap = TwoNodeCluster();  // tasks: 0 a-0, 1 a-1 pending; 2 b-0 on n1
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 1).ok());
  REQUIRE(st.Evict(2, "preempt", 0, "test").ok());  // releasing: still holds n1
  REQUIRE(st.Pipeline(1, 0).ok());
  CHECK(ssn.node_tasks(0) == std::vector<TaskIndex>{1, 2});
  CHECK(ssn.node_tasks(1) == std::vector<TaskIndex>{0});
  st.Discard();
  CHECK(ssn.node_tasks(0) == std::vector<TaskIndex>{2});
  CHECK(ssn.node_tasks(1).empty());
  Statement again(ssn);
  REQUIRE(again.Allocate(1, 0).ok());
  CHECK(ssn.node_tasks(0) == std::vector<TaskIndex>{1, 2});
}

TEST_CASE("Session: minTaskMember checks follow the moves of the job's tasks", "[core][session]") {
  // The checks are remembered per job until one of its tasks moves.
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,memory=4Gi,pods=10"));
  PodGroupSpec g = MakePodGroup("ns/a", 2);
  g.min_task_member = {{"ps", 1}, {"worker", 1}};
  b.AddPodGroup(g);
  PodSpec ps = MakePod("ns/a-ps-0", "a", "cpu=1,memory=1Gi");
  ps.annotations["volcano.sh/task-spec"] = "ps";
  PodSpec worker = MakePod("ns/a-worker-0", "a", "cpu=1,memory=1Gi");
  worker.annotations["volcano.sh/task-spec"] = "worker";
  b.AddPod(ps);
  b.AddPod(worker);
  const Snapshot snap = *std::move(b).Build();
  Session ssn(snap, DefaultSchedulerConfig(), 0, "s");
  CHECK(ssn.JobCheckTaskValid(0));
  CHECK_FALSE(ssn.JobCheckTaskReady(0));
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 0).ok());
  CHECK_FALSE(ssn.JobCheckTaskReady(0));  // one role of two
  REQUIRE(st.Allocate(1, 0).ok());
  CHECK(ssn.JobCheckTaskReady(0));
  CHECK(ssn.JobCheckTaskPipelined(0));
  st.Discard();
  CHECK_FALSE(ssn.JobCheckTaskReady(0));
  CHECK(ssn.JobCheckTaskValid(0));
}

}  // namespace
}  // namespace vcsched
