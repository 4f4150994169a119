// The Cluster: changes checked and applied whole, snapshots that decide as a build
// from the same objects does, decisions applied back with conflicts reported.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "absl/strings/str_cat.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/format.h"
#include "vcsched/io/scenario.h"
#include "vcsched/io/watch.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

NodeSpec Node(const std::string& name, int64_t milli_cpu) {
  NodeSpec n;
  n.name = name;
  n.allocatable = {{"cpu", milli_cpu}, {"memory", int64_t{64} << 30}, {"pods", 110}};
  return n;
}

PodSpec Pod(const std::string& name, const std::string& group, int64_t milli_cpu) {
  PodSpec p;
  p.name = name;
  p.namespace_ = "ns";
  if (!group.empty()) p.annotations[std::string(kPodGroupAnnotation)] = group;
  Container c;
  c.name = "c";
  c.requests = {{"cpu", milli_cpu}};
  p.containers.push_back(c);
  return p;
}

PodGroupSpec Group(const std::string& name, int32_t min_member) {
  PodGroupSpec g;
  g.name = name;
  g.namespace_ = "ns";
  g.min_member = min_member;
  return g;
}

// A node of 8 cpu, as an ADDED event, and a Volcano Job of two 1-cpu pods in a gang.
constexpr char kNodeAdded[] = R"({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
  "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}}
)";
constexpr char kJob[] = R"({"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
  "metadata": {"name": "j", "namespace": "ns"},
  "spec": {"minAvailable": 2, "schedulerName": "volcano", "tasks": [{"name": "w", "replicas": 2,
    "template": {"spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}}]}})";

Decisions Run(const Snapshot& s) {
  absl::StatusOr<Decisions> d = RunSession(s, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  return *std::move(d);
}

TEST_CASE("Cluster: a refused change names the object and field and leaves the state as it was", "[cluster]") {
  Cluster c;
  REQUIRE(c.PutNode(Node("n1", 4000)).ok());
  const absl::StatusOr<Snapshot> before = c.Snapshot();
  REQUIRE(before.ok());
  const int64_t generation = c.generation();

  NodeSpec bad = Node("n1", 8000);
  bad.name = "N1 bad";
  absl::Status s = c.PutNode(bad);
  CHECK_THAT(std::string(s.message()), Catch::Contains("metadata.name"));
  PodSpec pod = Pod("p", "g", 1000);
  pod.phase = "Sleeping";
  s = c.PutPod(pod);
  CHECK_THAT(std::string(s.message()), Catch::Contains("Pod \"ns/p\": status.phase"));
  PodGroupSpec g = Group("g", -1);
  CHECK_THAT(std::string(c.PutPodGroup(g).message()), Catch::Contains("spec.minMember"));
  QueueSpec q;
  q.name = "child";
  q.parent = "child";
  CHECK_FALSE(c.PutQueue(q).ok());
  CHECK(absl::IsNotFound(c.DeletePod("ns", "nope")));
  CHECK(absl::IsNotFound(c.DeleteNode("nope")));

  CHECK(c.generation() == generation);
  CHECK(c.nodes().size() == 1);
  CHECK(c.nodes().at("n1").allocatable.at("cpu") == 4000);
  CHECK(c.pods().empty());
  const absl::StatusOr<Snapshot> after = c.Snapshot();
  REQUIRE(after.ok());
  CHECK(after->nodes().data() == before->nodes().data());  // the same snapshot, shared
}

TEST_CASE("Cluster: a plain pod gets the controller's PodGroup, which later pods of its owner join", "[cluster]") {
  Cluster c;
  PodSpec a = Pod("a", "", 1000);
  a.controller_uid = "rs-1";
  PodSpec b = Pod("b", "", 1000);
  b.controller_uid = "rs-1";
  REQUIRE(c.PutPod(a).ok());
  REQUIRE(c.PutPod(b).ok());
  REQUIRE(c.pod_groups().count("ns/podgroup-rs-1") == 1);
  CHECK(c.pods().at("ns/b")->annotations.at(std::string(kPodGroupAnnotation)) == "podgroup-rs-1");
  // A user's PodGroup of that name would silently take the pod: refused, as the loader does.
  Cluster d;
  REQUIRE(d.PutPodGroup(Group("podgroup-rs-1", 3)).ok());
  CHECK_THAT(std::string(d.PutPod(a).message()), Catch::Contains("already a PodGroup of the input"));
  CHECK(d.pods().empty());
}

// Issue 57, class 10: the PodGroups made for standalone pods went on after the pods (15,100
// of them after 15,100 pods came and went). Volcano's is owned by the pod and goes with it;
// the group of pods with a controller is the controller's, and stays.
TEST_CASE("Cluster: the PodGroup made for a standalone pod goes with the pod", "[cluster]") {
  Cluster c;
  for (int i = 0; i < 1000; ++i) {
    PodSpec p = Pod(absl::StrCat("solo-", i), "", 1000);
    p.uid = absl::StrCat("uid-", i);
    REQUIRE(c.PutPod(p).ok());
    REQUIRE(c.PutPod(p).ok());  // a MODIFIED of the same pod counts once
  }
  CHECK(c.pod_groups().size() == 1000);
  for (int i = 0; i < 1000; ++i) REQUIRE(c.DeletePod("ns", absl::StrCat("solo-", i)).ok());
  CHECK(c.pod_groups().empty());
  CHECK(c.Snapshot()->jobs().empty());
  // Two pods of one controller share a group; it outlives them, as the controller does.
  PodSpec a = Pod("a", "", 1000), b = Pod("b", "", 1000);
  a.controller_uid = b.controller_uid = "rs-1";
  REQUIRE(c.PutPod(a).ok());
  REQUIRE(c.PutPod(b).ok());
  REQUIRE(c.DeletePod("ns", "a").ok());
  REQUIRE(c.DeletePod("ns", "b").ok());
  CHECK(c.pod_groups().count("ns/podgroup-rs-1") == 1);
  // A group the user wrote is never the cluster's to remove.
  REQUIRE(c.PutPodGroup(Group("mine", 1)).ok());
  REQUIRE(c.PutPod(Pod("m", "mine", 1000)).ok());
  REQUIRE(c.DeletePod("ns", "m").ok());
  CHECK(c.pod_groups().count("ns/mine") == 1);
}

TEST_CASE("Cluster: decisions are applied, and those that no longer fit are conflicts", "[cluster]") {
  Cluster c;
  REQUIRE(c.PutNode(Node("n1", 4000)).ok());
  REQUIRE(c.PutPodGroup(Group("g", 2)).ok());
  REQUIRE(c.PutPod(Pod("p1", "g", 1000)).ok());
  REQUIRE(c.PutPod(Pod("p2", "g", 1000)).ok());
  REQUIRE(c.PutPod(Pod("p3", "g", 1000)).ok());
  const absl::StatusOr<Snapshot> snap = c.Snapshot();
  REQUIRE(snap.ok());
  const Decisions d = Run(*snap);
  REQUIRE(d.binds.size() == 3);
  // Between the snapshot and the apply, one pod is deleted.
  REQUIRE(c.DeletePod("ns", "p3").ok());
  const ApplyReport report = c.Apply(d);
  CHECK(report.binds == 2);
  REQUIRE(report.conflicts.size() == 1);
  CHECK_THAT(report.conflicts[0], Catch::Contains("ns/p3: pod not found"));
  CHECK(c.pods().at("ns/p1")->node_name == "n1");
  CHECK(c.pod_groups().at("ns/g").phase == "Inqueue");
  // Bound pods stay where they are: the next session binds nothing, and applying a
  // session that changed nothing keeps the snapshot.
  const absl::StatusOr<Snapshot> next = c.Snapshot();
  REQUIRE(next.ok());
  CHECK(Run(*next).binds.empty());
  (void)c.Apply(Run(*next));  // the PodGroup's phase moves on (Running)
  const absl::StatusOr<Snapshot> settled = c.Snapshot();
  REQUIRE(settled.ok());
  const int64_t before_quiet = c.generation();
  (void)c.Apply(Run(*settled));
  CHECK(c.generation() == before_quiet);
  CHECK(c.Snapshot()->nodes().data() == settled->nodes().data());

  Decisions evict;
  evict.evictions.push_back({SharedText(std::string("ns/p1")), SharedText::Literal("preempt"), SharedText(), SharedText()});
  evict.binds.push_back({SharedText(std::string("ns/p2")), SharedText(std::string("gone-node"))});
  evict.pipelined.push_back({SharedText(std::string("ns/p2")), SharedText(std::string("n1")), true});
  // A pipeline without evictions (allocate onto releasing room) nominates nothing.
  evict.pipelined.push_back({SharedText(std::string("ns/p1")), SharedText(std::string("n1")), false});
  const ApplyReport r2 = c.Apply(evict);
  CHECK(r2.evictions == 1);
  CHECK(c.pods().at("ns/p1")->deleting);
  CHECK(r2.pipelined == 1);
  CHECK(c.pods().at("ns/p2")->nominated_node_name == "n1");
  CHECK(c.pods().at("ns/p1")->nominated_node_name.empty());
  REQUIRE(r2.conflicts.size() == 1);
  CHECK_THAT(r2.conflicts[0], Catch::Contains("node not found"));
}

// The spec of task `key` in the snapshot.
const PodSpec* TaskPod(const Snapshot& s, const std::string& key) {
  const std::optional<TaskIndex> t = s.FindTask(key);
  return t ? s.tasks()[static_cast<size_t>(*t)].pod.get() : nullptr;
}

TEST_CASE("Cluster: snapshots share the cluster's pod specs, and a change never reaches a snapshot taken before it",
          "[cluster]") {
  Cluster c;
  REQUIRE(c.PutNode(Node("n1", 4000)).ok());
  REQUIRE(c.PutPodGroup(Group("g", 1)).ok());
  REQUIRE(c.PutPod(Pod("p1", "g", 1000)).ok());
  REQUIRE(c.PutPod(Pod("p2", "g", 1000)).ok());
  const absl::StatusOr<Snapshot> built = c.Snapshot();  // the first one is built
  REQUIRE(built.ok());
  CHECK(TaskPod(*built, "ns/p1") == c.pods().at("ns/p1").get());
  CHECK(TaskPod(*built, "ns/p1")->namespace_labels != nullptr);  // prepared where it lies

  // A pod put since is patched in, shared too; the held snapshot keeps the old spec.
  PodSpec running = *c.pods().at("ns/p2");
  running.node_name = "n1";
  running.phase = "Running";
  REQUIRE(c.PutPod(running).ok());
  const absl::StatusOr<Snapshot> patched = c.Snapshot();
  REQUIRE(patched.ok());
  CHECK(c.snapshot_counts().patched == 1);
  CHECK(TaskPod(*patched, "ns/p2") == c.pods().at("ns/p2").get());
  CHECK(TaskPod(*built, "ns/p2")->phase == "Pending");
  CHECK(TaskPod(*built, "ns/p2")->node_name.empty());

  // A decision applied to a pod that snapshots hold copies it first.
  Decisions bind;
  bind.binds.push_back({SharedText(std::string("ns/p1")), SharedText(std::string("n1"))});
  const PodSpec* before = c.pods().at("ns/p1").get();
  REQUIRE(c.Apply(bind).binds == 1);
  CHECK(c.pods().at("ns/p1").get() != before);
  CHECK(c.pods().at("ns/p1")->node_name == "n1");
  CHECK(TaskPod(*built, "ns/p1")->node_name.empty());
  CHECK(TaskPod(*patched, "ns/p1")->node_name.empty());

  // A spec a host keeps a hold of is not changed under it either.
  const std::shared_ptr<const PodSpec> kept = c.pods().at("ns/p1");
  Decisions evict;
  evict.evictions.push_back({SharedText(std::string("ns/p1")), SharedText::Literal("preempt"), SharedText(), SharedText()});
  REQUIRE(c.Apply(evict).evictions == 1);
  CHECK_FALSE(kept->deleting);
  CHECK(c.pods().at("ns/p1")->deleting);

  // Each snapshot still decides as a scratch build of its state does.
  const absl::StatusOr<Snapshot> now = c.Snapshot();
  const absl::StatusOr<Snapshot> scratch = c.BuildSnapshot();
  REQUIRE(now.ok());
  REQUIRE(scratch.ok());
  CHECK(DecisionsToText(Run(*now)) == DecisionsToText(Run(*scratch)));
}

TEST_CASE("Cluster: PodGroup statuses are written as Volcano's job updater writes them, and round-trip", "[cluster]") {
  Cluster c;
  REQUIRE(c.PutNode(Node("n1", 2000)).ok());
  REQUIRE(c.PutPodGroup(Group("big", 2)).ok());
  REQUIRE(c.PutPod(Pod("b1", "big", 1500)).ok());
  REQUIRE(c.PutPod(Pod("b2", "big", 1500)).ok());
  REQUIRE(c.PutPodGroup(Group("fits", 1)).ok());
  REQUIRE(c.PutPod(Pod("f1", "fits", 100)).ok());
  absl::StatusOr<Snapshot> snap = c.Snapshot();
  REQUIRE(snap.ok());
  ApplyReport report = c.Apply(Run(*snap), 1000);
  CHECK(report.pod_group_statuses >= 1);
  // The gang that cannot fit is reported Unschedulable, with the apply's clock.
  const PodGroupSpec& big = c.pod_groups().at("ns/big");
  REQUIRE_FALSE(big.conditions.empty());
  const auto unschedulable = std::find_if(big.conditions.begin(), big.conditions.end(),
                                          [](const PodGroupConditionSpec& k) { return k.type == "Unschedulable"; });
  REQUIRE(unschedulable != big.conditions.end());
  CHECK(unschedulable->status == "True");
  CHECK(unschedulable->last_transition_time == 1000);
  CHECK_FALSE(unschedulable->message.empty());
  const std::string first_transition = unschedulable->transition_id;

  // The next sessions say the same of it: nothing is written again for it (its
  // transition stays the first one's), and once the state settles the generation stays.
  for (int cycle = 0; cycle < 3; ++cycle) {
    snap = c.Snapshot();
    REQUIRE(snap.ok());
    (void)c.Apply(Run(*snap), 2000 + cycle);
  }
  const int64_t settled = c.generation();
  snap = c.Snapshot();
  REQUIRE(snap.ok());
  report = c.Apply(Run(*snap), 5000);
  CHECK(report.pod_group_statuses == 0);
  CHECK(c.generation() == settled);
  const PodGroupSpec& still = c.pod_groups().at("ns/big");
  const auto same = std::find_if(still.conditions.begin(), still.conditions.end(),
                                 [](const PodGroupConditionSpec& k) { return k.type == "Unschedulable"; });
  REQUIRE(same != still.conditions.end());
  CHECK(same->last_transition_time == 1000);
  CHECK(same->transition_id == first_transition);

  // Printed and read back, the statuses are the same.
  const std::string yaml = ClusterToYaml(c);
  CHECK_THAT(yaml, Catch::Contains("conditions:"));
  absl::StatusOr<ScenarioObjects> objects = LoadObjects({{"state.yaml", yaml}});
  REQUIRE(objects.ok());
  Cluster back;
  REQUIRE(PutObjects(*objects, back).ok());
  for (const auto& [key, g] : c.pod_groups()) {
    INFO(key);
    const PodGroupSpec& h = back.pod_groups().at(key);
    CHECK(h.phase == g.phase);
    CHECK(h.running == g.running);
    REQUIRE(h.conditions.size() == g.conditions.size());
    for (size_t i = 0; i < g.conditions.size(); ++i) {
      CHECK(h.conditions[i].type == g.conditions[i].type);
      CHECK(h.conditions[i].status == g.conditions[i].status);
      CHECK(h.conditions[i].transition_id == g.conditions[i].transition_id);
      CHECK(h.conditions[i].last_transition_time == g.conditions[i].last_transition_time);
      CHECK(h.conditions[i].reason == g.conditions[i].reason);
      CHECK(h.conditions[i].message == g.conditions[i].message);
    }
  }
  CHECK(ClusterToYaml(back) == yaml);

  // A negative count is refused, naming the field.
  PodGroupSpec bad = Group("bad", 1);
  bad.failed = -1;
  CHECK_THAT(std::string(c.PutPodGroup(bad).message()), Catch::Contains("PodGroup \"ns/bad\": status.failed"));
}

TEST_CASE("Cluster: Volcano Jobs are kept, printed as Jobs, read back to the same state, and deleted", "[cluster]") {
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({"events.json", absl::StrCat(kNodeAdded, "{\"type\": \"ADDED\", \"object\": ", kJob, "}")});
  REQUIRE(events.ok());
  Cluster c;
  for (const WatchEvent& e : *events) REQUIRE(ApplyWatchEvent(c, e, nullptr).ok());
  REQUIRE(c.volcano_jobs().size() == 1);
  CHECK(c.volcano_jobs().count("ns/j") == 1);
  absl::StatusOr<Snapshot> snap = c.Snapshot();
  REQUIRE(snap.ok());
  (void)c.Apply(Run(*snap), 100);
  // One pod finished and was deleted by the host: the state keeps the Job without it.
  const std::string gone = c.pods().begin()->second->name;
  REQUIRE(c.DeletePod("ns", gone).ok());

  const std::string yaml = ClusterToYaml(c);
  CHECK_THAT(yaml, Catch::Contains("kind: Job"));
  absl::StatusOr<ScenarioObjects> objects = LoadObjects({{"state.yaml", yaml}});
  REQUIRE(objects.ok());
  Cluster back;
  REQUIRE(PutObjects(*objects, back).ok());
  CHECK(back.pods().size() == 1);  // the deleted pod is not made again
  CHECK(back.volcano_jobs().size() == 1);
  CHECK(ClusterToYaml(back) == yaml);
  snap = back.Snapshot();
  REQUIRE(snap.ok());
  const absl::StatusOr<Snapshot> original = c.Snapshot();
  REQUIRE(original.ok());
  CHECK(DecisionsToJson(Run(*snap)) == DecisionsToJson(Run(*original)));

  // A DELETED Job takes its manifest, its PodGroup and its pods.
  absl::StatusOr<std::vector<WatchEvent>> del = ReadWatchEvents({"del.json", absl::StrCat("{\"type\": \"DELETED\", \"object\": ", kJob, "}")});
  REQUIRE(del.ok());
  REQUIRE(ApplyWatchEvent(c, del->front(), nullptr).ok());
  CHECK(c.volcano_jobs().empty());
  CHECK(c.pods().empty());
  CHECK(c.pod_groups().empty());
  // What the loader takes for a Job (any apiVersion under batch.volcano.sh), the cluster
  // keeps too: the event is applied whole.
  std::string odd = absl::StrCat("{\"type\": \"ADDED\", \"object\": ", kJob, "}");
  odd.replace(odd.find("batch.volcano.sh/v1alpha1"), 25, "batch.volcano.sh.x");
  absl::StatusOr<std::vector<WatchEvent>> odd_events = ReadWatchEvents({"odd.json", odd});
  REQUIRE(odd_events.ok());
  REQUIRE(ApplyWatchEvent(c, odd_events->front(), nullptr).ok());
  CHECK(c.volcano_jobs().size() == 1);
  CHECK(c.pods().size() == 2);
  // A manifest that is not a Job, or whose name is not valid, is refused.
  Value not_job = Value::Map();
  not_job["kind"] = Value::String("Pod");
  CHECK_FALSE(c.PutVolcanoJob(not_job).ok());
  Value bad_name = Value::Map();
  bad_name["apiVersion"] = Value::String("batch.volcano.sh/v1alpha1");
  bad_name["kind"] = Value::String("Job");
  bad_name["metadata"]["name"] = Value::String("bad name");
  CHECK_THAT(std::string(c.PutVolcanoJob(bad_name).message()), Catch::Contains("metadata.name"));
}

TEST_CASE("Cluster: a cluster made from a snapshot decides as the snapshot does", "[cluster]") {
  SnapshotBuilder b;
  b.AddNode(Node("n1", 2000));
  b.AddNode(Node("n2", 2000));
  b.AddPodGroup(Group("g", 2));
  b.AddPod(Pod("p1", "g", 1500));
  b.AddPod(Pod("p2", "g", 1500));
  b.AddPod(Pod("plain", "", 500));
  absl::StatusOr<Snapshot> built = std::move(b).Build();
  REQUIRE(built.ok());
  Cluster c = Cluster::FromSnapshot(*built);
  REQUIRE(c.PutNode(Node("n3", 1000)).ok());  // a change, so that a new snapshot is built
  REQUIRE(c.DeleteNode("n3").ok());
  const absl::StatusOr<Snapshot> again = c.Snapshot();
  REQUIRE(again.ok());
  CHECK(DecisionsToJson(Run(*again)) == DecisionsToJson(Run(*built)));
}

TEST_CASE("Cluster: watch events, including a Volcano Job, relists and deletions of absent objects", "[cluster]") {
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({"events.json", absl::StrCat(kNodeAdded, "{\"type\": \"ADDED\", \"object\": ", kJob, "}", R"(
{"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}}}
{"type": "DELETED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "never"}}}
{"type": "SCHEDULE", "now": 5, "expect": {"bindCount": 2}}
)")});
  REQUIRE(events.ok());
  REQUIRE(events->size() == 5);
  CHECK(events->back().type == WatchEvent::Type::kSchedule);
  CHECK(*events->back().now == 5);
  CHECK(*events->back().expect->bind_count == 2);
  Cluster c;
  std::vector<std::string> notes;
  for (const WatchEvent& e : *events) REQUIRE(ApplyWatchEvent(c, e, &notes).ok());
  CHECK(c.nodes().at("n1").allocatable.at("cpu") == 4000);  // the second ADDED updated it
  CHECK(c.pods().size() == 2);
  CHECK(c.pod_groups().size() == 1);
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains("Node \"never\": not found"));

  for (const char* bad : {R"({"type": "ADDED"})", R"({"type": "RENAMED", "object": {}})", R"([1, 2])",
                          R"({"type": "SCHEDULE", "soon": 1})", R"({"type": "ADDED", "object": {"kind": "Pod")"}) {
    INFO(bad);
    CHECK_FALSE(ReadWatchEvents({"bad.json", bad}).ok());
  }
  // A field named twice is refused at the event's level as inside its object.
  for (const char* twice : {R"({"type": "ADDED", "type": "DELETED", "object": {}})",
                            R"({"type": "ADDED", "object": {"kind": "Node"}, "object": {}})",
                            R"({"type": "SCHEDULE", "now": 1, "now": 2})"}) {
    INFO(twice);
    const absl::StatusOr<std::vector<WatchEvent>> read = ReadWatchEvents({"twice.json", twice});
    CHECK_THAT(std::string(read.status().message()), Catch::Contains("twice.json: event 1: duplicate key"));
  }
  // Nesting past the loader's limit is refused, not followed.
  std::string deep = R"({"type": "ADDED", "object": )";
  for (int i = 0; i < 300; ++i) deep += R"({"a": )";
  deep += "1" + std::string(300, '}') + "}";
  CHECK_FALSE(ReadWatchEvents({"deep.json", deep}).ok());
  // A malformed object: refused, nothing changes.
  absl::StatusOr<std::vector<WatchEvent>> bad_pod = ReadWatchEvents({"e.json", R"(
{"type": "MODIFIED", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j-w-0", "namespace": "ns"},
  "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}}})"});
  REQUIRE(bad_pod.ok());
  const int64_t generation = c.generation();
  const absl::Status s = ApplyWatchEvent(c, bad_pod->front(), &notes);
  CHECK_THAT(std::string(s.message()), Catch::Contains("cpu"));
  CHECK(c.generation() == generation);
  // An update of something absent, and an unknown kind: refused, nothing changes.
  absl::StatusOr<std::vector<WatchEvent>> more = ReadWatchEvents({"e.json", R"(
{"type": "MODIFIED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n9"},
  "status": {"allocatable": {"cpu": "1"}}}}
{"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Widget", "metadata": {"name": "w"}}}
{"type": "MODIFIED", "object": {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
  "metadata": {"name": "ghost", "namespace": "ns"},
  "spec": {"minAvailable": 1, "tasks": [{"name": "w", "replicas": 1,
    "template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}}]}}})"});
  REQUIRE(more.ok());
  CHECK_THAT(std::string(ApplyWatchEvent(c, (*more)[0], &notes).message()),
             Catch::Contains("MODIFIED: Node \"n9\": not found"));
  CHECK_FALSE(ApplyWatchEvent(c, (*more)[1], &notes).ok());
  CHECK_THAT(std::string(ApplyWatchEvent(c, (*more)[2], &notes).message()), Catch::Contains("the PodGroup of Job"));
  CHECK(c.generation() == generation);
}

TEST_CASE("Cluster: a pod the host read itself is applied as its watch event would be", "[cluster]") {
  Cluster c;
  std::vector<std::string> notes;
  PodSpec pod;
  pod.name = "p";
  pod.namespace_ = "ns";
  pod.containers.push_back({"c", {{"cpu", 1000}}, false, {}});
  PodSpec update = pod;
  update.phase = "Running";
  // MODIFIED before it exists: refused, as for a watch event.
  CHECK_THAT(std::string(ApplyPodEvent(c, WatchEvent::Type::kModified, PodSpec(pod), "e", &notes).message()),
             Catch::Contains("e: MODIFIED: Pod \"ns/p\": not found"));
  CHECK(c.pods().empty());
  REQUIRE(ApplyPodEvent(c, WatchEvent::Type::kAdded, PodSpec(pod), "e", &notes).ok());
  REQUIRE(ApplyPodEvent(c, WatchEvent::Type::kAdded, std::move(update), "e", &notes).ok());  // a relist
  CHECK(c.pods().at("ns/p")->phase == "Running");
  // Only changes of a pod: another type is refused, and nothing changes.
  const int64_t generation = c.generation();
  CHECK_FALSE(ApplyPodEvent(c, WatchEvent::Type::kSchedule, PodSpec(pod), "e", &notes).ok());
  CHECK(c.generation() == generation);
  REQUIRE(ApplyPodEvent(c, WatchEvent::Type::kDeleted, PodSpec(pod), "e", &notes).ok());
  CHECK(c.pods().empty());
  CHECK(notes.empty());
  REQUIRE(ApplyPodEvent(c, WatchEvent::Type::kDeleted, PodSpec(pod), "e", &notes).ok());
  REQUIRE(notes.size() == 1);  // a deletion of an absent pod is noted
  CHECK_THAT(notes[0], Catch::Contains("DELETED"));
  // A pod the readers would refuse is refused here too, and named.
  PodSpec bad = pod;
  bad.phase = "Bogus";
  CHECK_FALSE(ApplyPodEvent(c, WatchEvent::Type::kAdded, std::move(bad), "e", &notes).ok());
  CHECK(c.pods().empty());
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

QueueSpec Q(const std::string& name, const std::string& parent) {
  QueueSpec q;
  q.name = name;
  q.parent = parent;
  q.weight = 1;
  return q;
}

// Issue 57, class 4: a Queue's put checks the hierarchy it touches (its ancestors and
// subtree), not a build of every queue; it must accept and refuse exactly as that build.
TEST_CASE("Cluster: queue puts are checked as a build of every queue would check them", "[cluster][queues]") {
  std::mt19937 rng(56);
  for (int round = 0; round < 200; ++round) {
    Cluster c;
    std::map<std::string, QueueSpec> model;
    for (int step = 0; step < 40; ++step) {
      const std::string name = absl::StrCat("q", rng() % 10);
      const int p = static_cast<int>(rng() % 12);
      QueueSpec q = Q(name, p >= 10 ? (p == 10 ? "" : "root") : absl::StrCat("q", p));
      if (rng() % 8 == 0) {
        const std::string gone = absl::StrCat("q", rng() % 10);
        const bool had = model.erase(gone) > 0;
        CHECK(c.DeleteQueue(gone).ok() == had);
        continue;
      }
      std::map<std::string, QueueSpec> next = model;
      next[name] = q;
      SnapshotBuilder b;
      for (const auto& [_, spec] : next) b.AddQueue(spec);
      const bool build_ok = std::move(b).Build().ok();
      const absl::Status put = c.PutQueue(q);
      INFO("round " << round << " step " << step << ": " << put.message());
      REQUIRE(put.ok() == build_ok);
      if (put.ok()) model = std::move(next);
    }
  }
  // A chain as deep as allowed, then one more level refused; the refusal names the
  // deepest queue, and a put that would lift a subtree past the limit is refused too.
  Cluster c;
  for (int i = 0; i < kMaxQueueHierarchyDepth; ++i) {
    REQUIRE(c.PutQueue(Q(absl::StrCat("d", i), i == 0 ? "" : absl::StrCat("d", i - 1))).ok());
  }
  const absl::Status deeper = c.PutQueue(Q("one-more", absl::StrCat("d", kMaxQueueHierarchyDepth - 1)));
  CHECK_THAT(std::string(deeper.message()), Catch::Contains("Queue \"one-more\": spec.parent: the queue is more than"));
  REQUIRE(c.PutQueue(Q("top", "")).ok());
  CHECK_THAT(std::string(c.PutQueue(Q("d0", "top")).message()), Catch::Contains("levels below root"));  // lifts the chain
  CHECK_THAT(std::string(c.PutQueue(Q("d0", "d5")).message()),
             Catch::Contains("spec.parent: the queues' parents form a cycle (d0 -> d5 -> d4 -> d3 -> d2 -> d1 -> d0)"));
}

}  // namespace
}  // namespace vcsched
