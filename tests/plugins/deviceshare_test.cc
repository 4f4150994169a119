// deviceshare's shared GPUs: how cards and asks are read (Volcano's gpushare
// device_info_test.go and share_test.go, HEAD ed72c7c81), the filter, the cards a
// placement takes and the annotation its bind carries, undoing, the cluster's memory of
// the annotation, and explain's account of each card.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/model/gpu_share.h"
#include "src/model/vgpu.h"
#include "src/plugins/vgpu_cards.h"
#include "tests/testing/builders.h"
#include "vcsched/cluster.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"
#include "vcsched/statement.h"

namespace vcsched {
namespace {

std::string Config(const std::string& mode, bool predicates = true) {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n",
                      "  - name: gang\n", predicates ? "  - name: predicates\n" : "", "  - name: deviceshare\n",
                      "    arguments: {deviceshare.", mode, ": true}\n");
}

// A node of `cards` cards sharing `memory` (a quantity) between them.
std::string GpuNode(const std::string& name, int cards, const std::string& memory, const std::string& unhealthy = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      unhealthy.empty() ? "" : absl::StrCat(", annotations: {volcano.sh/gpu-unhealthy-ids: '", unhealthy, "'}"),
                      "}\nstatus:\n  capacity: &c {cpu: '64', memory: 256Gi, pods: '110', volcano.sh/gpu-memory: '", memory,
                      "', volcano.sh/gpu-number: '", cards, "'}\n  allocatable: *c\n");
}

// A pod of group `group` asking `gpu` of `resource` (gpu-memory or gpu-number); running on
// `node` holding `index` when given.
std::string GpuPod(const std::string& name, const std::string& group, const std::string& resource, const std::string& gpu,
                   const std::string& node = "", const std::string& index = "") {
  const std::string res = absl::StrCat("{cpu: '1', memory: 1Gi, volcano.sh/", resource, ": '", gpu, "'}");
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: ", group,
                      index.empty() ? "" : absl::StrCat(", volcano.sh/gpu-index: '", index, "'"),
                      "}}\nspec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: ", res, ", limits: ", res, "}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string Group(const std::string& name, int min_member, const std::string& phase = "Inqueue") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: c1}\nspec: {minMember: ", min_member, "}\nstatus: {phase: ", phase, "}\n");
}

// "c1/p->n1 volcano.sh/gpu-index=0" per bind.
std::vector<std::string> Binds(const Decisions& d) {
  std::vector<std::string> out;
  for (const Bind& b : d.binds) {
    std::string s = absl::StrCat(b.task, "->", b.node);
    for (const PodAnnotation& a : b.annotations) absl::StrAppend(&s, " ", a.key, "=", a.value);
    out.push_back(s);
  }
  return out;
}

Decisions Run(const std::string& yaml) {
  const Scenario sc = testing::LoadInline(yaml);
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, RunOptions());
  REQUIRE(d.ok());
  return *std::move(d);
}

PodSpec PodWithLimits(const std::vector<int64_t>& containers, const std::vector<int64_t>& init, const char* resource) {
  PodSpec p;
  for (int64_t v : containers) p.containers.emplace_back().limits[resource] = v * 1000;
  for (int64_t v : init) p.init_containers.emplace_back().limits[resource] = v * 1000;
  return p;
}

TEST_CASE("deviceshare (Volcano's TestGetGPUMemoryOfPod, TestGetGPUNumberOfPod): a pod's ask", "[plugins][deviceshare]") {
  for (const char* r : {internal::kGpuMemoryResource, internal::kGpuNumberResource}) {
    const auto ask = r == std::string(internal::kGpuMemoryResource) ? internal::PodGpuMemory : internal::PodGpuNumber;
    CHECK(ask(PodWithLimits({1, 3}, {}, r)) == 4);     // containers add up
    CHECK(ask(PodWithLimits({2}, {1, 3}, r)) == 3);    // the largest init container, when larger
    CHECK(ask(PodWithLimits({2, 3}, {4}, r)) == 5);
  }
  PodSpec requests_only;
  requests_only.containers.emplace_back().requests[internal::kGpuMemoryResource] = 4000;
  CHECK(internal::PodGpuMemory(requests_only) == 0);  // limits are what Volcano reads
}

TEST_CASE("deviceshare: a node's cards", "[plugins][deviceshare]") {
  NodeSpec n;
  CHECK_FALSE(internal::NodeGpuCards(n).has_value());
  n.capacity[internal::kGpuMemoryResource] = 64000;
  CHECK_FALSE(internal::NodeGpuCards(n).has_value());  // no gpu-number
  n.capacity[internal::kGpuNumberResource] = 0;
  CHECK_FALSE(internal::NodeGpuCards(n).has_value());
  n.capacity[internal::kGpuNumberResource] = 3000;  // 64 / 3 = 21 per card
  n.annotations[internal::kGpuUnhealthyAnnotation] = "1,x,7";
  const auto cards = internal::NodeGpuCards(n);
  REQUIRE(cards.has_value());
  REQUIRE(cards->size() == 2);
  CHECK((*cards)[0].id == 0);
  CHECK((*cards)[1].id == 2);
  CHECK((*cards)[1].memory == 21);
  PodSpec p;
  p.annotations[internal::kGpuIndexAnnotation] = "0,+2";
  CHECK(internal::PodGpuIndex(p) == std::vector<int64_t>{0, 2});
  p.annotations[internal::kGpuIndexAnnotation] = "0, 2";  // Go's Atoi takes no space
  CHECK(internal::PodGpuIndex(p).empty());
  CHECK(internal::GpuMemoryText(int64_t{8} << 30) == "8Gi");
  CHECK(internal::GpuMemoryText(512 << 20) == "512Mi");
  CHECK(internal::GpuMemoryText(4096) == "4096");
}

TEST_CASE("deviceshare (Volcano's share_test): an oversubscribed card has nothing free", "[plugins][deviceshare]") {
  // A card of 1000 held by a pod asking 3000: a pod asking 500 does not fit.
  auto o = testing::OpenInline(Config("GPUSharingEnable") + GpuNode("n1", 1, "1000") + Group("run", 1, "Running") +
                               GpuPod("big", "run", "gpu-memory", "3000", "n1", "0") + Group("pg", 1) +
                               GpuPod("small", "pg", "gpu-memory", "500"));
  const FitResult r = o->ssn->Predicate(*o->sc.snapshot.FindTask("c1/small"), *o->sc.snapshot.FindNode("n1"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.code == FitCode::kUnschedulable);
  CHECK(o->ssn->ReasonText(r.reasons.front()) == "GpuShare no enough gpu memory on node n1");
}

TEST_CASE("deviceshare: by memory, the lowest-numbered card with room, written on the bind", "[plugins][deviceshare]") {
  // Two cards of 16Gi; card 0 already holds 8Gi.
  const std::string state = Config("GPUSharingEnable") + GpuNode("n1", 2, "32Gi") + Group("run", 1, "Running") +
                            GpuPod("r", "run", "gpu-memory", "8Gi", "n1", "0") + Group("a", 1) +
                            GpuPod("a-0", "a", "gpu-memory", "8Gi") + Group("b", 1) + GpuPod("b-0", "b", "gpu-memory", "12Gi") +
                            Group("c", 1) + GpuPod("c-0", "c", "gpu-memory", "6Gi");
  const Decisions d = Run(state);
  // a-0 fills card 0; b-0 takes card 1 (12 of 16); c-0 fits nowhere (0 and 4Gi free).
  CHECK(Binds(d) == std::vector<std::string>{"c1/a-0->n1 volcano.sh/gpu-index=0", "c1/b-0->n1 volcano.sh/gpu-index=1"});
  CHECK(absl::StrContains(d.ToString(), "bind c1/a-0 -> n1 volcano.sh/gpu-index=0"));
}

TEST_CASE("deviceshare: whole cards by number, idle ones only", "[plugins][deviceshare]") {
  // Four cards; card 1 held. Two pods asking two cards each: the first gets 0,2; the second
  // finds one idle card.
  const Decisions d = Run(Config("GPUNumberEnable") + GpuNode("n1", 4, "64Gi") + Group("run", 1, "Running") +
                          GpuPod("r", "run", "gpu-number", "1", "n1", "1") + Group("a", 1) +
                          GpuPod("a-0", "a", "gpu-number", "2") + Group("b", 1) + GpuPod("b-0", "b", "gpu-number", "2"));
  CHECK(Binds(d) == std::vector<std::string>{"c1/a-0->n1 volcano.sh/gpu-index=0,2"});
}

TEST_CASE("deviceshare: unhealthy cards are not offered, and a node without the device is not filtered",
          "[plugins][deviceshare]") {
  const Decisions d = Run(Config("GPUSharingEnable") + GpuNode("n1", 2, "32Gi", "0") + Group("a", 2) +
                          GpuPod("a-0", "a", "gpu-memory", "10Gi") + GpuPod("a-1", "a", "gpu-memory", "10Gi"));
  CHECK(d.binds.empty());  // one healthy card of 16Gi: the gang of two does not fit
  const Decisions one = Run(Config("GPUSharingEnable") + GpuNode("n1", 2, "32Gi", "0") + Group("a", 1) +
                            GpuPod("a-0", "a", "gpu-memory", "10Gi"));
  CHECK(Binds(one) == std::vector<std::string>{"c1/a-0->n1 volcano.sh/gpu-index=1"});
}

TEST_CASE("deviceshare: a discarded gang gives back its cards and drops its annotations", "[plugins][deviceshare]") {
  auto o = testing::OpenInline(Config("GPUSharingEnable") + GpuNode("n1", 1, "16Gi") + Group("a", 1) +
                               GpuPod("a-0", "a", "gpu-memory", "10Gi") + Group("b", 1) + GpuPod("b-0", "b", "gpu-memory", "10Gi"));
  Session& ssn = *o->ssn;
  const TaskIndex a = *o->sc.snapshot.FindTask("c1/a-0");
  const TaskIndex b = *o->sc.snapshot.FindTask("c1/b-0");
  const NodeIndex n1 = *o->sc.snapshot.FindNode("n1");
  Statement stmt(ssn);
  REQUIRE(stmt.Allocate(a, n1).ok());
  REQUIRE(ssn.pod_annotations(a) != nullptr);
  CHECK(ssn.pod_annotations(a)->front().value == "0");
  CHECK_FALSE(ssn.Predicate(b, n1).ok());  // the card has 6Gi left
  stmt.Discard();
  CHECK(ssn.pod_annotations(a) == nullptr);
  CHECK(ssn.Predicate(b, n1).ok());
}

TEST_CASE("deviceshare: without predicates the filter runs but no card is taken", "[plugins][deviceshare]") {
  // Two cards of 16Gi, three pods of 10Gi: the node's 32Gi holds three at its level.
  const std::string pods = Group("a", 1) + GpuPod("a-0", "a", "gpu-memory", "10Gi") + Group("b", 1) +
                           GpuPod("b-0", "b", "gpu-memory", "10Gi") + Group("c", 1) + GpuPod("c-0", "c", "gpu-memory", "10Gi");
  CHECK(Binds(Run(Config("GPUSharingEnable") + GpuNode("n1", 2, "32Gi") + pods)) ==
        std::vector<std::string>{"c1/a-0->n1 volcano.sh/gpu-index=0", "c1/b-0->n1 volcano.sh/gpu-index=1"});
  // As in Volcano, where the predicates plugin's allocation hook takes the cards.
  CHECK(Binds(Run(Config("GPUSharingEnable", false) + GpuNode("n1", 2, "32Gi") + pods)) ==
        std::vector<std::string>{"c1/a-0->n1", "c1/b-0->n1", "c1/c-0->n1"});
}

TEST_CASE("deviceshare: a cluster keeps the annotation, so the next session counts the card", "[plugins][deviceshare]") {
  const Scenario sc = testing::LoadInline(Config("GPUSharingEnable") + GpuNode("n1", 1, "16Gi") + Group("a", 1) +
                                          GpuPod("a-0", "a", "gpu-memory", "10Gi"));
  Cluster cluster = Cluster::FromSnapshot(sc.snapshot);
  absl::StatusOr<Snapshot> first = cluster.Snapshot();
  REQUIRE(first.ok());
  absl::StatusOr<Decisions> d = RunSession(*first, *sc.config, RunOptions());
  REQUIRE(d.ok());
  REQUIRE(d->binds.size() == 1);
  cluster.Apply(*d, 100);
  CHECK(cluster.pods().at("c1/a-0")->annotations.at("volcano.sh/gpu-index") == "0");
  const Scenario more = testing::LoadInline(Group("b", 1) + GpuPod("b-0", "b", "gpu-memory", "10Gi"));
  REQUIRE(cluster.PutPodGroup(more.snapshot.jobs().front().pod_group).ok());
  for (const TaskInfo& t : more.snapshot.tasks()) REQUIRE(cluster.PutPod(*t.pod).ok());
  absl::StatusOr<Snapshot> second = cluster.Snapshot();
  REQUIRE(second.ok());
  absl::StatusOr<Decisions> d2 = RunSession(*second, *sc.config, RunOptions());
  REQUIRE(d2.ok());
  CHECK(d2->binds.empty());  // card 0 holds a-0's 10Gi
}

TEST_CASE("deviceshare: explain names each card's free memory", "[plugins][deviceshare][explain]") {
  const Scenario sc = testing::LoadInline(Config("GPUSharingEnable") + GpuNode("n1", 2, "32Gi") + Group("run", 1, "Running") +
                                          GpuPod("r0", "run", "gpu-memory", "12Gi", "n1", "0") +
                                          GpuPod("r1", "run", "gpu-memory", "10Gi", "n1", "1") + Group("a", 1) +
                                          GpuPod("a-0", "a", "gpu-memory", "8Gi"));
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config);
  REQUIRE(r.ok());
  const std::string text = ExplanationToText(r->explanation);
  INFO(text);
  CHECK(absl::StrContains(text, "GpuShare no enough gpu memory on node n1 (no card with 8Gi free: gpu0 4Gi, gpu1 6Gi)"));
}

TEST_CASE("deviceshare: arguments Volcano's scheduler refuses, and switches not modelled", "[plugins][deviceshare]") {
  const Registry& reg = Registry::BuiltIn();
  SchedulerConfig cfg;
  cfg.actions = {"allocate"};
  PluginOption p{"deviceshare", {}, {}};
  p.arguments.Set("deviceshare.GPUSharingEnable", Value::Bool(true));
  p.arguments.Set("deviceshare.GPUNumberEnable", Value::Bool(true));
  cfg.tiers.push_back({{p}});
  const absl::Status both = reg.ValidateConfig(cfg);
  REQUIRE_FALSE(both.ok());
  CHECK(absl::StrContains(both.message(), "GPUSharingEnable and deviceshare.GPUNumberEnable are both true"));
  cfg.tiers[0].plugins[0].arguments.Erase("deviceshare.GPUNumberEnable");
  cfg.tiers[0].plugins[0].arguments.Set("deviceshare.VGPUEnable", Value::Bool(true));
  CHECK_FALSE(reg.ValidateConfig(cfg).ok());  // gpu-share and vgpu together
  const Decisions d = Run(std::string(
      "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n"
      "  - name: deviceshare\n    arguments: {deviceshare.AscendHAMiVNPUEnable: true}\n") + GpuNode("n1", 1, "16Gi"));
  REQUIRE_FALSE(d.warnings.empty());
  CHECK(absl::StrContains(d.warnings.front(), "deviceshare.AscendHAMiVNPUEnable is not modelled yet"));
}

// ---- HAMi vGPU ----

// A node registering `cards` cards of `memory` MiB, each shared by up to 10 pods.
std::string VgpuNodeYaml(const std::string& name, int cards, int memory, const std::string& type = "NVIDIA-A100") {
  std::string reg;
  for (int i = 0; i < cards; ++i) absl::StrAppend(&reg, "GPU-", name, "-", i, ",10,", memory, ",", type, ",true,hami-core:");
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name, ", annotations: {volcano.sh/node-vgpu-register: '",
                      reg, "'}}\nstatus:\n  capacity: &c {cpu: '64', memory: 256Gi, pods: '110', volcano.sh/vgpu-number: '",
                      cards * 10, "', volcano.sh/vgpu-memory: '", cards * memory, "', volcano.sh/vgpu-cores: '", cards * 100,
                      "'}\n  allocatable: *c\n");
}

std::string VgpuPod(const std::string& name, const std::string& group, const std::string& asks,
                    const std::string& node = "", const std::string& ids = "", const std::string& annotations = "") {
  const std::string res = absl::StrCat("{cpu: '1', memory: 1Gi", asks.empty() ? "" : ", ", asks, "}");
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: ", group,
                      ids.empty() ? "" : absl::StrCat(", volcano.sh/vgpu-ids-new: '", ids, "'"), annotations,
                      "}}\nspec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: ", res, ", limits: ", res, "}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string VgpuConfig(const std::string& extra = "") {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n",
                      "  - name: gang\n  - name: predicates\n  - name: deviceshare\n",
                      "    arguments: {deviceshare.VGPUEnable: true", extra, "}\n");
}

TEST_CASE("deviceshare vGPU: the register annotation and a pod's asks", "[plugins][deviceshare][vgpu]") {
  NodeSpec n;
  n.annotations[internal::kVgpuRegisterAnnotation] = "GPU-a,10,30000,NVIDIA-T4,true,hami-core:GPU-b,4,20000,NVIDIA,false,mig:";
  CHECK_FALSE(internal::NodeVgpuCards(n).has_value());  // no vGPU allocatable
  for (const char* r : {internal::kVgpuNumberResource, internal::kVgpuMemoryResource, internal::kVgpuCoresResource}) {
    n.allocatable[r] = 10000;
  }
  auto cards = internal::NodeVgpuCards(n);
  REQUIRE(cards.has_value());
  REQUIRE(cards->size() == 2);
  CHECK((*cards)[1].uuid == "GPU-b");
  CHECK((*cards)[1].number == 4);
  CHECK((*cards)[1].memory == 20000);
  n.annotations[internal::kVgpuRegisterAnnotation] = "GPU-a,10,30000,NVIDIA:";  // fewer than six fields
  CHECK_FALSE(internal::NodeVgpuCards(n).has_value());
  PodSpec p;
  Container& c = p.containers.emplace_back();
  c.limits[internal::kVgpuMemoryResource] = 4096000;  // memory alone: one card
  c.limits[internal::kVgpuCoresResource] = 30000;
  const auto asks = internal::PodVgpuRequests(p);
  REQUIRE(asks.size() == 1);
  CHECK(asks[0].cards == 1);
  CHECK(asks[0].memory == 4096);
  CHECK(asks[0].memory_percent == 101);
  CHECK(asks[0].cores == 30);
  const std::vector<std::vector<internal::VgpuGrant>> grants = {{{"GPU-a", "NVIDIA", 4096, 30}, {"GPU-b", "NVIDIA", 1, 0}}, {}};
  const std::string text = internal::EncodeVgpuGrants(grants);
  CHECK(text == "GPU-a,NVIDIA,4096,30:GPU-b,NVIDIA,1,0:;");
  const auto back = internal::DecodeVgpuGrants(text);
  REQUIRE(back.size() == 2);
  CHECK(back[0].size() == 2);
  CHECK(back[0][1].uuid == "GPU-b");
}

TEST_CASE("deviceshare vGPU (Volcano's TestVgpuScore, Test_FilterNode): binpack's score, whole cards", "[plugins][deviceshare][vgpu]") {
  // One card of 30000 MiB with 3000 in use by one pod; a pod asking 1000 MiB: binpack
  // scores the card's use after it, 100 x 4000 / 30000.
  internal::VgpuNode node("node1", {{0, "GPU-0", 10, 30000, "NVIDIA"}});
  PodSpec holder;
  node.AddRunning(0, holder, {{{"GPU-0", "NVIDIA", 3000, 0}}});
  PodSpec p;
  Container& c = p.containers.emplace_back();
  c.limits[internal::kVgpuNumberResource] = 1000;
  c.limits[internal::kVgpuMemoryResource] = 1000000;
  const internal::VgpuFit binpack = node.Fit(p, "binpack", false);
  REQUIRE(binpack.fit);
  CHECK(binpack.score == Approx(100.0 * 4000 / 30000));
  CHECK(node.cards()[0].used_mem == 3000);  // a filter leaves the node as it was
  // Spread scores an idle card 100 only before it is taken; HEAD scores after, so 0 (the
  // Go test's one-sided check lets both through).
  CHECK(node.Fit(p, "spread", false).score == 0);
  // Three cards of 30000, 20000 and 30000 MiB; a pod asking three whole cards (cores 100,
  // no memory: each card's whole memory) fits, one card each.
  internal::VgpuNode three("node1", {{0, "A", 10, 30000, "NVIDIA"}, {1, "B", 10, 20000, "NVIDIA"}, {2, "C", 10, 30000, "NVIDIA"}});
  PodSpec whole;
  Container& w = whole.containers.emplace_back();
  w.limits[internal::kVgpuNumberResource] = 3000;
  w.limits[internal::kVgpuCoresResource] = 100000;
  const internal::VgpuFit fit = three.Fit(whole, "binpack", true);
  REQUIRE(fit.fit);
  REQUIRE(fit.grants.size() == 1);
  CHECK(fit.grants[0].size() == 3);
  CHECK(three.cards()[1].used_mem == 20000);
  CHECK_FALSE(three.Fit(whole, "", false).fit);  // every card is now exclusively held
}

TEST_CASE("deviceshare vGPU: a bind carries the card assignment, the highest-numbered card first", "[plugins][deviceshare][vgpu]") {
  const Scenario sc = testing::LoadInline(VgpuConfig() + VgpuNodeYaml("n1", 2, 16000) + Group("a", 1) +
                                          VgpuPod("a-0", "a", "volcano.sh/vgpu-memory: '4000', volcano.sh/vgpu-cores: '30'"));
  RunOptions opts;
  opts.now_seconds = 1767225600;
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
  REQUIRE(d.ok());
  REQUIRE(d->binds.size() == 1);
  Labels got;
  for (const PodAnnotation& a : d->binds[0].annotations) got[a.key] = a.value;
  CHECK(got == Labels{{"volcano.sh/bind-phase", "allocating"},
                      {"volcano.sh/bind-time", "1767225600"},
                      {"volcano.sh/devices-to-allocate", "GPU-n1-1,NVIDIA,4000,30:"},
                      {"volcano.sh/vgpu-ids-new", "GPU-n1-1,NVIDIA,4000,30:"},
                      {"volcano.sh/vgpu-node", "n1"},
                      {"volcano.sh/vgpu-time", "1767225600"}});
}

TEST_CASE("deviceshare vGPU: cards held by running pods, exclusive cores, the podgroup spread policy", "[plugins][deviceshare][vgpu]") {
  // Card 1 is held whole (cores 100); card 0 has 10000 of 16000 MiB in use.
  const std::string state = VgpuConfig() + VgpuNodeYaml("n1", 2, 16000) + Group("run", 1, "Running") +
                            VgpuPod("r0", "run", "volcano.sh/vgpu-memory: '10000'", "n1", "GPU-n1-0,NVIDIA,10000,0:") +
                            VgpuPod("r1", "run", "volcano.sh/vgpu-memory: '1000'", "n1", "GPU-n1-1,NVIDIA,1000,100:");
  auto o = testing::OpenInline(state + Group("a", 1) + VgpuPod("big", "a", "volcano.sh/vgpu-memory: '8000'") + Group("b", 1) +
                               VgpuPod("small", "b", "volcano.sh/vgpu-memory: '5000'"));
  const NodeIndex n1 = *o->sc.snapshot.FindNode("n1");
  const FitResult big = o->ssn->Predicate(*o->sc.snapshot.FindTask("c1/big"), n1);
  REQUIRE_FALSE(big.ok());
  CHECK(o->ssn->ReasonText(big.reasons.front()) == "hami-vgpuDeviceSharing error");
  CHECK(o->ssn->Predicate(*o->sc.snapshot.FindTask("c1/small"), n1).ok());
  // Two pods of one group with the spread policy never share a card.
  const std::string spread = ", volcano.sh/vgpu-podgroup-policy: spread";
  const Decisions d = Run(VgpuConfig() + VgpuNodeYaml("n1", 2, 16000) + Group("g", 3) +
                          VgpuPod("g-0", "g", "volcano.sh/vgpu-memory: '1000'", "", "", spread) +
                          VgpuPod("g-1", "g", "volcano.sh/vgpu-memory: '1000'", "", "", spread) +
                          VgpuPod("g-2", "g", "volcano.sh/vgpu-memory: '1000'", "", "", spread));
  CHECK(d.binds.empty());  // two cards, three pods: the gang does not fit
}

TEST_CASE("deviceshare vGPU: a discarded placement keeps its cards counted for the session, as HEAD's does",
          "[plugins][deviceshare][vgpu]") {
  auto o = testing::OpenInline(VgpuConfig() + VgpuNodeYaml("n1", 1, 16000) + Group("a", 1) +
                               VgpuPod("a-0", "a", "volcano.sh/vgpu-memory: '10000'") + Group("b", 1) +
                               VgpuPod("b-0", "b", "volcano.sh/vgpu-memory: '10000'"));
  Session& ssn = *o->ssn;
  const TaskIndex a = *o->sc.snapshot.FindTask("c1/a-0");
  const TaskIndex b = *o->sc.snapshot.FindTask("c1/b-0");
  const NodeIndex n1 = *o->sc.snapshot.FindNode("n1");
  CHECK(ssn.Predicate(b, n1).ok());
  Statement stmt(ssn);
  REQUIRE(stmt.Allocate(a, n1).ok());
  REQUIRE(ssn.pod_annotations(a) != nullptr);
  stmt.Discard();
  CHECK(ssn.pod_annotations(a) == nullptr);
  // Volcano's Release reads the pod's own annotations, which never held the assignment.
  CHECK_FALSE(ssn.Predicate(b, n1).ok());
}

TEST_CASE("deviceshare vGPU: explain names each card's use", "[plugins][deviceshare][vgpu][explain]") {
  // Two cards of 16000 MiB, 10000 in use on each: the node has 12000 left, no card 8000.
  const Scenario sc = testing::LoadInline(VgpuConfig() + VgpuNodeYaml("n1", 2, 16000) + Group("run", 1, "Running") +
                                          VgpuPod("r0", "run", "volcano.sh/vgpu-memory: '10000'", "n1", "GPU-n1-0,NVIDIA,10000,20:") +
                                          VgpuPod("r1", "run", "volcano.sh/vgpu-memory: '10000'", "n1", "GPU-n1-1,NVIDIA,10000,0:") +
                                          Group("b", 1) + VgpuPod("b-0", "b", "volcano.sh/vgpu-memory: '8000'"));
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config);
  REQUIRE(r.ok());
  const std::string text = ExplanationToText(r->explanation);
  INFO(text);
  CHECK(absl::StrContains(text, "hami-vgpuDeviceSharing error (not enough gpu fitted on this node; GPU-n1-0 1/10 pods, 6000 MiB free, 80% cores free; GPU-n1-1 1/10 pods, 6000 MiB free, 100% cores free)"));
}

}  // namespace
}  // namespace vcsched
