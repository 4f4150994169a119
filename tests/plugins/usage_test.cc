// usage: Volcano's TestUsage_predicateFn, TestUsage_nodeOrderFn,
// TestUsage_prioritizeNodesDoesNotDoubleCountNodeOrder, TestShouldAddToShadowCache and the
// argument tests (pkg/scheduler/plugins/usage, HEAD ed72c7c81) converted into sessions: the
// Go tests set each node's NodeUsage by hand; here the nodes carry the node metrics
// annotations (docs/FORMAT.md "Node metrics") and the session's clock is the tests' "now".
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "tests/testing/builders.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr const char* kNow = "2026-03-01T12:00:00Z";

int64_t Now() {
  int64_t t = 0;
  ParseApiTime(kNow, &t);
  return t;
}

std::string Config(const std::string& args, const std::string& metrics = "") {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n"
                      "  - name: usage\n    arguments: ",
                      args, "\n", metrics);
}

// A node of 4 cpu / 8Gi (capacity and allocatable, as Volcano's BuildNode), with metrics
// taken `age` seconds before now when cpu >= 0.
std::string Node(const std::string& name, double cpu, double mem, int64_t age = 0) {
  std::string annotations;
  if (cpu >= 0) {
    int64_t t = Now() - age;
    const int64_t day = t / 86400 * 86400;
    const int64_t s = t - day;
    // The same day as kNow for the ages these tests use (under 12 hours).
    annotations = absl::StrCat(", annotations: {vcsched.io/cpu-usage-percent: \"", cpu,
                               "\", vcsched.io/memory-usage-percent: \"", mem, "\", vcsched.io/usage-time: \"2026-03-01T",
                               absl::Dec(s / 3600, absl::kZeroPad2), ":", absl::Dec(s % 3600 / 60, absl::kZeroPad2), ":",
                               absl::Dec(s % 60, absl::kZeroPad2), "Z\"}");
  }
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name, annotations,
                      "}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}, capacity: {cpu: \"4\", "
                      "memory: 8Gi, pods: \"10\"}}\n");
}

// A pod of 1 cpu / 1Gi; `node` and `status` place it, `extra_status` adds status fields,
// `limits` its container's limits.
std::string Pod(const std::string& name, const std::string& node = "", const std::string& phase = "Pending",
                const std::string& extra_status = "", const std::string& limits = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: pg1}}\n",
                      "spec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: {cpu: \"1\", memory: 1Gi}",
                      limits.empty() ? "" : absl::StrCat(", limits: {", limits, "}"), "}}]}\nstatus: {phase: ", phase,
                      extra_status, "}\n");
}

constexpr const char* kGroup =
    "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg1, namespace: c1}\n"
    "spec: {minMember: 0}\nstatus: {phase: Inqueue}\n";

constexpr const char* kDefaultArgs = "{usage.weight: 5, cpu.weight: 1, memory.weight: 1, thresholds: {cpu: 80, mem: 80}}";

using Opened = testing::OpenedSession;

std::unique_ptr<Opened> Open(const std::string& yaml) { return testing::OpenInline(yaml, Now()); }

double ScoreOn(const Opened& o, const std::string& task, const std::string& node) {
  const TaskIndex t = *o.sc.snapshot.FindTask(task);
  const std::vector<NodeIndex> nodes{*o.sc.snapshot.FindNode(node)};
  std::vector<double> scores(1);
  o.ssn->ScoreNodes(t, nodes, absl::MakeSpan(scores));
  return scores[0];
}

std::string Why(const Opened& o, const std::string& task, const std::string& node) {
  const FitResult r = o.ssn->Predicate(*o.sc.snapshot.FindTask(task), *o.sc.snapshot.FindNode(node));
  if (r.ok()) return "";
  CHECK(r.code == FitCode::kUnschedulableAndUnresolvable);
  return o.ssn->ReasonText(r.reasons.front());
}

TEST_CASE("usage (Volcano's TestUsage_predicateFn): a node past a threshold refuses pods while its metrics are fresh",
          "[plugins][usage]") {
  auto o = Open(Config(kDefaultArgs) + kGroup + Node("n1", 81, 60) + Node("n2", 60, 81) + Node("n3", 80, 79) +
                Node("n4", 90, 81, 6 * 60) + Node("n5", -1, -1) + Pod("p1") + Pod("p2"));
  for (const char* pod : {"c1/p1", "c1/p2"}) {
    CHECK(Why(*o, pod, "n1") == "the CPU load of the node exceeds the upper limit.");
    CHECK(Why(*o, pod, "n2") == "the memory load of the node exceeds the upper limit.");
    CHECK(Why(*o, pod, "n3").empty());  // at the threshold: not past it
    CHECK(Why(*o, pod, "n4").empty());  // six minutes old: ignored
    CHECK(Why(*o, pod, "n5").empty());  // no metrics
  }
  SECTION("five minutes old still counts, five minutes and a second does not") {
    auto edge = Open(Config(kDefaultArgs) + kGroup + Node("n1", 90, 10, 300) + Node("n2", 90, 10, 301) + Pod("p1"));
    CHECK_FALSE(Why(*edge, "c1/p1", "n1").empty());
    CHECK(Why(*edge, "c1/p1", "n2").empty());
  }
  SECTION("thresholds out of 0..100 keep the default of 80 (TestUsageThresholdsKeepDefaultWhenOutOfRange)") {
    auto d = Open(Config("{thresholds: {cpu: -1, mem: 101}}") + kGroup + Node("n1", 81, 10) + Node("n2", 10, 81) +
                  Node("n3", 79, 79) + Pod("p1"));
    CHECK_FALSE(Why(*d, "c1/p1", "n1").empty());
    CHECK_FALSE(Why(*d, "c1/p1", "n2").empty());
    CHECK(Why(*d, "c1/p1", "n3").empty());
  }
}

TEST_CASE("usage (Volcano's TestUsage_nodeOrderFn): scores from the free share of cpu and memory",
          "[plugins][usage]") {
  const std::string nodes = Node("n1", 30, 50) + Node("n2", 60, 50) + Node("n3", 60, 80) + Node("n4", 10, 20, 6 * 60) +
                            Node("n5", -1, -1);
  struct Case {
    const char* args;
    double want[5];
  } cases[] = {
      {kDefaultArgs, {300, 225, 150, 0, 0}},
      {"{usage.weight: 5, cpu.weight: 2, memory.weight: 8, thresholds: {cpu: 80, mem: 80}}", {270, 240, 120, 0, 0}},
  };
  for (const Case& c : cases) {
    auto o = Open(Config(c.args) + kGroup + nodes + Pod("p1"));
    const char* names[] = {"n1", "n2", "n3", "n4", "n5"};
    for (int i = 0; i < 5; ++i) {
      INFO(c.args << " on " << names[i]);
      CHECK(ScoreOn(*o, "c1/p1", names[i]) == Approx(c.want[i]));
    }
  }
}

TEST_CASE("usage (TestUsage_prioritizeNodesDoesNotDoubleCountNodeOrder): allocate picks the least loaded node",
          "[plugins][usage]") {
  const Scenario sc = testing::LoadInline(Config("{usage.weight: 5, cpu.weight: 1, memory.weight: 1}") + kGroup +
                                          Node("n1", 60, 50) + Node("n2", 30, 50) + Pod("p1"));
  RunOptions opts;
  opts.now_seconds = Now();
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
  REQUIRE(d.ok());
  CHECK(testing::BindStrings(*d) == std::vector<std::string>{"c1/p1->n2"});
}

TEST_CASE("usage (Volcano's TestShouldAddToShadowCache): which pods the metrics cannot see yet", "[plugins][usage]") {
  // A pod of 1 cpu / 1Gi counted as 0.7 cpu / 0.7Gi on an idle node of 4 cpu / 8Gi:
  // (1 - 700/4000 + 1 - 0.7/8) / 2 * 100 * 5.
  const double counted = (1 - 0.175 + 1 - 0.0875) / 2 * 100 * 5;
  const double unseen_none = 500;
  const auto score_with = [&](const std::string& placed, const std::string& metrics = "") {
    auto o = Open(Config(kDefaultArgs, metrics) + kGroup + Node("n1", 0, 0) + placed + Pod("p"));
    return ScoreOn(*o, "c1/p", "n1");
  };
  CHECK(score_with("") == Approx(unseen_none));
  CHECK(score_with(Pod("bound", "n1", "Pending")) == Approx(counted));          // bound, not running
  CHECK(score_with(Pod("run", "n1", "Running")) == Approx(counted));            // start time unknown
  CHECK(score_with(Pod("run", "n1", "Running", ", startTime: \"2026-03-01T11:59:50Z\"")) == Approx(counted));
  CHECK(score_with(Pod("run", "n1", "Running", ", startTime: \"2026-03-01T11:59:00Z\"")) == Approx(unseen_none));
  CHECK(score_with(Pod("done", "n1", "Succeeded")) == Approx(unseen_none));
  SECTION("the metrics interval of the configuration decides how recent is recent") {
    const std::string minute_ago = Pod("run", "n1", "Running", ", startTime: \"2026-03-01T11:59:00Z\"");
    CHECK(score_with(minute_ago, "metrics: {type: prometheus, interval: 2m}\n") == Approx(counted));
    CHECK(score_with(minute_ago, "metrics: {interval: not-a-duration}\n") == Approx(unseen_none));
  }
}

TEST_CASE("usage: estimates from requests, limits, the risk factor and best effort (Volcano's estimator tests)",
          "[plugins][usage]") {
  const auto score = [&](const std::string& args, const std::string& placed, double cpu = 0, double mem = 0) {
    auto o = Open(Config(args) + kGroup + Node("n1", cpu, mem) + placed + Pod("p"));
    return ScoreOn(*o, "c1/p", "n1");
  };
  const auto expect = [](double cpu_millis, double mem_gi, double cpu_pct = 0, double mem_pct = 0) {
    const double c = std::min(1.0, cpu_pct / 100 + cpu_millis / 4000);
    const double m = std::min(1.0, mem_pct / 100 + mem_gi / 8);
    return (1 - c + 1 - m) / 2 * 100 * 5;
  };
  const std::string burst = "{estimator: {request_ratio: 0.5, burst_ratio: 0.5}}";
  // request 1, limit 3: 0.5 * 1 + 0.5 * 2 = 1.5
  CHECK(score(burst, Pod("b", "n1", "Pending", "", "cpu: \"3\", memory: 3Gi")) == Approx(expect(1500, 1.5)));
  // no limit: the request is the limit, and the estimate stays within it
  CHECK(score("{estimator: {request_ratio: 1, burst_ratio: 1, risk_threshold: 0, risk_factor: 2}}",
              Pod("b", "n1", "Pending")) == Approx(expect(1000, 1)));
  // a node loaded past risk_threshold counts new pods at risk_factor times
  // a node loaded past risk_threshold counts new pods at risk_factor times (within the limit)
  const std::string roomy = Pod("b", "n1", "Pending", "", "cpu: \"2\", memory: 2Gi");
  CHECK(score("{estimator: {risk_threshold: 0.5, risk_factor: 1.5}}", roomy, 60, 60) ==
        Approx(expect(700 * 1.5, 0.7 * 1.5, 60, 60)));
  CHECK(score("{estimator: {risk_threshold: 0.7, risk_factor: 1.5}}", roomy, 60, 60) == Approx(expect(700, 0.7, 60, 60)));
  CHECK(score("{estimator: {risk_threshold: 0.5, risk_factor: 1.5}}", Pod("b", "n1", "Pending"), 60, 60) ==
        Approx(expect(1000, 1, 60, 60)));  // no limit: the request caps the estimate
  SECTION("a best-effort pod counts be_cpu and be_mem (an integer is millicores and MiB)") {
    const std::string be =
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: be, namespace: c1, annotations: {scheduling.k8s.io/group-name: "
        "pg1}}\nspec: {schedulerName: volcano, nodeName: n1, containers: [{name: c}]}\nstatus: {phase: Pending}\n";
    CHECK(score("{}", be) == Approx(expect(250, 200.0 / 1024)));
    CHECK(score("{estimator: {be_cpu: 500m, be_mem: 300Mi}}", be) == Approx(expect(500, 300.0 / 1024)));
    CHECK(score("{estimator: {be_cpu: 500, be_mem: 200}}", be) == Approx(expect(500, 200.0 / 1024)));
    CHECK(score("{estimator: {be_cpu: \"-1\", be_mem: bad}}", be) == Approx(expect(250, 200.0 / 1024)));
  }
  SECTION("out-of-range and wrongly typed arguments keep their defaults (TestUsageEstimatorConfig and others)") {
    const std::string placed = Pod("b", "n1", "Pending");
    CHECK(score("{estimator: {request_ratio: 1.5, burst_ratio: -0.1, risk_threshold: 2.0, risk_factor: 0.5}}", placed) ==
          Approx(expect(700, 0.7)));
    CHECK(score("{usage.weight: -1, cpu.weight: -1, memory.weight: -1}", placed) == Approx(expect(700, 0.7)));
  }
}

TEST_CASE("usage (TestUsageConfigKeepsDefaultForGenericStringValues): a quoted number keeps the default",
          "[plugins][usage]") {
  // n1: cpu 10%, memory 50%; n2: cpu 45%, memory 20%. Weights 1:1 prefer n1 (0.7 > 0.675),
  // memory.weight 3 prefers n2 (0.7375 > 0.6).
  const auto chosen = [](const std::string& args) {
    const Scenario sc = testing::LoadInline(Config(args) + kGroup + Node("n1", 10, 50) + Node("n2", 45, 20) + Pod("p1"));
    RunOptions opts;
    opts.now_seconds = Now();
    absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
    REQUIRE(d.ok());
    return testing::BindStrings(*d);
  };
  CHECK(chosen("{memory.weight: 3}") == std::vector<std::string>{"c1/p1->n2"});
  CHECK(chosen("{memory.weight: \"3\"}") == std::vector<std::string>{"c1/p1->n1"});
  CHECK(chosen("{}") == std::vector<std::string>{"c1/p1->n1"});
}

TEST_CASE("usage: pods placed in the session count on their node, and an undone placement does not",
          "[plugins][usage]") {
  // Two pending pods, two idle nodes alike: the first goes to n1 (name order), and its
  // shadow load sends the second to n2.
  const Scenario sc = testing::LoadInline(Config(kDefaultArgs) + kGroup + Node("n1", 10, 10) + Node("n2", 10, 10) +
                                          Pod("p1") + Pod("p2"));
  RunOptions opts;
  opts.now_seconds = Now();
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
  REQUIRE(d.ok());
  const std::vector<std::string> binds = testing::BindStrings(*d);
  REQUIRE(binds.size() == 2);
  CHECK(binds[0].substr(binds[0].size() - 2) != binds[1].substr(binds[1].size() - 2));
}

TEST_CASE("usage: node metrics annotations are read strictly and written back", "[plugins][usage]") {
  const auto load = [](const std::string& annotations) {
    return LoadScenario({{"nodes.yaml", absl::StrCat("apiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {",
                                                     annotations, "}}\nstatus: {allocatable: {cpu: \"4\"}}\n")}});
  };
  absl::StatusOr<Scenario> ok = load(
      "vcsched.io/cpu-usage-percent: \"12.5\", vcsched.io/memory-usage-percent: \"40\", vcsched.io/usage-time: "
      "\"2026-03-01T11:58:00Z\"");
  REQUIRE(ok.ok());
  const NodeSpec& n = ok->snapshot.nodes()[0].spec;
  REQUIRE(n.metrics.has_value());
  CHECK(n.metrics->cpu_percent == 12.5);
  CHECK(n.metrics->memory_percent == 40);
  CHECK(n.metrics->time == Now() - 120);
  CHECK(n.capacity.empty());  // only allocatable given
  const absl::StatusOr<Scenario> missing = load("vcsched.io/cpu-usage-percent: \"12.5\"");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(std::string(missing.status().message()),
             Catch::Contains("metadata.annotations[vcsched.io/memory-usage-percent]") &&
                 Catch::Contains("metadata.annotations[vcsched.io/usage-time]") && Catch::Contains("nodes.yaml"));
  const absl::StatusOr<Scenario> bad = load(
      "vcsched.io/cpu-usage-percent: \"-3\", vcsched.io/memory-usage-percent: \"x\", vcsched.io/usage-time: \"noon\"");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(std::string(bad.status().message()), Catch::Contains("\"-3\" is not a percentage") &&
                                                      Catch::Contains("\"x\" is not a percentage") &&
                                                      Catch::Contains("\"noon\" is not an RFC 3339 time"));
}

TEST_CASE("usage: a Cluster keeps node metrics, capacity, limits and start times, and prints them back",
          "[plugins][usage]") {
  const Scenario sc = testing::LoadInline(
      Config(kDefaultArgs, "metrics: {type: prometheus, interval: 1m}\n") + kGroup + Node("n1", 12.25, 40, 60) +
      Pod("run", "n1", "Running", ", startTime: \"2026-03-01T11:59:30Z\"", "cpu: \"2\", memory: 3Gi") + Pod("p"));
  const Cluster c = Cluster::FromSnapshot(sc.snapshot);
  const Scenario again = testing::LoadInline(ClusterToYaml(c, &*sc.config));
  const NodeSpec& n = again.snapshot.nodes()[0].spec;
  REQUIRE(n.metrics.has_value());
  CHECK(n.metrics->cpu_percent == 12.25);
  CHECK(n.metrics->memory_percent == 40);
  CHECK(n.metrics->time == Now() - 60);
  CHECK(n.capacity == sc.snapshot.nodes()[0].spec.capacity);
  const TaskInfo& run = again.snapshot.tasks()[*again.snapshot.FindTask("c1/run")];
  CHECK(run.pod->start_time == Now() - 30);
  CHECK(run.pod->containers[0].limits == sc.snapshot.tasks()[*sc.snapshot.FindTask("c1/run")].pod->containers[0].limits);
  CHECK(again.config->metrics == std::map<std::string, std::string>{{"type", "prometheus"}, {"interval", "1m"}});
  // The same session either way.
  RunOptions opts;
  opts.now_seconds = Now();
  absl::StatusOr<Decisions> a = RunSession(sc.snapshot, *sc.config, opts);
  absl::StatusOr<Decisions> b = RunSession(again.snapshot, *again.config, opts);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(testing::BindStrings(*a) == testing::BindStrings(*b));
}

}  // namespace
}  // namespace vcsched
