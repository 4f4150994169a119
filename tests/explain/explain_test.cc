// Explain (docs/EXPLAIN.md): one scenario per reason code with its stage and numbers,
// hints applied and scheduled again, scores, would-fit, determinism, and decisions that
// never change when a session explains.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "vcsched/cluster.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/plugin.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr char kProportion[] = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, backfill"
tiers:
- plugins: [{name: priority}, {name: gang}, {name: conformance}]
- plugins: [{name: overcommit}, {name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack}]
---
)";
// No fair share: node fit and the gang decide.
constexpr char kPlain[] = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins: [{name: priority}, {name: gang}]
- plugins: [{name: predicates}, {name: nodeorder}]
---
)";
constexpr char kCapacity[] = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins: [{name: priority}, {name: gang}]
- plugins: [{name: predicates}, {name: capacity}, {name: nodeorder}]
---
)";

std::string Node(const std::string& name, const std::string& cpu, const std::string& spec = "{}") {
  return absl::StrCat("apiVersion: v1\nkind: Node\nmetadata: {name: ", name, ", labels: {kubernetes.io/hostname: ", name,
                      "}}\nspec: ", spec, "\nstatus: {allocatable: {cpu: '", cpu, "', memory: 16Gi, pods: '20'}}\n---\n");
}
std::string Queue(const std::string& name, int weight, const std::string& extra = "", const std::string& state = "Open") {
  return absl::StrCat("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      "}\nspec: {weight: ", weight, extra.empty() ? "" : ", ", extra, "}\nstatus: {state: ", state,
                      "}\n---\n");
}
// A PodGroup and its `pods` pods of `cpu` each; `running` of them already run on `node`.
std::string Job(const std::string& name, const std::string& queue, int pods, const std::string& cpu, int min_member,
                const std::string& phase = "Inqueue", const std::string& min_resources = "",
                const std::string& pod_spec = "", int running = 0, const std::string& node = "") {
  std::string out = absl::StrCat(
      "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
      ", namespace: ns, creationTimestamp: '2026-01-01T00:00:00Z'}\nspec: {minMember: ", min_member, ", queue: ", queue,
      min_resources.empty() ? "" : absl::StrCat(", minResources: ", min_resources), "}\nstatus: {phase: ", phase,
      "}\n---\n");
  for (int i = 0; i < pods; ++i) {
    const bool runs = i < running;
    absl::StrAppend(&out, "apiVersion: v1\nkind: Pod\nmetadata: {name: ", name, "-", i,
                    ", namespace: ns, creationTimestamp: '2026-01-01T00:00:00Z', annotations: "
                    "{scheduling.k8s.io/group-name: ", name, "}}\nspec:\n  schedulerName: volcano\n",
                    runs ? absl::StrCat("  nodeName: ", node, "\n") : "", pod_spec,
                    "  containers: [{name: c, resources: {requests: {cpu: '", cpu, "', memory: 1Gi}}}]\nstatus: {phase: ",
                    runs ? "Running" : "Pending", "}\n---\n");
  }
  return out;
}

Scenario Load(const std::string& text) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"explain-case.yaml", text}});
  REQUIRE(sc.ok());
  return *std::move(sc);
}

ExplainResult Run(const std::string& text, int32_t max_reruns = 32) {
  const Scenario sc = Load(text);
  ExplainOptions opts;
  opts.max_reruns = max_reruns;
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, sc.config.value_or(DefaultSchedulerConfig()), opts);
  REQUIRE(r.ok());
  return *std::move(r);
}

const JobExplanation& Find(const ExplainResult& r, const std::string& job) {
  for (const JobExplanation& e : r.explanation.jobs) {
    if (e.job == job) return e;
  }
  FAIL("no explanation for " << job);
  throw std::logic_error("unreachable");
}

std::string Number(const JobExplanation& e, const std::string& key) {
  for (const auto& [k, v] : e.check) {
    if (k == key) return v;
  }
  return "<missing " + key + ">";
}

bool Has(const std::vector<std::string>& v, absl::string_view code) {
  return std::find(v.begin(), v.end(), code) != v.end();
}

const Hint* HintOf(const JobExplanation& e, const std::string& kind) {
  for (const Hint& h : e.hints) {
    if (h.kind == kind) return &h;
  }
  return nullptr;
}

// Pods of `job` bound by a session on `snapshot`.
size_t BoundPods(const Snapshot& snapshot, const SchedulerConfig& config, const std::string& job_name) {
  absl::StatusOr<Decisions> d = RunSession(snapshot, config);
  REQUIRE(d.ok());
  size_t n = 0;
  for (const Bind& b : d->binds) n += absl::StartsWith(b.task, absl::StrCat("ns/", job_name, "-"));
  return n;
}

TEST_CASE("Explain: a list of jobs limits the jobs explained, never the decisions or the queues", "[explain]") {
  const Scenario sc = Load(absl::StrCat(kProportion, Node("n1", "4"), Queue("a", 1), Queue("b", 1),
                                        Job("fits", "a", 2, "1", 2), Job("waits", "b", 2, "8", 2),
                                        Job("other", "b", 1, "1", 1)));
  const SchedulerConfig config = sc.config.value_or(DefaultSchedulerConfig());
  ExplainOptions all;
  all.max_reruns = 0;
  absl::StatusOr<ExplainResult> every = Explain(sc.snapshot, config, all);
  REQUIRE(every.ok());
  REQUIRE(every->explanation.jobs.size() == 3);
  ExplainOptions some = all;
  some.jobs = std::vector<std::string>{"ns/waits", "ns/absent", "ns/other", "ns/waits"};
  absl::StatusOr<ExplainResult> chosen = Explain(sc.snapshot, config, some);
  REQUIRE(chosen.ok());
  std::vector<std::string> jobs;
  for (const JobExplanation& e : chosen->explanation.jobs) jobs.push_back(e.job);
  CHECK(jobs == std::vector<std::string>{"ns/other", "ns/waits"});
  CHECK(Find(*chosen, "ns/waits").reason == Find(*every, "ns/waits").reason);
  CHECK(Find(*chosen, "ns/waits").message == Find(*every, "ns/waits").message);
  CHECK(chosen->decisions.binds.size() == every->decisions.binds.size());
  REQUIRE(chosen->explanation.queues.size() == every->explanation.queues.size());
  for (size_t i = 0; i < chosen->explanation.queues.size(); ++i) {
    CHECK(chosen->explanation.queues[i].name == every->explanation.queues[i].name);
    CHECK(chosen->explanation.queues[i].allocated == every->explanation.queues[i].allocated);
  }
  // With `job` too, only a job both name is explained.
  some.job = "ns/fits";
  absl::StatusOr<ExplainResult> none = Explain(sc.snapshot, config, some);
  REQUIRE(none.ok());
  CHECK(none->explanation.jobs.empty());
}

TEST_CASE("Explain: a PodGroup whose queue does not exist is QueueNotFound", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kProportion, Node("n1", "8"), Job("j", "ghost", 1, "1", 1, "Pending")));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "QueueNotFound");
  CHECK(e.stage == "enqueue");
  CHECK(Number(e, "queue") == "ghost");
}

TEST_CASE("Explain: a Closed queue refuses admission with QueueClosed", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kProportion, Node("n1", "8"), Queue("q", 1, "", "Closed"),
                                           Job("j", "q", 1, "1", 1, "Pending", "{cpu: '1'}")));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "QueueClosed");
  CHECK(e.stage == "enqueue");
  CHECK(Number(e, "state") == "Closed");
}

TEST_CASE("Explain: admission past the queue's capability is QueueCapabilityExceeded, with the numbers", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kProportion, Node("n1", "16"), Queue("q", 1, "capability: {cpu: '4'}"),
                                           Job("j", "q", 2, "3", 2, "Pending", "{cpu: '6'}")));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "QueueCapabilityExceeded");
  CHECK(e.stage == "enqueue");
  CHECK(Number(e, "cpu.minResources") == "6");
  CHECK(Number(e, "cpu.capability") == "4");
  CHECK(absl::StartsWith(e.message, "queue resource quota insufficient: insufficient cpu (queue q,"));  // Volcano's event
  CHECK(Number(e, "cpu.allocated") == "0");
  // The hint raises the capability; the session then admits and places the job.
  const Hint* h = HintOf(e, "raise-capability");
  REQUIRE(h != nullptr);
  CHECK(h->target == "q");
  // The least change: 6 runs the job, 5 does not.
  CHECK(h->change == "raise queue q's capability: cpu 4 -> 6 (the least the refusing check admits)");
  for (const auto& [capability, bound] : {std::pair<const char*, int>{"6", 2}, {"5", 0}}) {
    Scenario sc = Load(absl::StrCat(kProportion, Node("n1", "16"), Queue("q", 1, absl::StrCat("capability: {cpu: '", capability, "'}")),
                                    Job("j", "q", 2, "3", 2, "Pending", "{cpu: '6'}")));
    CHECK(BoundPods(sc.snapshot, *sc.config, "j") == bound);
  }
}

TEST_CASE("Explain: proportion's deserved capped by the capability is QueueCapabilityExceeded at allocate", "[explain]") {
  // One queue, 16 cpu: deserved would be 6 (the request) but the capability caps it at 4.
  const ExplainResult r =
      Run(absl::StrCat(kProportion, Node("n1", "16"), Queue("q", 1, "capability: {cpu: '4'}"), Job("j", "q", 2, "3", 2)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "QueueCapabilityExceeded");
  CHECK(e.stage == "allocate");
  CHECK(Number(e, "cpu.allocated") == "3");
  CHECK(Number(e, "cpu.request") == "3");
  CHECK(Number(e, "cpu.capability") == "4");
  const Hint* h = HintOf(e, "raise-capability");
  REQUIRE(h != nullptr);
  CHECK(h->change == "raise queue q's capability: cpu 4 -> 6 (the least the refusing check admits)");
}

TEST_CASE("Explain: overcommit's budget refuses admission with ClusterOvercommitted", "[explain]") {
  const ExplainResult r =
      Run(absl::StrCat(kProportion, Node("n1", "4"), Queue("q", 1), Job("j", "q", 1, "1", 1, "Pending", "{cpu: '10'}")));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "ClusterOvercommitted");
  CHECK(e.stage == "enqueue");
  CHECK(Number(e, "cpu.budget") == "4800m");  // 4 cpu x 1.2
  CHECK(Number(e, "cpu.minResources") == "10");
  CHECK(Number(e, "overcommit-factor") == "1.2");
  CHECK(absl::StartsWith(e.message, "resource in cluster is overused: overused cpu ("));  // Volcano's event
}

// A host plugin that refuses every PodGroup at enqueue, with no explanation of its own.
class NoAdmission : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    ssn.AddJobEnqueueableFn([](JobIndex) { return Vote::kReject; });
    return absl::OkStatus();
  }
};

TEST_CASE("Explain: a host plugin's refusal at enqueue is EnqueueRejected naming it", "[explain]") {
  Registry registry = Registry::BuiltIn();
  REQUIRE(registry.RegisterPlugin("no-admission", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new NoAdmission());
  }).ok());
  const std::string cfg = absl::StrReplaceAll(kPlain, {{"{name: gang}]", "{name: gang}, {name: no-admission}]"}});
  const Scenario sc = Load(absl::StrCat(cfg, Node("n1", "8"), Job("j", "default", 1, "1", 1, "Pending", "{cpu: '1'}")));
  ExplainOptions opts;
  opts.run.registry = &registry;
  opts.max_reruns = 0;
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config, opts);
  REQUIRE(r.ok());
  const JobExplanation& e = Find(*r, "ns/j");
  CHECK(e.reason == "EnqueueRejected");
  CHECK(e.stage == "enqueue");
  CHECK(Number(e, "plugin") == "no-admission");
}

TEST_CASE("Explain: a share too small by weight gives the smallest weight that works", "[explain]") {
  // 8 cpu shared by q1 (asks 6) and q2 (asks 4 x 2): equal weights deserve 4 each.
  auto text = [](int weight) {
    return absl::StrCat(kProportion, Node("n1", "8"), Queue("q1", weight), Queue("q2", 1), Job("big", "q1", 1, "6", 1),
                        Job("many", "q2", 4, "2", 1));
  };
  const ExplainResult r = Run(text(1));
  const JobExplanation& e = Find(r, "ns/big");
  CHECK(e.reason == "QueueShareExceeded");
  CHECK(Number(e, "cpu.deserved") == "4");
  const Hint* h = HintOf(e, "raise-weight");
  REQUIRE(h != nullptr);
  CHECK(h->amount == 3);  // 8 x 3/4 = 6 deserved; weight 2 gives 5.33
  CHECK(h->target == "q1");
  const Scenario sc = Load(text(static_cast<int>(h->amount)));
  CHECK(BoundPods(sc.snapshot, *sc.config, "big") == 1);
  const Scenario less = Load(text(static_cast<int>(h->amount) - 1));
  CHECK(BoundPods(less.snapshot, *less.config, "big") == 0);
}

TEST_CASE("Explain: fewer pods than minMember is NotEnoughTasks", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kPlain, Node("n1", "8"), Job("j", "default", 2, "1", 3)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "NotEnoughTasks");
  CHECK(e.stage == "allocate");
  CHECK(Number(e, "minMember") == "3");
  CHECK(Number(e, "validPods") == "2");
  CHECK(e.pods == 2);
}

TEST_CASE("Explain: a task past the queue's deserved share is QueueShareExceeded, nodes still reported", "[explain]") {
  // q2 holds 4 of 8 cpu and wants 4 more; q1 (same weight) deserves 4 and asks 6.
  const std::string text = absl::StrCat(kProportion, Node("n1", "8"), Queue("q1", 1), Queue("q2", 1),
                                        Job("big", "q1", 1, "6", 1), Job("other", "q2", 2, "4", 1, "Running", "", "", 1, "n1"));
  const ExplainResult r = Run(text);
  const JobExplanation& e = Find(r, "ns/big");
  CHECK(e.reason == "QueueShareExceeded");
  CHECK(e.stage == "allocate");
  CHECK(Number(e, "cpu.allocated") == "0");
  CHECK(Number(e, "cpu.request") == "6");
  CHECK(Number(e, "cpu.deserved") == "4");
  // What the nodes would have said: n1 has 4 free, the task asks 6.
  REQUIRE(e.nodes.size() == 1);
  CHECK(e.nodes[0].first == "Insufficient cpu (requests 6; on these nodes at most 4 free, 8 allocatable)");
  CHECK(e.nodes[0].second == 1);
  CHECK(Has(e.causes, "NoFeasibleNode"));
}

TEST_CASE("Explain: the quickstart's too-big is both a share and a GPU-fit problem", "[explain]") {
  std::ifstream in(VCSCHED_EXAMPLES_DIR "/quickstart.yaml");
  std::stringstream buf;
  buf << in.rdbuf();
  const ExplainResult r = Run(buf.str());
  const JobExplanation& e = Find(r, "ml-team/too-big");
  CHECK(e.reason == "QueueShareExceeded");
  CHECK(Has(e.causes, "NoFeasibleNode"));
  CHECK(Number(e, "nvidia.com/gpu.request") == "9");
  CHECK(Number(e, "nvidia.com/gpu.deserved") == "16");
  REQUIRE(e.nodes.size() == 1);
  CHECK(e.nodes[0].first.find("Insufficient nvidia.com/gpu (requests 9;") == 0);
  CHECK(e.nodes[0].first.find("8 allocatable") != std::string::npos);
  CHECK(e.nodes[0].second == 4);
  CHECK(Find(r, "ml-team/train").reason == "Scheduled");
}

TEST_CASE("Explain: a taint no pod tolerates is NoFeasibleNode naming the taint, and the toleration hint works", "[explain]") {
  const std::string nodes = absl::StrCat(Node("n1", "8", "{taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}"),
                                         Node("n2", "8", "{taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}"));
  const ExplainResult r = Run(absl::StrCat(kPlain, nodes, Job("j", "default", 2, "2", 2)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "NoFeasibleNode");
  CHECK(e.stage == "allocate");
  REQUIRE(e.nodes.size() == 1);
  CHECK(e.nodes[0].first == "node(s) had untolerated taint {dedicated: gpu} (NoSchedule)");
  CHECK(e.nodes[0].second == 2);
  const Hint* h = HintOf(e, "tolerate-taint");
  REQUIRE(h != nullptr);
  CHECK(h->target == "dedicated=gpu:NoSchedule");
  const std::string tolerating =
      "  tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]\n";
  const Scenario sc = Load(absl::StrCat(kPlain, nodes, Job("j", "default", 2, "2", 2, "Inqueue", "", tolerating)));
  CHECK(BoundPods(sc.snapshot, *sc.config, "j") == 2);
}

TEST_CASE("Explain: node verdicts name the selector and the affinity term that failed", "[explain]") {
  const std::string selector =
      "  nodeSelector: {accelerator: h100}\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
      "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]}}}\n";
  const ExplainResult r = Run(absl::StrCat(kPlain, Node("n1", "8"), Job("j", "default", 1, "1", 1, "Inqueue", "", selector)), 0);
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "NoFeasibleNode");
  REQUIRE(e.nodes.size() == 1);
  CHECK(e.nodes[0].first ==
        "node(s) didn't match Pod's node affinity/selector (nodeSelector accelerator=h100; required node affinity "
        "zone in (a,b))");
  CHECK(e.nodes_task == "ns/j-0");
}

TEST_CASE("Explain: a gang that fits only in part is GangShortfall, and adding nodes makes it run", "[explain]") {
  const std::string nodes = absl::StrCat(Node("n1", "4"), Node("n2", "4"));
  const ExplainResult r = Run(absl::StrCat(kPlain, nodes, Job("j", "default", 3, "4", 3)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "GangShortfall");
  CHECK(e.stage == "allocate");
  CHECK(Number(e, "minMember") == "3");
  CHECK(Number(e, "podsThatFit") == "2");
  CHECK(Has(e.causes, "NoFeasibleNode"));
  CHECK(e.placed == 0);
  const Hint* h = HintOf(e, "add-nodes");
  REQUIRE(h != nullptr);
  CHECK(h->amount == 1);
  CHECK(h->target == "n1");
  const Scenario sc = Load(absl::StrCat(kPlain, nodes, Node("n3", "4"), Job("j", "default", 3, "4", 3)));
  CHECK(BoundPods(sc.snapshot, *sc.config, "j") == 3);
}

TEST_CASE("Explain: a lower-priority pod in the way gives a preempt hint that works", "[explain]") {
  const std::string classes =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n"
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 1\n---\n";
  const std::string low = absl::StrReplaceAll(Job("low", "default", 1, "4", 1, "Running", "", "  priorityClassName: low\n", 1, "n1"),
                                              {{"spec: {minMember: 1,", "spec: {minMember: 1, priorityClassName: low,"}});
  const std::string high = absl::StrReplaceAll(Job("high", "default", 1, "4", 1, "Inqueue", "", "  priorityClassName: high\n"),
                                               {{"spec: {minMember: 1,", "spec: {minMember: 1, priorityClassName: high,"}});
  const ExplainResult r = Run(absl::StrCat(kPlain, classes, Node("n1", "4"), low, high));
  const JobExplanation& e = Find(r, "ns/high");
  CHECK(e.reason == "NoFeasibleNode");
  const Hint* h = HintOf(e, "preempt");
  REQUIRE(h != nullptr);
  CHECK(h->target == "ns/low-0");
  CHECK(h->amount == 1);
  const Scenario sc = Load(absl::StrCat(kPlain, classes, Node("n1", "4"), high));
  CHECK(BoundPods(sc.snapshot, *sc.config, "high") == 1);
}

TEST_CASE("Explain: minMember met with pods left over is PartiallyPlaced", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kPlain, Node("n1", "8"), Job("j", "default", 3, "4", 1)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "PartiallyPlaced");
  CHECK(e.placed == 2);
  CHECK(Number(e, "pending") == "1");
  CHECK(Has(e.causes, "NoFeasibleNode"));
}

TEST_CASE("Explain: pods pipelined onto resources evictions free are PreemptionPending", "[explain]") {
  std::ifstream in(VCSCHED_CONFORMANCE_DIR "/preempt/preempt-low-priority-job-in-same-queue.yaml");
  std::stringstream buf;
  buf << in.rdbuf();
  const ExplainResult r = Run(buf.str(), 0);
  const JobExplanation& e = Find(r, "c1/pg2");
  CHECK(e.reason == "PreemptionPending");
  CHECK(e.stage == "preempt");
  CHECK(e.pipelined == 1);
  CHECK(Number(e, "evictions") == "1");
}

TEST_CASE("Explain: a job no action reaches is NotTried, a placed one Scheduled", "[explain]") {
  const std::string only_enqueue = absl::StrReplaceAll(kPlain, {{"enqueue, allocate", "enqueue"}});
  const ExplainResult untried = Run(absl::StrCat(only_enqueue, Node("n1", "8"), Job("j", "default", 1, "1", 1)));
  CHECK(Find(untried, "ns/j").reason == "NotTried");
  const ExplainResult placed = Run(absl::StrCat(kPlain, Node("n1", "8"), Job("j", "default", 2, "1", 2)));
  const JobExplanation& e = Find(placed, "ns/j");
  CHECK(e.reason == "Scheduled");
  CHECK(e.placed == 2);
  CHECK(e.causes.empty());
}

TEST_CASE("Explain: capacity refuses a task past its capability with QueueCapabilityExceeded", "[explain]") {
  const ExplainResult r = Run(absl::StrCat(kCapacity, Node("n1", "16"), Queue("q", 1, "capability: {cpu: '4'}"),
                                           Job("j", "q", 2, "3", 1)));
  const JobExplanation& e = Find(r, "ns/j");
  CHECK(e.reason == "PartiallyPlaced");  // one pod fits the capability: minMember 1 is met
  CHECK(Has(e.causes, "QueueCapabilityExceeded"));
  const ExplainResult gang = Run(absl::StrCat(kCapacity, Node("n1", "16"), Queue("q", 1, "capability: {cpu: '4'}"),
                                              Job("j", "q", 2, "3", 2)));
  const JobExplanation& g = Find(gang, "ns/j");
  CHECK(g.reason == "QueueCapabilityExceeded");
  CHECK(g.stage == "allocate");
  CHECK(Number(g, "cpu.allocated") == "3");
  CHECK(Number(g, "cpu.request") == "3");
  CHECK(Number(g, "cpu.capability") == "4");
}

TEST_CASE("Explain: network topology that no HyperNode satisfies is TopologyPlacementFailed", "[explain]") {
  std::ifstream in(VCSCHED_EXAMPLES_DIR "/network-topology.yaml");
  std::stringstream buf;
  buf << in.rdbuf();
  const ExplainResult r = Run(buf.str(), 0);
  const JobExplanation& e = Find(r, "ml/train");
  CHECK(e.reason == "TopologyPlacementFailed");
  CHECK(e.stage == "allocate");
  CHECK(Number(e, "highestTierAllowed") == "1");
}

TEST_CASE("Explain: --job takes a PodGroup key or a Volcano Job's name, and an unknown name is an error", "[explain]") {
  const std::string text = absl::StrReplaceAll(absl::StrCat(kPlain, Node("n1", "8"), Job("j-uid", "default", 1, "1", 1)),
                                               {{"scheduling.k8s.io/group-name: j-uid}", "scheduling.k8s.io/group-name: j-uid, volcano.sh/job-name: j}"}});
  const Scenario sc = Load(text);
  ExplainOptions opts;
  opts.job = "ns/j";
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config, opts);
  REQUIRE(r.ok());
  REQUIRE(r->explanation.jobs.size() == 1);
  CHECK(r->explanation.jobs[0].job == "ns/j-uid");
  opts.job = "ns/nope";
  CHECK(Explain(sc.snapshot, *sc.config, opts).status().code() == absl::StatusCode::kNotFound);
}

TEST_CASE("Explain: scores are per plugin, sum to the total, sorted by total then name", "[explain]") {
  const std::string cfg = absl::StrReplaceAll(kPlain, {{"{name: nodeorder}", "{name: binpack}"}});
  const Scenario sc = Load(absl::StrCat(cfg, Node("a", "8"), Node("b", "8"), Node("c", "4"),
                                        Job("busy", "default", 1, "4", 1, "Running", "", "", 1, "b"),
                                        Job("j", "default", 1, "2", 1)));
  absl::StatusOr<std::vector<NodeScore>> s = ScoreTask(sc.snapshot, *sc.config, "ns/j-0");
  REQUIRE(s.ok());
  REQUIRE(s->size() == 3);
  for (size_t i = 0; i < s->size(); ++i) {
    double sum = 0;
    for (const auto& [plugin, v] : (*s)[i].plugins) sum += v;
    CHECK(sum == Approx((*s)[i].total));
    if (i > 0) {
      const NodeScore& p = (*s)[i - 1];
      CHECK((p.total > (*s)[i].total || (p.total == (*s)[i].total && p.node < (*s)[i].node)));
    }
  }
  // binpack prefers the fuller node: b (6 of 8 cpu with the pod), c (2 of 4), a (2 of 8).
  CHECK((*s)[0].node == "b");
  CHECK((*s)[1].node == "c");
  CHECK((*s)[2].node == "a");
  CHECK((*s)[0].plugins.size() == 1);
  CHECK((*s)[0].plugins[0].first == "binpack");
  CHECK(ScoreTask(sc.snapshot, *sc.config, "ns/none").status().code() == absl::StatusCode::kNotFound);
}

TEST_CASE("Explain: would_fit says where the job goes, or why not", "[explain]") {
  const Scenario sc = Load(absl::StrCat(kPlain, Node("n1", "4"), Job("fits", "default", 1, "2", 1),
                                        Job("huge", "default", 1, "64", 1)));
  absl::StatusOr<FitAnswer> a = WouldFit(sc.snapshot, *sc.config, "ns/fits");
  REQUIRE(a.ok());
  CHECK(a->fits);
  REQUIRE(a->placements.size() == 1);
  CHECK(a->placements[0] == std::make_pair(std::string("ns/fits-0"), std::string("n1")));
  absl::StatusOr<FitAnswer> b = WouldFit(sc.snapshot, *sc.config, "ns/huge");
  REQUIRE(b.ok());
  CHECK_FALSE(b->fits);
  CHECK(b->explanation.reason == "NoFeasibleNode");
}


// ---- lint: inputs that schedule but are almost certainly mistakes ----

std::vector<std::string> Warnings(const std::string& text) {
  const Scenario sc = Load(text);
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, sc.config.value_or(DefaultSchedulerConfig()));
  REQUIRE(d.ok());
  return d->warnings;
}

bool Warned(const std::vector<std::string>& warnings, const std::string& fragment) {
  for (const std::string& w : warnings) {
    if (w.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("Lint: an unknown priorityClassName is named for pods and PodGroups", "[explain][lint]") {
  std::string job = Job("j", "default", 1, "1", 1, "Inqueue", "", "  priorityClassName: gold\n");
  job = absl::StrReplaceAll(job, {{"spec: {minMember: 1,", "spec: {minMember: 1, priorityClassName: silver,"}});
  const std::vector<std::string> w = Warnings(absl::StrCat(kPlain, Node("n1", "4"), job));
  CHECK(Warned(w, "Pod \"ns/j-0\": spec.priorityClassName: PriorityClass \"gold\" is not in the input; priority 0 is used"));
  CHECK(Warned(w, "PodGroup \"ns/j\": spec.priorityClassName: PriorityClass \"silver\" is not in the input"));
}

TEST_CASE("Lint: two globalDefault PriorityClasses", "[explain][lint]") {
  const std::string classes =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 5\nglobalDefault: true\n---\n"
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 9\nglobalDefault: true\n---\n";
  const std::vector<std::string> w = Warnings(absl::StrCat(kPlain, classes, Node("n1", "4")));
  CHECK(Warned(w, "PriorityClasses \"a\", \"b\": globalDefault: more than one is the default; \"a\" (first by name) is used"));
}

TEST_CASE("Lint: host ports that collide on a node, hostPort or hostNetwork", "[explain][lint]") {
  const std::string port = "  containers: [{name: c, ports: [{containerPort: 80, hostPort: 8080}]}]\n";
  const std::string host_network = "  hostNetwork: true\n  containers: [{name: c, ports: [{containerPort: 8080}]}]\n";
  auto pod = [](const std::string& name, const std::string& spec) {
    return absl::StrCat("apiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                        ", namespace: ns}\nspec:\n  schedulerName: volcano\n  nodeName: n1\n", spec,
                        "status: {phase: Running}\n---\n");
  };
  const std::vector<std::string> w =
      Warnings(absl::StrCat(kPlain, Node("n1", "4"), pod("a", port), pod("b", host_network), pod("c", port)));
  CHECK(Warned(w, "Pod \"ns/b\": spec.containers[].ports: host port TCP/8080 on node \"n1\" is already held by pod \"ns/a\""));
  CHECK(Warned(w, "Pod \"ns/c\": spec.containers[].ports: host port TCP/8080"));
  // Different nodes or protocols do not collide.
  const std::string udp = "  containers: [{name: c, ports: [{containerPort: 80, hostPort: 8080, protocol: UDP}]}]\n";
  CHECK_FALSE(Warned(Warnings(absl::StrCat(kPlain, Node("n1", "4"), pod("a", port), pod("b", udp))), "is already held"));
}

TEST_CASE("Lint: a pod without containers", "[explain][lint]") {
  const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: empty, namespace: ns}\nspec: {schedulerName: volcano}\n---\n";
  CHECK(Warned(Warnings(absl::StrCat(kPlain, Node("n1", "4"), pod)), "Pod \"ns/empty\": spec.containers: none"));
}

TEST_CASE("Lint: a queue parent proportion ignores, and a capacity queue without deserved", "[explain][lint]") {
  const std::string queues = absl::StrCat(Queue("team", 1), Queue("sub", 1, "parent: team"));
  CHECK(Warned(Warnings(absl::StrCat(kProportion, Node("n1", "4"), queues, Job("j", "sub", 1, "1", 1))),
               "Queue \"sub\": spec.parent: \"team\" is ignored: proportion"));
  CHECK(Warned(Warnings(absl::StrCat(kCapacity, Node("n1", "4"), Queue("q", 1), Job("j", "q", 1, "1", 1))),
               "Queue \"q\": spec.deserved: not set"));
  CHECK_FALSE(Warned(Warnings(absl::StrCat(kCapacity, Node("n1", "4"), Queue("q", 1, "deserved: {cpu: '2'}"),
                                           Job("j", "q", 1, "1", 1))),
                     "spec.deserved"));
}

TEST_CASE("Lint: a guarantee above the capability, and a queue the input does not define", "[explain][lint]") {
  const std::vector<std::string> w =
      Warnings(absl::StrCat(kProportion, Node("n1", "4"),
                            Queue("q", 1, "capability: {cpu: '2'}, guarantee: {resource: {cpu: '3'}}"),
                            Job("j", "nowhere", 1, "1", 1)));
  CHECK(Warned(w, "Queue \"q\""));
  CHECK(Warned(w, "is above the capability"));
  CHECK(Warned(w, "PodGroup \"ns/j\": spec.queue: queue \"nowhere\" not found"));
}

std::vector<std::string> CaseFiles() {
  std::vector<std::string> out;
  for (const char* dir : {VCSCHED_CONFORMANCE_DIR, VCSCHED_VOLCANO_CASES_DIR}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.path().extension() == ".yaml") out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("Explain: explaining never changes a session's decisions, and is deterministic", "[explain][conformance]") {
  const std::vector<std::string> files = CaseFiles();
  REQUIRE(files.size() >= 100);
  for (const std::string& f : files) {
    CAPTURE(f);
    std::ifstream in(f);
    std::stringstream buf;
    buf << in.rdbuf();
    absl::StatusOr<Scenario> sc = LoadScenario({{f, buf.str()}});
    if (!sc.ok()) continue;  // cases of bad input are checked elsewhere
    const SchedulerConfig cfg = sc->config.value_or(DefaultSchedulerConfig());
    absl::StatusOr<Decisions> plain = RunSession(sc->snapshot, cfg);
    ExplainOptions opts;
    opts.max_reruns = 4;
    absl::StatusOr<ExplainResult> a = Explain(sc->snapshot, cfg, opts);
    absl::StatusOr<ExplainResult> b = Explain(sc->snapshot, cfg, opts);
    REQUIRE(plain.ok() == a.ok());
    if (!plain.ok()) continue;
    CHECK(a->decisions.ToString() == plain->ToString());
    CHECK(ExplanationToJson(a->explanation) == ExplanationToJson(b->explanation));
    // Every job in the session is explained with a documented code; a job with a
    // reason other than Scheduled or NotTried names the stage that stopped it.
    static const std::set<std::string> kCodes = {
        "QueueNotFound", "QueueClosed", "QueueCapabilityExceeded", "ClusterOvercommitted", "EnqueueRejected",
        "NotEnoughTasks", "QueueShareExceeded", "NoFeasibleNode", "TopologyPlacementFailed", "GangShortfall",
        "PreemptionPending", "PartiallyPlaced", "NotTried", "AwaitingPods", "Scheduled", "ResourceQuotaExceeded",
        "DisruptionBudgetProtected", "CooldownProtected"};
    for (const JobExplanation& e : a->explanation.jobs) {
      CAPTURE(e.job, e.reason);
      CHECK(kCodes.count(e.reason) == 1);
      for (const std::string& c : e.causes) CHECK(kCodes.count(c) == 1);
      if (e.reason == "Scheduled" || e.reason == "NotTried" || e.reason == "AwaitingPods") {
        CHECK(e.stage.empty());
      } else {
        CHECK(!e.stage.empty());
        CHECK(std::find(e.causes.begin(), e.causes.end(), e.reason) != e.causes.end());
      }
    }
  }
}

}  // namespace
}  // namespace vcsched
