#include <catch2/catch.hpp>

#include <memory>

#include "tests/testing/builders.h"
#include "vcsched/snapshot.h"

namespace vcsched {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;
using testing::MakeQueue;

TEST_CASE("Snapshot: indices follow name order whatever the insertion order", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n2", "cpu=1,pods=10"));
  b.AddNode(MakeNode("n1", "cpu=2,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/pg", 1));
  b.AddPod(MakePod("ns/p-b", "pg", "cpu=1"));
  b.AddPod(MakePod("ns/p-a", "pg", "cpu=1"));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  CHECK(s->nodes()[0].spec.name == "n1");
  CHECK(s->tasks()[0].key == "ns/p-a");
  CHECK(*s->FindNode("n2") == 1);
  CHECK(s->total_allocatable()[kCpu] == 3000);
  REQUIRE(s->jobs().size() == 1);
  CHECK(s->jobs()[0].tasks == std::vector<TaskIndex>{0, 1});
}

TEST_CASE("Snapshot: owned pods are prepared in place, and later builds share them and reuse their facts",
          "[core][snapshot]") {
  const auto nodes_and_group = [](SnapshotBuilder& b) {
    b.AddNode(MakeNode("n1", "cpu=4,pods=10"));
    b.AddNode(MakeNode("n2", "cpu=4,pods=10"));
    b.AddPodGroup(MakePodGroup("ns/pg", 2));
  };
  auto plain = std::make_shared<PodSpec>(MakePod("ns/plain", "", "cpu=1"));  // gets the controller's PodGroup
  auto member = std::make_shared<PodSpec>(MakePod("ns/m-0", "pg", "cpu=1"));
  member->node_name = "n2";
  member->phase = "Running";
  SnapshotBuilder first;
  nodes_and_group(first);
  first.AddOwnedPod(plain);
  first.AddOwnedPod(member);
  first.AddPod(MakePod("ns/m-1", "pg", "cpu=1"));
  absl::StatusOr<Snapshot> a = std::move(first).Build();
  REQUIRE(a.ok());
  // The very objects, prepared in place.
  CHECK(a->tasks()[*a->FindTask("ns/plain")].pod.get() == plain.get());
  CHECK(plain->annotations.count(std::string(kPodGroupAnnotation)) == 1);
  CHECK(plain->namespace_labels != nullptr);

  // A later build: the same pods shared, a node added before n2 (its index moves), a
  // new pod; every fact as a build from scratch has it.
  const auto second = [&](bool reuse) {
    SnapshotBuilder b;
    nodes_and_group(b);
    b.AddNode(MakeNode("n0", "cpu=4,pods=10"));
    b.AddSharedPod(plain);
    b.AddSharedPod(member);
    b.AddSharedPod(a->tasks()[*a->FindTask("ns/m-1")].pod);
    b.AddPod(MakePod("ns/m-2", "pg", "cpu=2"));
    if (reuse) b.ReuseFrom(*a);
    absl::StatusOr<Snapshot> s = std::move(b).Build();
    REQUIRE(s.ok());
    return *s;
  };
  const Snapshot reused = second(true), fresh = second(false);
  REQUIRE(reused.tasks().size() == fresh.tasks().size());
  for (size_t i = 0; i < fresh.tasks().size(); ++i) {
    const TaskInfo& x = reused.tasks()[i];
    const TaskInfo& y = fresh.tasks()[i];
    INFO(y.key);
    CHECK(x.key == y.key);
    CHECK(x.uid == y.uid);
    CHECK(x.node == y.node);
    CHECK(x.job == y.job);
    CHECK(x.status == y.status);
    CHECK(x.shape == y.shape);
    CHECK(x.priority == y.priority);
    CHECK(x.resreq.span() == y.resreq.span());
    CHECK(x.role == y.role);
  }
  CHECK(reused.tasks()[*reused.FindTask("ns/m-0")].node == *reused.FindNode("n2"));
  CHECK(reused.warnings() == fresh.warnings());
}

TEST_CASE("Snapshot: duplicate and empty names are errors naming the object", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=1"));
  b.AddNode(MakeNode("n1", "cpu=1"));
  b.AddQueue(MakeQueue(""));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string msg(s.status().message());
  CHECK_THAT(msg, Catch::Contains("Node \"n1\": metadata.name: duplicate name"));
  CHECK_THAT(msg, Catch::Contains("Queue: metadata.name: must not be empty"));
}

TEST_CASE("Snapshot: pods are ordered by namespace then name, and a repeated pod is one error", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=8"));
  b.AddPodGroup(MakePodGroup("a/pg", 1, ""));
  b.AddPodGroup(MakePodGroup("a-b/pg", 1, ""));
  // "a-b" sorts before "a/..." as a key string, after "a" as a namespace.
  for (const char* key : {"a-b/p", "a/p2", "a/p10", "a/p1"}) {
    b.AddPod(MakePod(key, "pg", "cpu=1"));
  }
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  std::vector<std::string> keys;
  for (const TaskInfo& t : s->tasks()) keys.push_back(t.key);
  CHECK(keys == std::vector<std::string>{"a/p1", "a/p10", "a/p2", "a-b/p"});
  CHECK(s->tasks()[3].pod->namespace_ == "a-b");
  // FindTask, whether or not the keys in task order are also in byte order ("a-b/p"
  // sorts before "a/p1" as bytes).
  SnapshotBuilder sorted_keys;
  sorted_keys.AddPodGroup(MakePodGroup("a/pg", 1, ""));
  for (const char* key : {"a/p2", "a/p10", "a/p1"}) sorted_keys.AddPod(MakePod(key, "pg", "cpu=1"));
  absl::StatusOr<Snapshot> s2 = std::move(sorted_keys).Build();
  REQUIRE(s2.ok());
  for (const Snapshot* snap : {&*s, &*s2}) {
    for (const TaskInfo& t : snap->tasks()) {
      INFO(t.key);
      REQUIRE(snap->FindTask(t.key).has_value());
      CHECK(*snap->FindTask(t.key) == t.index);
    }
    for (const char* missing : {"", "a", "a/p", "a/p3", "a-b/q", "z/p"}) CHECK_FALSE(snap->FindTask(missing).has_value());
  }

  SnapshotBuilder twice;
  for (int i = 0; i < 3; ++i) twice.AddPod(MakePod("ns/same", "pg", "cpu=1"));
  twice.AddPod(MakePod("other/same", "pg", "cpu=1"));
  absl::StatusOr<Snapshot> bad = std::move(twice).Build();
  REQUIRE_FALSE(bad.ok());
  const std::string msg(bad.status().message());
  CHECK(msg == "Pod \"ns/same\": metadata.name: duplicate name");
}

TEST_CASE("Snapshot: dangling references are tolerated with warnings", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/pg", 1, "missing-queue"));
  b.AddPod(MakePod("ns/p1", "pg", "cpu=1"));
  b.AddPod(MakePod("ns/p2", "no-such-group", "cpu=1"));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  CHECK(s->jobs()[0].queue == kNone);
  CHECK(s->tasks()[1].job == kNone);
  REQUIRE(s->warnings().size() == 2);
  CHECK_THAT(s->warnings()[0], Catch::Contains("PodGroup \"ns/no-such-group\" not found"));
  CHECK_THAT(s->warnings()[1], Catch::Contains("spec.queue: queue \"missing-queue\" not found"));
}

TEST_CASE("Snapshot: default and root queues are created when missing", "[core][snapshot]") {
  SnapshotBuilder b;
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  REQUIRE(s->queues().size() == 2);
  CHECK(s->queues()[0].spec.name == "default");
  CHECK(s->queues()[0].spec.reclaimable);
  CHECK(s->queues()[1].spec.name == "root");
  CHECK_FALSE(s->queues()[1].spec.reclaimable);
}

TEST_CASE("Snapshot: a plain pod gets the implicit PodGroup of its owner", "[core][snapshot]") {
  SnapshotBuilder b;
  PodSpec p1 = MakePod("ns/web-1", "", "cpu=1");
  p1.controller_uid = "rs-uid";
  PodSpec p2 = MakePod("ns/web-2", "", "cpu=1");
  p2.controller_uid = "rs-uid";
  PodSpec lone = MakePod("ns/lone", "", "cpu=500m");
  lone.uid = "lone-uid";
  lone.annotations["scheduling.volcano.sh/queue-name"] = "q1";
  b.AddPod(p1);
  b.AddPod(p2);
  b.AddPod(lone);
  b.AddQueue(MakeQueue("q1"));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  REQUIRE(s->jobs().size() == 2);
  const JobInfo& lone_job = s->jobs()[*s->FindJob("ns/podgroup-lone-uid")];
  CHECK(lone_job.pod_group.min_member == 1);
  CHECK(lone_job.pod_group.phase == "Pending");
  CHECK(s->queues()[lone_job.queue].spec.name == "q1");
  CHECK(lone_job.min_resources[kCpu] == 500);
  CHECK(s->jobs()[*s->FindJob("ns/podgroup-rs-uid")].tasks.size() == 2);
}

TEST_CASE("Snapshot: a task's request folds init containers and sidecars", "[core][snapshot]") {
  PodSpec p = MakePod("ns/p", "pg", "cpu=1,memory=1Gi");
  Container init;
  init.requests = testing::Res("cpu=3");
  Container sidecar;
  sidecar.requests = testing::Res("cpu=500m");
  sidecar.restartable = true;
  p.init_containers = {sidecar, init};
  p.overhead = testing::Res("cpu=100m");
  SnapshotBuilder b;
  b.AddPodGroup(MakePodGroup("ns/pg", 1));
  b.AddPod(p);
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  const TaskInfo& t = s->tasks()[0];
  // containers 1 + sidecar 0.5 = 1.5; init 3 + sidecar 0.5 = 3.5; max 3.5; + overhead 0.1.
  CHECK(t.resreq[kCpu] == 3600);
  CHECK(t.resreq[kMemory] == int64_t{1} << 30);
  CHECK(t.resreq[kPods] == 1);
  CHECK_FALSE(t.best_effort);
}

TEST_CASE("Snapshot: task status follows Volcano's pod mapping", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=4,pods=10"));
  b.AddPodGroup(MakePodGroup("ns/pg", 1));
  b.AddPod(MakePod("ns/a", "pg", "cpu=1", "n1", "Pending"));
  b.AddPod(MakePod("ns/b", "pg", "cpu=1", "n1", "Running"));
  PodSpec c = MakePod("ns/c", "pg", "cpu=1", "n1", "Running");
  c.deleting = true;
  b.AddPod(c);
  b.AddPod(MakePod("ns/d", "pg", "cpu=1", "", "Succeeded"));
  b.AddPod(MakePod("ns/e", "pg", ""));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  CHECK(s->tasks()[0].status == TaskStatus::kBound);
  CHECK(s->tasks()[1].status == TaskStatus::kRunning);
  CHECK(s->tasks()[2].status == TaskStatus::kReleasing);
  CHECK(s->tasks()[3].status == TaskStatus::kSucceeded);
  CHECK(s->tasks()[4].status == TaskStatus::kPending);
  CHECK(s->tasks()[4].best_effort);
}

TEST_CASE("Snapshot: job priority comes from the PodGroup's class or the global default", "[core][snapshot]") {
  SnapshotBuilder b;
  b.AddPriorityClass({"high", 1000, false, ""});
  b.AddPriorityClass({"base", 7, true, ""});
  PodGroupSpec a = MakePodGroup("ns/a", 1);
  a.priority_class_name = "high";
  b.AddPodGroup(a);
  b.AddPodGroup(MakePodGroup("ns/b", 1));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  CHECK(s->jobs()[0].priority == 1000);
  CHECK(s->jobs()[1].priority == 7);
}

}  // namespace
}  // namespace vcsched
