// Simulation over virtual time: hand-computed cases, the invariants every run keeps,
// determinism, and the workload reader's errors.
//
// The hand computations follow the loop's rules (docs/SIMULATE.md): a session runs at the
// first period boundary after a change, never twice at one boundary; a PodGroup enqueued
// in a session gets its pods from the controller at once, and they are bound by the
// next session; with bindLatency 0 a bound pod runs from the session that bound it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "src/simulate/sim_outputs.h"
#include "vcsched/io/scenario.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace {

std::string Node(const std::string& name, const std::string& cpu) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name, "}\nstatus:\n  allocatable: {cpu: \"",
                      cpu, "\", memory: 64Gi, pods: \"110\"}\n");
}

std::string Queue(const std::string& name, int weight) {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      "}\nspec: {weight: ", weight, ", reclaimable: true}\nstatus: {state: Open}\n");
}

// A Volcano Job template of `pods` pods of `cpu` cores each, indented for a workload entry.
std::string JobTemplate(int pods, const std::string& cpu, const std::string& queue = "default",
                        const std::string& extra_spec = "", int min_available = -1) {
  return absl::StrCat(
      "  template:\n    apiVersion: batch.volcano.sh/v1alpha1\n    kind: Job\n    metadata: {namespace: default}\n"
      "    spec:\n      minAvailable: ",
      min_available < 0 ? pods : min_available, "\n      schedulerName: volcano\n      queue: ", queue, "\n", extra_spec,
      "      tasks:\n      - name: worker\n        replicas: ", pods,
      "\n        template:\n          spec:\n            restartPolicy: Never\n            containers:\n"
      "            - name: main\n              image: busybox\n              resources: {requests: {cpu: \"",
      cpu, "\", memory: 1Gi}}\n");
}

const char* kHead = "apiVersion: vcsched/v1\nkind: Workload\nseed: 1\nperiod: 1s\nstart: 2026-01-01T00:00:00Z\n";

SimulationResult Run(const std::string& cluster, const std::string& workload, SimulationOptions options = {},
                     const SchedulerConfig* config = nullptr) {
  absl::StatusOr<ScenarioObjects> c = LoadObjects({{"cluster.yaml", cluster}});
  REQUIRE(c.ok());
  absl::StatusOr<Workload> w = ReadWorkload({{"workload.yaml", workload}});
  INFO(w.status().message());
  REQUIRE(w.ok());
  absl::StatusOr<SimulationResult> r =
      Simulate(*c, *w, config != nullptr ? *config : c->config.value_or(DefaultSchedulerConfig()), options);
  INFO(r.status().message());
  REQUIRE(r.ok());
  return *std::move(r);
}

const JobRecord& JobNamed(const SimulationResult& r, const std::string& key) {
  for (const JobRecord& j : r.jobs) {
    if (j.job == key) return j;
  }
  FAIL("no job " << key);
  return r.jobs.front();
}

// What every run must keep, whatever its input.
void CheckInvariants(const SimulationResult& r) {
  for (const TimelineRow& row : r.timeline) {
    for (size_t i = 0; i < r.resources.size(); ++i) {
      INFO("time " << row.time_s << " " << r.resources[i]);
      CHECK(row.allocated[i] <= row.capacity[i] + 1e-9);
      CHECK(row.allocated[i] >= -1e-9);
      CHECK(row.goodput[i] >= -1e-9);  // goodput is what jobs at their barrier hold: part of allocated
      CHECK(row.goodput[i] <= row.allocated[i] + 1e-9);
    }
    CHECK(row.pending_pods >= 0);
    CHECK(row.running_pods >= 0);
  }
  for (size_t k = 1; k < r.timeline.size(); ++k) CHECK(r.timeline[k - 1].time_s < r.timeline[k].time_s);
  for (size_t i = 0; i < r.resources.size(); ++i) CHECK(r.goodput[i] <= r.utilization[i] + 1e-9);
  for (const JobRecord& j : r.jobs) {
    INFO(j.job);
    CHECK(j.created_s >= 0);
    if (j.inqueue_s >= 0) CHECK(j.inqueue_s >= j.created_s);
    if (j.running_s >= 0) {
      CHECK(j.inqueue_s >= 0);
      CHECK(j.running_s >= j.inqueue_s);
    }
    if (j.phase == "Completed") {
      CHECK(j.finished_s >= j.running_s);
      CHECK(j.progress_s * 1000 >= static_cast<double>(j.duration_ms) - 1e-6);  // it ran its whole duration
      CHECK(j.finished_s - j.running_s >= static_cast<double>(j.duration_ms) / 1000 - 1e-6);
    }
  }
}

TEST_CASE("simulate: one node runs jobs one after another") {
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: train\n  arrival: {at: [0s, 0s, 0s]}\n",
                                            "  duration: {fixed: 10m}\n", JobTemplate(2, "2"));
  const SimulationResult r = Run(Node("n0", "4"), workload);
  CheckInvariants(r);
  REQUIRE(r.jobs.size() == 3);
  // Session 0 enqueues train-0 (the others would overcommit the node) and the
  // controller creates its pods; session 1 binds them; they run 600 s. Each later job
  // is enqueued by the session at the moment the one before finishes, and bound a
  // second after.
  const double expected[3][4] = {{0, 0, 1, 601}, {0, 601, 602, 1202}, {0, 1202, 1203, 1803}};
  for (int i = 0; i < 3; ++i) {
    const JobRecord& j = JobNamed(r, absl::StrCat("default/train-", i));
    CHECK(j.created_s == expected[i][0]);
    CHECK(j.inqueue_s == expected[i][1]);
    CHECK(j.running_s == expected[i][2]);
    CHECK(j.finished_s == expected[i][3]);
    CHECK(j.phase == "Completed");
  }
  CHECK(r.end_s == 1803);
  // cpu is held 1800 of 1803 seconds: the three one-second gaps between jobs.
  CHECK(r.utilization[0] == Approx(1800.0 / 1803.0));
  const std::string summary = SummaryJson(r);
  CHECK(summary.find("\"makespan_s\": 1803") != std::string::npos);
  CHECK(summary.find("\"p50\": 602, \"p90\": 1203, \"p99\": 1203") != std::string::npos);
}

TEST_CASE("simulate: a ResourceQuota's used follows the pods, so it admits one job at a time") {
  // 16 cpu would run all three jobs at once; the namespace's quota of 5 requests.cpu
  // admits one 4-cpu job (the job controller's minResources carry requests.cpu) until it
  // ends and the quota controller counts its pods out.
  const std::string quota =
      "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: team, namespace: default}\n"
      "spec: {hard: {requests.cpu: \"5\"}}\nstatus: {hard: {requests.cpu: \"5\"}, used: {requests.cpu: \"0\"}}\n";
  const std::string config = R"(---
apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, backfill"
tiers:
- plugins: [{name: priority}, {name: gang}, {name: conformance}]
- plugins: [{name: overcommit}, {name: drf}, {name: resourcequota}, {name: predicates}, {name: proportion}]
)";
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: train\n  arrival: {at: [0s, 0s, 0s]}\n",
                                            "  duration: {fixed: 10m}\n", JobTemplate(2, "2"));
  const SimulationResult r = Run(Node("n0", "16") + quota + config, workload);
  CheckInvariants(r);
  REQUIRE(r.jobs.size() == 3);
  for (int i = 0; i < 3; ++i) {
    const JobRecord& j = JobNamed(r, absl::StrCat("default/train-", i));
    CHECK(j.inqueue_s == 601 * i);
    CHECK(j.phase == "Completed");
  }
  // Without the quota the three run together.
  const SimulationResult free = Run(Node("n0", "16") + config, workload);
  for (int i = 0; i < 3; ++i) CHECK(JobNamed(free, absl::StrCat("default/train-", i)).inqueue_s == 0);
}

TEST_CASE("simulate: queues share the cluster by weight over time") {
  // overcommit-factor 10 lets enqueue admit both queues' backlogs at once; proportion
  // then deserves the 4 cores by weight, 1:3, while both have work waiting.
  const std::string config =
      "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
      "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
      "- plugins:\n  - name: overcommit\n    arguments: {overcommit-factor: 10}\n  - name: drf\n"
      "  - name: predicates\n  - name: proportion\n  - name: nodeorder\n  - name: binpack\n";
  const std::string cluster = config + Node("n0", "4") + Queue("light", 1) + Queue("heavy", 3);
  std::string workload = absl::StrCat(kHead, "jobs:\n");
  for (const char* q : {"light", "heavy"}) {
    absl::StrAppend(&workload, "- name: ", q, "\n  arrival: {at: [0s, 0s, 0s, 0s, 0s, 0s, 0s, 0s, 0s, 0s, 0s, 0s]}\n",
                    "  duration: {fixed: 5m}\n", JobTemplate(1, "1", q));
  }
  const SimulationResult r = Run(cluster, workload, {});
  CheckInvariants(r);
  // The first session with pods (t = 1 s) binds by the deserved shares: 3 cores to
  // heavy, 1 to light, each at a share of 1.
  std::map<std::string, const QueueRow*> at_one;
  for (const QueueRow& row : r.queues) {
    if (row.time_s == 1) at_one[row.queue] = &row;
  }
  REQUIRE(at_one.count("heavy"));
  REQUIRE(at_one.count("light"));
  CHECK(at_one["heavy"]->allocated[0] == 3);
  CHECK(at_one["heavy"]->deserved[0] == 3);
  CHECK(at_one["light"]->allocated[0] == 1);
  CHECK(at_one["light"]->deserved[0] == 1);
  CHECK(at_one["light"]->share == 1);
  // Over the run the heavier queue's jobs finish sooner on average.
  double light = 0, heavy = 0;
  for (const JobRecord& j : r.jobs) {
    CHECK(j.phase == "Completed");
    (j.queue == "heavy" ? heavy : light) += j.finished_s;
  }
  CHECK(heavy < light);
}

TEST_CASE("simulate: a PodEvicted policy restarts the job") {
  // The job's pod runs on n0 (the only node at first); n0 is removed at 5 minutes. The
  // policy restarts the job, whose work starts over on n1 (added at 1 minute).
  std::string cluster = Node("n0", "4");
  const std::string workload = absl::StrCat(
      kHead, "nodes:\n- at: 1m\n  add: {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: \"4\", memory: 64Gi, pods: \"110\"}}}\n",
      "- {at: 5m, remove: n0}\n", "jobs:\n- name: resilient\n  arrival: {at: [0s]}\n  duration: {fixed: 10m}\n",
      JobTemplate(1, "2", "default", "      policies:\n      - {event: PodEvicted, action: RestartJob}\n"));
  const SimulationResult r = Run(cluster, workload);
  CheckInvariants(r);
  const JobRecord& j = JobNamed(r, "default/resilient-0");
  CHECK(j.retries == 1);
  CHECK(j.phase == "Completed");
  CHECK(j.running_s == 1);  // first at its barrier one session after arriving
  CHECK(j.finished_s >= 300 + 600);  // the restart at 300 s began the 600 s again
  CHECK(j.finished_s <= 300 + 600 + 10);
  CHECK(r.evictions == 1);
}

TEST_CASE("simulate: a CronJob fires on schedule and Forbid skips while one runs") {
  const std::string workload = absl::StrCat(
      kHead,
      "cronJobs:\n- duration: {fixed: 15m}\n  template:\n    apiVersion: batch.volcano.sh/v1alpha1\n    kind: CronJob\n"
      "    metadata: {name: nightly, namespace: default}\n    spec:\n      schedule: \"*/10 * * * *\"\n"
      "      concurrencyPolicy: Forbid\n      jobTemplate:\n        spec:\n          minAvailable: 1\n"
      "          schedulerName: volcano\n          tasks:\n          - name: worker\n            replicas: 1\n"
      "            template:\n              spec:\n                restartPolicy: Never\n                containers:\n"
      "                - {name: main, image: busybox, resources: {requests: {cpu: \"1\"}}}\n");
  SimulationOptions options;
  options.until_ms = 3600 * 1000;
  const SimulationResult r = Run(Node("n0", "4"), workload, options);
  CheckInvariants(r);
  // Activations every 10 minutes from 00:10. A job runs 15 minutes (from a second after
  // its creation), so the activations at 20, 40 and 60 minutes find one running.
  std::vector<double> created;
  for (const JobRecord& j : r.jobs) created.push_back(j.created_s);
  CHECK(created == std::vector<double>{600, 1800, 3000});
  CHECK(r.jobs[0].phase == "Completed");
  CHECK(r.jobs[0].finished_s == 600 + 1 + 900);
}

TEST_CASE("simulate: without an end a CronJob workload is refused") {
  const std::string workload = absl::StrCat(
      kHead,
      "cronJobs:\n- duration: {fixed: 1m}\n  template:\n    apiVersion: batch.volcano.sh/v1alpha1\n    kind: CronJob\n"
      "    metadata: {name: c}\n    spec: {schedule: \"@hourly\", jobTemplate: {spec: {tasks: [{name: w, replicas: 1, "
      "template: {spec: {containers: [{name: m, image: b}]}}}]}}}\n");
  absl::StatusOr<ScenarioObjects> c = LoadObjects({{"cluster.yaml", Node("n0", "4")}});
  absl::StatusOr<Workload> w = ReadWorkload({{"workload.yaml", workload}});
  REQUIRE(w.ok());
  absl::StatusOr<SimulationResult> r = Simulate(*c, *w, DefaultSchedulerConfig());
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("--until") != std::string::npos);
}

TEST_CASE("simulate: a JobFlow starts its second job when the first completes") {
  const std::string tmpl =
      "    spec:\n      minAvailable: 1\n      schedulerName: volcano\n      tasks:\n      - name: w\n        replicas: 1\n"
      "        template:\n          spec:\n            restartPolicy: Never\n            containers:\n"
      "            - {name: m, image: b, resources: {requests: {cpu: \"1\"}}}\n";
  const std::string workload = absl::StrCat(
      kHead, "jobFlows:\n- durations: {prepare: {fixed: 5m}, train: {fixed: 10m}}\n",
      "  flow:\n    apiVersion: flow.volcano.sh/v1alpha1\n    kind: JobFlow\n    metadata: {name: pipeline, namespace: default}\n",
      "    spec:\n      jobRetainPolicy: retain\n      flows:\n      - name: prepare\n      - name: train\n        dependsOn: {targets: [prepare]}\n",
      "  templates:\n  - apiVersion: flow.volcano.sh/v1alpha1\n    kind: JobTemplate\n    metadata: {name: prepare, namespace: default}\n",
      tmpl, "  - apiVersion: flow.volcano.sh/v1alpha1\n    kind: JobTemplate\n    metadata: {name: train, namespace: default}\n",
      tmpl);
  const SimulationResult r = Run(Node("n0", "4"), workload);
  CheckInvariants(r);
  REQUIRE(r.jobs.size() == 2);
  const JobRecord& prepare = JobNamed(r, "default/pipeline-prepare");
  const JobRecord& train = JobNamed(r, "default/pipeline-train");
  CHECK(prepare.created_s == 0);
  CHECK(prepare.finished_s == 1 + 300);
  CHECK(train.created_s == prepare.finished_s);  // the flow syncs as its job completes
  CHECK(train.finished_s == train.created_s + 1 + 600);
  CHECK(train.phase == "Completed");
}

TEST_CASE("simulate: the seeds' deadlock: per-pod scheduling never finishes, the gang does") {
  auto file = [](const std::string& name) {
    std::ifstream in(std::string(VCSCHED_EXAMPLES_DIR) + "/simulate/gpu-deadlock/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  SimulationOptions options;
  options.until_ms = 2 * 3600 * 1000;
  const SimulationResult per_pod = Run(file("cluster.yaml"), file("per-pod.yaml"), options);
  const SimulationResult gang = Run(file("cluster.yaml"), file("gang.yaml"), options);
  CheckInvariants(per_pod);
  CheckInvariants(gang);
  for (const JobRecord& j : per_pod.jobs) {
    CHECK(j.running_s < 0);  // never at its barrier of 8
    CHECK(j.finished_s < 0);
  }
  CHECK(per_pod.never_started.size() == 2);
  // All ten GPUs are held by the two stuck jobs, five each.
  const TimelineRow& last = per_pod.timeline.back();
  CHECK(last.allocated[2] == 10);
  CHECK(last.running_pods == 10);
  for (const JobRecord& j : gang.jobs) CHECK(j.phase == "Completed");
  CHECK(gang.never_started.empty());
  // Allocation is not progress: the stuck jobs hold every GPU and make none.
  CHECK(per_pod.utilization[2] > 0.99);
  CHECK(per_pod.goodput[2] == 0);
  CHECK(gang.goodput[2] == Approx(gang.utilization[2]));  // a gang holds only while it runs
  CHECK(gang.goodput[2] > 0.3);
  CHECK(gang.goodput[2] <= gang.utilization[2] + 1e-9);
  for (const auto& [job, why] : per_pod.never_started) {
    CHECK(why.reason == "PartiallyPlaced");  // explain's code, with its numbers
    CHECK(why.running == 5);
    CHECK(why.barrier == 8);
  }
  // Nothing can change after the last pods start: a deadlock of both jobs, named.
  REQUIRE(per_pod.stall.has_value());
  CHECK(per_pod.stall->unfinished == 2);
  CHECK(per_pod.stall->deadlocked == std::vector<std::string>{"default/train-0", "default/train-1"});
  CHECK(per_pod.stall->held[2] == 10);
  CHECK(per_pod.stall->since_s < 60);
  CHECK(!gang.stall.has_value());
  // No makespan while work is unfinished; the summary says how many did not finish.
  const std::string summary = SummaryJson(per_pod);
  CHECK(summary.find("\"makespan_s\": null") != std::string::npos);
  CHECK(summary.find("\"unfinished\": 2") != std::string::npos);
  CHECK(SummaryText(per_pod).find("deadlock: 2 jobs") != std::string::npos);
  CHECK(SummaryJson(gang).find("\"makespan_s\": null") == std::string::npos);
}

TEST_CASE("simulate: the same inputs and seed give the same bytes, another seed other draws") {
  const std::string cluster = Node("n0", "8") + Node("n1", "8") + Queue("a", 1) + Queue("b", 2);
  const std::string workload = absl::StrCat(
      kHead, "jobs:\n- name: p\n  count: 30\n  arrival: {poisson: {mean: 20s}}\n",
      "  duration: {lognormal: {median: 2m, sigma: 0.5}}\n  failures: {probability: 0.2, exitCode: 137}\n",
      JobTemplate(3, "1", "a"), "- name: q\n  count: 20\n  arrival: {every: 15s, start: 5s}\n",
      "  duration: {uniform: [1m, 3m]}\n  barrier: 2\n  podInterval: 2s\n", JobTemplate(3, "2", "b", "", 1));
  const SimulationResult a = Run(cluster, workload), b = Run(cluster, workload);
  CheckInvariants(a);
  CHECK(JobsCsv(a) == JobsCsv(b));
  CHECK(TimelineCsv(a) == TimelineCsv(b));
  CHECK(QueuesCsv(a) == QueuesCsv(b));
  CHECK(SummaryJson(a) == SummaryJson(b));
  CHECK(UtilizationSvg(a) == UtilizationSvg(b));
  CHECK(ReportHtml(a) == ReportHtml(b));
  SimulationOptions other;
  other.seed = 2;
  const SimulationResult c = Run(cluster, workload, other);
  CheckInvariants(c);
  CHECK(JobsCsv(a) != JobsCsv(c));
  // Every job of the `every` entry arrives on its own tick.
  for (const JobRecord& j : a.jobs) {
    if (j.job.rfind("default/q-", 0) == 0) {
      const int i = std::stoi(j.job.substr(10));
      CHECK(j.created_s == 5 + 15 * i);
    }
  }
}

TEST_CASE("simulate: numbers print as printf's %.6f, trailing zeros dropped") {
  const auto printf_rule = [](double x) {
    std::string s = absl::StrFormat("%.6f", x);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? std::string("0") : s;
  };
  using simulate_internal::Num;
  CHECK(Num(0.0078125) == "0.007812");  // a tie at the sixth decimal: to even, as printf
  CHECK(Num(-1e-9) == "0");
  CHECK(Num(1.5) == "1.5");
  CHECK(Num(std::numeric_limits<double>::infinity()) == "0");
  CHECK(Num(std::numeric_limits<double>::max()) == printf_rule(std::numeric_limits<double>::max()));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    if (i % 2 == 0) x = static_cast<double>(static_cast<int64_t>(bits % 100000000)) / 1000.0;  // times, in ms
    if (Num(x) != printf_rule(x)) FAIL("Num(" << absl::StrFormat("%a", x) << ") = " << Num(x) << ", printf: " << printf_rule(x));
  }
}

TEST_CASE("simulate: the tables' columns are fixed") {
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: t\n  arrival: {at: [0s]}\n  duration: {fixed: 1m}\n",
                                            JobTemplate(1, "1"));
  const SimulationResult r = Run(Node("n0", "4"), workload);
  CHECK(JobsCsv(r).rfind("job,queue,created_s,inqueue_s,running_s,finished_s,phase,wait_s,retries\n", 0) == 0);
  CHECK(TimelineCsv(r).rfind("time_s,pending_pods,running_pods,cpu_allocated,cpu_capacity,cpu_goodput,memory_allocated,memory_capacity,"
                                 "memory_goodput\n", 0) == 0);
  CHECK(QueuesCsv(r).rfind("time_s,queue,cpu_allocated,cpu_deserved,cpu_goodput,memory_allocated,memory_deserved,memory_goodput,share\n", 0) == 0);
  const std::string summary = SummaryJson(r);
  for (const char* key : {"\"jobs\"", "\"finished\"", "\"makespan_s\"", "\"utilization\"", "\"wait_s\"", "\"evictions\"",
                          "\"never_started\""}) {
    CHECK(summary.find(key) != std::string::npos);
  }
  CHECK(JobsCsv(r).find("default/t-0,default,0,0,1,61,Completed,1,0\n") != std::string::npos);
}

TEST_CASE("simulate: workload errors name the file, document and field") {
  auto error_of = [](const std::string& text) {
    absl::StatusOr<Workload> w = ReadWorkload({{"w.yaml", text}});
    REQUIRE_FALSE(w.ok());
    return std::string(w.status().message());
  };
  const std::string job = JobTemplate(1, "1");
  CHECK(error_of(absl::StrCat(kHead, "jobs:\n- name: a\n  arrival: {at: [0s]}\n  duration: {fixed: 10x}\n", job))
            .find("w.yaml: document 1: jobs[0].duration.fixed: invalid duration \"10x\"") != std::string::npos);
  CHECK(error_of(absl::StrCat(kHead, "jobs:\n- name: a\n  count: 3\n  arrival: {at: [0s]}\n  duration: {fixed: 1m}\n", job))
            .find("jobs[0].count: is 3 but arrival.at lists 1 times") != std::string::npos);
  CHECK(error_of(absl::StrCat(kHead, "jobs:\n- name: a\n  arrival: {poisson: {mean: 1m}}\n  duration: {fixed: 1m}\n", job))
            .find("jobs[0].count: is required") != std::string::npos);
  CHECK(error_of(absl::StrCat(kHead, "jobs:\n- name: a\n  arival: {at: [0s]}\n  duration: {fixed: 1m}\n", job))
            .find("jobs[0].arival: unknown field") != std::string::npos);
  CHECK(error_of("apiVersion: vcsched/v1\nkind: Workload\nperiod: 0s\n").find("period: must be positive") !=
        std::string::npos);
  CHECK(error_of("apiVersion: vcsched/v1\nkind: Workload\nseed: -4\n").find("seed: expected an integer") !=
        std::string::npos);
  CHECK(error_of("apiVersion: v1\nkind: Node\nmetadata: {name: x}\n").find("expected apiVersion vcsched/v1, kind Workload") !=
        std::string::npos);
  CHECK(error_of(absl::StrCat(kHead, "nodes:\n- {at: 1m, cordon: a, remove: a}\n"))
            .find("nodes[0]: expected exactly one of add, remove, cordon, uncordon") != std::string::npos);
  // A node event's name is checked as every object's (a line break would forge a note).
  CHECK(error_of(absl::StrCat(kHead, "nodes:\n- {at: 1m, remove: \"node-0\\nbind x\"}\n"))
            .find("nodes[0].remove: Node \"node-0\\nbind x\": metadata.name: not a valid name") != std::string::npos);
  CHECK(error_of(absl::StrCat(kHead, "jobs:\n- name: a\n  arrival: {at: [0s]}\n  duration: {lognormal: {median: 1m}}\n", job))
            .find("duration.lognormal.sigma: is required") != std::string::npos);
  // Two files may not disagree on a scalar.
  absl::StatusOr<Workload> two = ReadWorkload({{"a.yaml", absl::StrCat(kHead)}, {"b.yaml", "apiVersion: vcsched/v1\nkind: Workload\nseed: 2\n"}});
  REQUIRE_FALSE(two.ok());
  CHECK(std::string(two.status().message()).find("b.yaml: document 1: seed: differs from the value set by a.yaml") !=
        std::string::npos);
}

TEST_CASE("simulate: a barrier above the job's pods is refused before time starts") {
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: a\n  arrival: {at: [0s]}\n  duration: {fixed: 1m}\n  barrier: 5\n",
                                            JobTemplate(2, "1"));
  absl::StatusOr<ScenarioObjects> c = LoadObjects({{"cluster.yaml", Node("n0", "4")}});
  absl::StatusOr<Workload> w = ReadWorkload({{"workload.yaml", workload}});
  REQUIRE(w.ok());
  absl::StatusOr<SimulationResult> r = Simulate(*c, *w, DefaultSchedulerConfig());
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("jobs[0].barrier: 5 is more than the job's 2 pods") != std::string::npos);
}

TEST_CASE("simulate: an invalid Job template is refused with admission's findings") {
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: a\n  arrival: {at: [0s]}\n  duration: {fixed: 1m}\n",
                                            JobTemplate(2, "1", "default", "", 5));
  absl::StatusOr<ScenarioObjects> c = LoadObjects({{"cluster.yaml", Node("n0", "4")}});
  absl::StatusOr<Workload> w = ReadWorkload({{"workload.yaml", workload}});
  REQUIRE(w.ok());
  absl::StatusOr<SimulationResult> r = Simulate(*c, *w, DefaultSchedulerConfig());
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("jobs[0].template") != std::string::npos);
  CHECK(std::string(r.status().message()).find("minAvailable") != std::string::npos);
}

TEST_CASE("simulate: a node replaced by a smaller one loses its pods, a label change keeps them") {
  // The job's 2-core pod runs on n0 from the first session. At 5 minutes n0 is put again:
  // with 1 core, it no longer holds the pod, which goes as on a removal (PodEvicted
  // restarts the job, which runs again once n1 appears); with 4 cores and a new label it
  // keeps the pod, and the job finishes at 10 minutes with no eviction.
  const auto run = [](const std::string& replacement_cpu) {
    const std::string workload = absl::StrCat(
        kHead, "nodes:\n- at: 5m\n  add: {apiVersion: v1, kind: Node, metadata: {name: n0, labels: {rack: b}}, status: {allocatable: {cpu: \"",
        replacement_cpu, "\", memory: 64Gi, pods: \"110\"}}}\n",
        "- at: 8m\n  add: {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: \"4\", memory: 64Gi, pods: \"110\"}}}\n",
        "jobs:\n- name: j\n  arrival: {at: [0s]}\n  duration: {fixed: 10m}\n",
        JobTemplate(1, "2", "default", "      policies:\n      - {event: PodEvicted, action: RestartJob}\n"));
    return Run(Node("n0", "4"), workload);
  };
  const SimulationResult smaller = run("1");
  CheckInvariants(smaller);
  CHECK(smaller.evictions == 1);
  const JobRecord& restarted = JobNamed(smaller, "default/j-0");
  CHECK(restarted.retries == 1);
  CHECK(restarted.phase == "Completed");
  CHECK(restarted.finished_s >= 480 + 600);  // its work began again on n1
  const SimulationResult relabelled = run("4");
  CheckInvariants(relabelled);
  CHECK(relabelled.evictions == 0);
  const JobRecord& kept = JobNamed(relabelled, "default/j-0");
  CHECK(kept.retries == 0);
  CHECK(kept.finished_s == 601);
}

TEST_CASE("simulate: cordoned nodes take no new pods, uncordoned ones do again") {
  const std::string workload = absl::StrCat(
      kHead, "nodes:\n- {at: 0s, cordon: n0}\n- {at: 10m, uncordon: n0}\n",
      "jobs:\n- name: w\n  arrival: {at: [1s]}\n  duration: {fixed: 1m}\n", JobTemplate(1, "1"));
  const SimulationResult r = Run(Node("n0", "4"), workload);
  CheckInvariants(r);
  const JobRecord& j = JobNamed(r, "default/w-0");
  CHECK(j.running_s == 600);  // bound by the session at the uncordon's own boundary
  CHECK(j.finished_s == 660);
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

TEST_CASE("simulate: a session runs when a job's sla waiting time is over") {
  // overcommit-factor 1 keeps `small` out while `big` holds the node; sla (an earlier
  // tier) admits it once it has waited a minute. Nothing else happens at 61 s: without
  // the sla's own wake-up no session would run until `big` finishes at 601 s.
  const std::string cluster =
      "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate\"\ntiers:\n"
      "- plugins:\n  - name: priority\n  - name: gang\n  - name: sla\n    arguments: {sla-waiting-time: 1m}\n"
      "- plugins:\n  - name: overcommit\n    arguments: {overcommit-factor: 1.0}\n  - name: predicates\n"
      "  - name: proportion\n" +
      Node("n0", "4");
  const std::string workload = absl::StrCat(kHead, "jobs:\n- name: big\n  arrival: {at: [0s]}\n  duration: {fixed: 10m}\n",
                                            JobTemplate(1, "4"), "- name: small\n  arrival: {at: [1s]}\n",
                                            "  duration: {fixed: 1m}\n", JobTemplate(1, "1"));
  const SimulationResult r = Run(cluster, workload);
  CheckInvariants(r);
  const JobRecord& small = JobNamed(r, "default/small-0");
  CHECK(small.inqueue_s == 61);
  CHECK(small.running_s == 601);  // no room until big finishes
  CHECK(small.finished_s == 661);
}

TEST_CASE("simulate: the report opens with a summary and says why a queue's share is not its weight's") {
  // A backlog in two queues (weights 1 and 3), arriving together, on 8 cpu: overcommit
  // admits by idle room, first come first served, so the queues share the cluster by
  // arrival order, not 1:3; the report says so.
  const std::string cluster = Node("n0", "4") + Node("n1", "4") + Queue("light", 1) + Queue("heavy", 3);
  const std::string workload = absl::StrCat(
      kHead, "jobs:\n- name: l\n  count: 12\n  arrival: {every: 1s}\n  duration: {fixed: 10m}\n", JobTemplate(1, "2", "light"),
      "- name: h\n  count: 12\n  arrival: {every: 1s, start: 30s}\n  duration: {fixed: 10m}\n", JobTemplate(1, "2", "heavy"));
  const SimulationResult r = Run(cluster, workload);
  CheckInvariants(r);
  const std::string html = ReportHtml(r);
  const size_t summary = html.find("<table class=\"s\">"), plots = html.find("<svg");
  REQUIRE(summary != std::string::npos);
  REQUIRE(plots != std::string::npos);
  CHECK(summary < plots);  // the summary first, then the plots
  CHECK(html.find("completed") < plots);
  CHECK(html.find("weight share") != std::string::npos);
  CHECK(html.find("Pending before admission") != std::string::npos);
  CHECK(html.find("<details>") > plots);  // details folded, after the plots
  CHECK(html.find("\"jobs\":") == std::string::npos);  // no raw JSON on the page
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

TEST_CASE("simulate: rescheduling's interval runs on the simulated clock, counted from the scheduler's start") {
  // A pod held to the busy node (90% by its metrics) while the quiet one sits at 5%:
  // lowNodeUtilization moves it once ten minutes have passed since the first session.
  const std::string cluster = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, backfill, shuffle"
tiers:
- plugins: [{name: priority}, {name: gang}, {name: conformance}]
- plugins:
  - {name: predicates}
  - {name: proportion}
  - name: rescheduling
    arguments:
      interval: 10m
      metricsPeriod: 10m
      strategies:
      - name: lowNodeUtilization
        params: {thresholds: {cpu: 20, memory: 20}, targetThresholds: {cpu: 50, memory: 50}}
---
apiVersion: v1
kind: Node
metadata:
  name: busy
  labels: {pool: busy}
  annotations: {vcsched.io/cpu-usage-percent: "90", vcsched.io/memory-usage-percent: "90", vcsched.io/usage-time: "2026-01-01T00:00:00Z"}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata:
  name: quiet
  annotations: {vcsched.io/cpu-usage-percent: "5", vcsched.io/memory-usage-percent: "5", vcsched.io/usage-time: "2026-01-01T00:00:00Z"}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
)";
  const std::string workload = absl::StrCat(kHead, R"(jobs:
- name: held
  arrival: {at: [0s]}
  duration: {fixed: 2h}
  template:
    apiVersion: batch.volcano.sh/v1alpha1
    kind: Job
    metadata: {namespace: default}
    spec:
      minAvailable: 1
      schedulerName: volcano
      tasks:
      - name: worker
        replicas: 1
        template:
          spec:
            restartPolicy: Never
            nodeSelector: {pool: busy}
            containers:
            - name: main
              image: busybox
              resources: {requests: {cpu: "1", memory: 1Gi}}
)");
  SimulationOptions before;
  before.until_ms = 9 * 60 * 1000;
  const SimulationResult early = Run(cluster, workload, before);
  CheckInvariants(early);
  CHECK(early.evictions == 0);
  SimulationOptions after;
  after.until_ms = 11 * 60 * 1000;
  const SimulationResult late = Run(cluster, workload, after);
  CheckInvariants(late);
  CHECK(late.evictions == 1);
}

TEST_CASE("simulate: tdm lends a revocable node while its window is open on the simulated clock") {
  // The only node is in zone rz, open 0:00-1:00 each day (UTC). A preemptable 2h job
  // starts on it at once; when the window closes at 1:00 shuffle takes its pod back, so
  // it has not finished by 3:00. With the zone open all day it finishes at 2:00.
  const auto cluster = [](const std::string& window) {
    return absl::StrCat(R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, backfill, shuffle"
tiers:
- plugins: [{name: priority}, {name: gang}, {name: conformance}]
- plugins:
  - name: tdm
    arguments: {tdm.revocable-zone.rz: ")", window, R"("}
  - {name: predicates}
  - {name: proportion}
---
apiVersion: v1
kind: Node
metadata: {name: rev, labels: {volcano.sh/revocable-zone: rz}}
status: {allocatable: {cpu: "4", memory: 64Gi, pods: "110"}}
)");
  };
  const std::string workload = absl::StrCat(kHead, R"(jobs:
- name: lent
  arrival: {at: [0s]}
  duration: {fixed: 2h}
  template:
    apiVersion: batch.volcano.sh/v1alpha1
    kind: Job
    metadata: {namespace: default}
    spec:
      minAvailable: 1
      schedulerName: volcano
      tasks:
      - name: worker
        replicas: 1
        template:
          metadata: {annotations: {volcano.sh/preemptable: "true"}}
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: busybox
              resources: {requests: {cpu: "1", memory: 1Gi}}
)");
  SimulationOptions until;
  until.until_ms = 3 * 3600 * 1000;
  const SimulationResult closing = Run(cluster("0:00-1:00"), workload, until);
  CheckInvariants(closing);
  CHECK(closing.evictions >= 1);
  CHECK(JobNamed(closing, "default/lent-0").finished_s < 0);
  const SimulationResult open = Run(cluster("0:00-0:00"), workload, until);
  CHECK(open.evictions == 0);
  CHECK(JobNamed(open, "default/lent-0").phase == "Completed");
  // A pod the zone never takes (not preemptable): the windows' wakes stop after two days
  // of nothing but waiting, and the run ends as a stall, without an end given.
  std::string kept = workload;
  const std::string lent_mark = "volcano.sh/preemptable: \"true\"";
  kept.replace(kept.find(lent_mark), lent_mark.size(), "volcano.sh/preemptable: \"false\"");
  const SimulationResult stuck = Run(cluster("0:00-1:00"), kept);
  CHECK(stuck.stall.has_value());
  CHECK(stuck.end_s < 3 * 86400);
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

TEST_CASE("simulate: shared GPU cards stay taken for a job's life, and cards.csv follows them") {
  // Two cards of 16Gi; three one-pod jobs asking 10Gi each: the node's 32Gi would hold
  // three at once, the cards two. The third starts when the first ends, because the
  // binds' card index annotations stay on the running pods.
  const std::string cluster =
      "apiVersion: v1\nkind: Node\nmetadata: {name: g0}\nstatus:\n  capacity: &c {cpu: '16', memory: 64Gi, pods: '110', "
      "volcano.sh/gpu-memory: 32Gi, volcano.sh/gpu-number: '2'}\n  allocatable: *c\n---\napiVersion: vcsched/v1\n"
      "kind: SchedulerConfiguration\nactions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n"
      "  - name: predicates\n  - name: deviceshare\n    arguments: {deviceshare.GPUSharingEnable: true}\n";
  const std::string workload = absl::StrCat(
      kHead, "jobs:\n- name: infer\n  arrival: {at: [0s, 0s, 0s]}\n  duration: {fixed: 10m}\n",
      "  template:\n    apiVersion: batch.volcano.sh/v1alpha1\n    kind: Job\n    metadata: {namespace: default}\n"
      "    spec:\n      minAvailable: 1\n      schedulerName: volcano\n      tasks:\n      - name: worker\n        replicas: 1\n"
      "        template:\n          spec:\n            restartPolicy: Never\n            containers:\n"
      "            - name: main\n              image: busybox\n              resources:\n"
      "                requests: {cpu: '1', volcano.sh/gpu-memory: 10Gi}\n"
      "                limits: {cpu: '1', volcano.sh/gpu-memory: 10Gi}\n");
  const SimulationResult r = Run(cluster, workload);
  CheckInvariants(r);
  REQUIRE(r.jobs.size() == 3);
  std::vector<double> starts;
  for (const JobRecord& j : r.jobs) starts.push_back(j.running_s);
  std::sort(starts.begin(), starts.end());
  CHECK(starts[1] < 600);
  CHECK(starts[2] >= 600);  // waited for a card
  REQUIRE_FALSE(r.cards.empty());
  int64_t most = 0;
  for (const CardUseRow& row : r.cards) {
    CHECK(row.node == "g0");
    CHECK(row.memory == int64_t{16} << 30);
    CHECK(row.used_memory <= row.memory);
    CHECK((row.pods == 0) == (row.used_memory == 0));
    most = std::max<int64_t>(most, row.pods);
  }
  CHECK(most == 1);  // never two 10Gi pods on one 16Gi card
  const std::string csv = CardsCsv(r);
  CHECK(absl::StartsWith(csv, "time_s,node,card,memory,used_memory,pods\n"));
  CHECK(CardsSvg(r).find("g0") != std::string::npos);
}

}  // namespace
}  // namespace vcsched
