// The node view the predicates and nodeorder plugins share: left for first use, it must
// show what a view made as the session opened shows, with the same log of changes.
#include <algorithm>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"

#include "src/plugins/node_view.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"
#include "vcsched/statement.h"

namespace vcsched::internal {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;

Snapshot TwoNodes() {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,memory=4Gi,pods=10"));
  b.AddNode(MakeNode("n2", "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/a", 1));
  b.AddPodGroup(MakePodGroup("ns/b", 1));
  b.AddPod(MakePod("ns/a-0", "a", "cpu=1,memory=1Gi"));            // task 0, pending
  b.AddPod(MakePod("ns/b-0", "b", "cpu=2", "n1", "Running"));  // task 1, on n1
  return *std::move(b).Build();
}

std::vector<TaskIndex> Sorted(std::vector<TaskIndex> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST_CASE("NodeView: first used after a placement, it starts from the session's opening", "[plugins][node_view]") {
  const Snapshot snap = TwoNodes();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  NodeView& view = ssn.Shared<NodeView>();  // nothing moved yet: left for first use
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 1).ok());
  view.Add(0, ssn.task_node(0));  // what the predicates plugin's handler does
  CHECK(view.seq() == 1);         // one logged change: the placement
  REQUIRE(view.ChangesSince(0).size() == 1);
  CHECK(view.ChangesSince(0)[0].task == 0);
  CHECK(view.ChangesSince(0)[0].added);
  CHECK(view.pods(0) == std::vector<TaskIndex>{1});
  CHECK(view.pods(1) == std::vector<TaskIndex>{0});
  CHECK(view.node_of(0) == 1);
  CHECK(view.requested(1, kCpu) == 1000);
  CHECK(view.requested(0, kCpu) == 2000);
  const std::vector<NodeView::Placement> opened = view.AsOf(0);
  REQUIRE(opened.size() == 1);
  CHECK(opened[0].task == 1);
  CHECK(Sorted(view.PodsEverPlaced()) == std::vector<TaskIndex>{0, 1});
}

TEST_CASE("NodeView: made after a task moved, it starts from where the tasks are", "[plugins][node_view]") {
  const Snapshot snap = TwoNodes();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  Statement st(ssn);
  REQUIRE(st.Allocate(0, 1).ok());
  NodeView& view = ssn.Shared<NodeView>();
  CHECK(view.seq() == 0);
  CHECK(view.pods(1) == std::vector<TaskIndex>{0});
  CHECK(view.pods(0) == std::vector<TaskIndex>{1});
}

TEST_CASE("NodeView: lists asked for after changes are the lists a view that had them from the start shows",
          "[plugins][node_view]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8,memory=8Gi,pods=10"));
  b.AddNode(MakeNode("n2", "cpu=8,memory=8Gi,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/a", 1));
  b.AddPodGroup(MakePodGroup("ns/b", 1));
  b.AddPod(MakePod("ns/a-0", "a", "cpu=1"));  // task 0, pending
  for (int i = 0; i < 4; ++i) b.AddPod(MakePod(absl::StrCat("ns/b-", i), "b", "cpu=1", "n1", "Running"));  // tasks 1-4
  const Snapshot snap = *std::move(b).Build();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  NodeView lists_first(ssn), totals_first(ssn);
  CHECK(lists_first.pods(0).size() == 4);  // lists (and totals) placed before any change
  CHECK(totals_first.pod_count(0) == 4);   // totals alone
  CHECK(totals_first.requested(0, kCpu) == 4000);
  // The same changes to both: one pod leaves n1 (the last takes its slot), the pending
  // one goes to n1, then moves to n2.
  for (NodeView* v : {&lists_first, &totals_first}) {
    v->Remove(2);
    v->Add(0, 0);
    v->Add(0, 1);
  }
  CHECK(totals_first.pod_count(0) == 3);
  CHECK(totals_first.seq() == 4);  // the move is a removal and an addition
  CHECK(totals_first.pods(0) == lists_first.pods(0));  // the lists now, replayed in order
  CHECK(totals_first.pods(1) == lists_first.pods(1));
  CHECK(totals_first.pods(0) == std::vector<TaskIndex>{1, 4, 3});
  CHECK(totals_first.PodsEverPlaced() == lists_first.PodsEverPlaced());
  for (NodeIndex n : {0, 1}) {
    CHECK(totals_first.pod_count(n) == static_cast<int32_t>(totals_first.pods(n).size()));
    CHECK(totals_first.requested(n, kCpu) == lists_first.requested(n, kCpu));
  }
  CHECK(totals_first.AsOf(0).size() == 4);  // the opening: tasks 1-4
}

}  // namespace
}  // namespace vcsched::internal
