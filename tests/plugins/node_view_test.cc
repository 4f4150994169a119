// The node view the predicates and nodeorder plugins share: left for first use, it must
// show what a view made as the session opened shows, with the same log of changes.
#include <algorithm>

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace vcsched::internal
