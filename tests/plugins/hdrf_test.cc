// Hierarchical DRF (drf with enableHierarchy): the two cases of Volcano's TestHDRF
// (pkg/scheduler/plugins/drf/hdrf_test.go). That test asserts each job's allocated
// resources after one allocate, so these count binds per job rather than naming pods.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"

namespace vcsched {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;
using testing::MakeQueue;

struct Group {
  std::string name;
  std::string queue;
  std::string request;
};

struct HQueue {
  std::string name;
  std::string hierarchy;
  std::string weights;
};

// Each group has `pods_per_group` pending pods; all queues have spec.weight 1.
Snapshot Cluster(const std::string& node, const std::vector<HQueue>& queues, const std::vector<Group>& groups,
                 int pods_per_group) {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n", node));
  for (const HQueue& hq : queues) {
    QueueSpec q = MakeQueue(hq.name);
    q.annotations["volcano.sh/hierarchy"] = hq.hierarchy;
    q.annotations["volcano.sh/hierarchy-weights"] = hq.weights;
    b.AddQueue(q);
  }
  for (const Group& g : groups) {
    b.AddPodGroup(MakePodGroup("default/" + g.name, 0, g.queue));
    for (int i = 0; i < pods_per_group; ++i) {
      b.AddPod(MakePod(absl::StrCat("default/", g.name, "-p", i), g.name, g.request));
    }
  }
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  return *std::move(s);
}

PluginOption Only(const std::string& name, std::initializer_list<Switch> on) {
  PluginOption p;
  p.name = name;
  for (auto& s : p.switches) s = false;  // the Go test leaves every other switch unset: off
  for (Switch s : on) p.switches[static_cast<size_t>(s)] = true;
  return p;
}

// TestHDRF's configuration: one tier, hierarchical drf and proportion together.
SchedulerConfig HdrfConfig() {
  SchedulerConfig c;
  c.actions = {"allocate"};
  c.tiers.push_back(Tier{{Only("drf", {Switch::kHierarchy, Switch::kQueueOrder, Switch::kJobOrder}),
                          Only("proportion", {Switch::kJobEnqueued, Switch::kQueueOrder, Switch::kReclaimable})}});
  return c;
}

std::map<std::string, int> BindsPerGroup(const Decisions& d) {
  std::map<std::string, int> out;
  for (const Bind& b : d.binds) {
    const std::string name(b.task.substr(b.task.find('/') + 1));
    ++out[name.substr(0, name.rfind("-p"))];
  }
  return out;
}

TEST_CASE("HDRF: rescaling splits the node between sci and the two halves of eng", "[plugins][hdrf]") {
  const Snapshot s = Cluster("cpu=10,memory=10G,pods=110",
                             {{"root-sci", "root/sci", "100/50"},
                              {"root-eng-dev", "root/eng/dev", "100/50/50"},
                              {"root-eng-prod", "root/eng/prod", "100/50/50"}},
                             {{"pg1", "root-sci", "cpu=1,memory=1G"},
                              {"pg21", "root-eng-dev", "cpu=1"},
                              {"pg22", "root-eng-prod", "memory=1G"}},
                             10);
  absl::StatusOr<Decisions> d = RunSession(s, HdrfConfig());
  REQUIRE(d.ok());
  // Volcano: pg1 cpu 5000 memory 5G; pg21 cpu 5000; pg22 memory 5G.
  CHECK(BindsPerGroup(*d) == std::map<std::string, int>{{"pg1", 5}, {"pg21", 5}, {"pg22", 5}});
}

TEST_CASE("HDRF: a saturated resource does not block siblings that ask for another", "[plugins][hdrf]") {
  const Snapshot s = Cluster("cpu=30,memory=30G,pods=200",
                             {{"root-pg1", "root/pg1", "100/25"},
                              {"root-pg2", "root/pg2", "100/25"},
                              {"root-pg3-pg31", "root/pg3/pg31", "100/25/50"},
                              {"root-pg3-pg32", "root/pg3/pg32", "100/25/50"},
                              {"root-pg4", "root/pg4", "100/25"}},
                             {{"pg1", "root-pg1", "cpu=1"},
                              {"pg2", "root-pg2", "cpu=1"},
                              {"pg31", "root-pg3-pg31", "cpu=1"},
                              {"pg32", "root-pg3-pg32", "memory=1G"},
                              {"pg4", "root-pg4", "memory=1G"}},
                             30);
  absl::StatusOr<Decisions> d = RunSession(s, HdrfConfig());
  REQUIRE(d.ok());
  // Volcano: cpu 10 each for pg1, pg2, pg31; memory 15G each for pg32 and pg4.
  CHECK(BindsPerGroup(*d) ==
        std::map<std::string, int>{{"pg1", 10}, {"pg2", 10}, {"pg31", 10}, {"pg32", 15}, {"pg4", 15}});
}

TEST_CASE("HDRF: sharing a tier with proportion runs, with a warning", "[plugins][hdrf][config]") {
  const Snapshot s = Cluster("cpu=2,pods=110", {{"q", "root/q", "1/1"}}, {{"pg", "q", "cpu=1"}}, 1);
  absl::StatusOr<Decisions> d = RunSession(s, HdrfConfig());
  REQUIRE(d.ok());
  CHECK(d->binds.size() == 1);
  REQUIRE(d->warnings.size() == 1);
  CHECK_THAT(d->warnings[0], Catch::StartsWith("tiers[0]: drf with enableHierarchy and proportion share a tier"));

  SchedulerConfig flat = HdrfConfig();
  flat.tiers[0].plugins[0].switches[static_cast<size_t>(Switch::kHierarchy)] = false;
  absl::StatusOr<Decisions> without = RunSession(s, flat);
  REQUIRE(without.ok());
  CHECK(without->warnings.empty());
}

}  // namespace
}  // namespace vcsched
