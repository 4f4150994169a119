// Start-time estimates (docs/ETA.md): the runtime annotation's grammar and where a pod's
// runtime comes from, a hand-computed story, and exactness: on generated states with fixed
// runtimes, every estimate equals the start a plain host loop gives, one written here on
// the public Cluster and RunSession API alone (sessions at the first period boundary after
// a change, binds running at once, pods ending on their runtimes, evicted pods going).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/arguments.h"
#include "vcsched/cluster.h"
#include "vcsched/eta.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"
#include "vcsched/scheduler_memory.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace {

constexpr int64_t kNow = 1796647200;  // 2026-12-07T12:40:00Z

std::string Rfc(int64_t seconds) {
  const int64_t day = seconds % 86400;
  return absl::StrCat("2026-12-07T", day / 3600 < 10 ? "0" : "", day / 3600, ":", (day / 60) % 60 < 10 ? "0" : "",
                      (day / 60) % 60, ":", day % 60 < 10 ? "0" : "", day % 60, "Z");
}

ScenarioObjects Load(const std::string& text) {
  absl::StatusOr<ScenarioObjects> o = LoadObjects({{"state.yaml", text}});
  INFO(o.status().message());
  REQUIRE(o.ok());
  return *std::move(o);
}

SchedulerConfig ConfigOf(const ScenarioObjects& o) { return o.config.value_or(DefaultSchedulerConfig()); }

TEST_CASE("eta: the runtime annotation's grammar", "[eta]") {
  absl::StatusOr<DurationDistribution> d = ParseExpectedRuntime("90m");
  REQUIRE(d.ok());
  CHECK(d->kind == DurationDistribution::Kind::kFixed);
  CHECK(d->a_ms == 90 * 60 * 1000);
  d = ParseExpectedRuntime("1h±20m");
  REQUIRE(d.ok());
  CHECK(d->kind == DurationDistribution::Kind::kUniform);
  CHECK(d->a_ms == 40 * 60 * 1000);
  CHECK(d->b_ms == 80 * 60 * 1000);
  d = ParseExpectedRuntime(" 10m +- 1h ");  // never below zero
  REQUIRE(d.ok());
  CHECK(d->a_ms == 0);
  CHECK(d->b_ms == 70 * 60 * 1000);
  for (const char* bad : {"", "soon", "1h±", "-5m", "1h±-5m", "1h±x", "±5m"}) {
    INFO(bad);
    CHECK_FALSE(ParseExpectedRuntime(bad).ok());
  }
}

std::string Queue(const std::string& name, int weight, const std::string& capability = "") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      "}\nspec: {weight: ", weight, ", reclaimable: true", capability.empty() ? "" : ", capability: ",
                      capability, "}\nstatus: {state: Open}\n");
}

std::string Node(const std::string& name, int cpu, int gpu, const std::string& labels = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ", name, "\n  labels: {kubernetes.io/hostname: ",
                      name, labels.empty() ? "" : ", ", labels, "}\nstatus:\n  allocatable: {cpu: \"", cpu,
                      "\", memory: 256Gi, pods: \"110\"", gpu ? absl::StrCat(", nvidia.com/gpu: \"", gpu, "\"") : "", "}\n");
}

struct PodOpts {
  std::string node;        // empty: pending
  int64_t started = 0;     // with a node
  std::string runtime;     // the pod's own annotation
  std::string priority_class;
  std::string extra_annotations;
  int64_t active_deadline = -1;
};

std::string Group(const std::string& ns, const std::string& name, int min_member, const std::string& queue,
                  const std::string& runtime, const std::string& phase, const std::string& extra = "",
                  const std::string& priority_class = "") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: ", name,
                      "\n  namespace: ", ns, "\n  creationTimestamp: \"", Rfc(kNow - 3600), "\"\n",
                      runtime.empty() ? "" : absl::StrCat("  annotations: {vcsched.io/expected-runtime: \"", runtime, "\"}\n"),
                      "spec: {minMember: ", min_member, ", queue: ", queue,
                      priority_class.empty() ? "" : absl::StrCat(", priorityClassName: ", priority_class), extra,
                      "}\nstatus: {phase: ", phase, "}\n");
}

std::string Pod(const std::string& ns, const std::string& name, const std::string& group, int cpu, int gpu,
                const PodOpts& o) {
  std::string annotations = absl::StrCat("scheduling.k8s.io/group-name: ", group);
  if (!o.runtime.empty()) absl::StrAppend(&annotations, ", vcsched.io/expected-runtime: \"", o.runtime, "\"");
  if (!o.extra_annotations.empty()) absl::StrAppend(&annotations, ", ", o.extra_annotations);
  std::string s = absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ", name, "\n  namespace: ", ns,
                               "\n  creationTimestamp: \"", Rfc(kNow - 3600), "\"\n  annotations: {", annotations,
                               "}\nspec:\n  schedulerName: volcano\n");
  if (!o.node.empty()) absl::StrAppend(&s, "  nodeName: ", o.node, "\n");
  if (!o.priority_class.empty()) absl::StrAppend(&s, "  priorityClassName: ", o.priority_class, "\n");
  if (o.active_deadline >= 0) absl::StrAppend(&s, "  activeDeadlineSeconds: ", o.active_deadline, "\n");
  absl::StrAppend(&s, "  containers:\n  - name: main\n    image: x\n    resources:\n      requests: {cpu: \"", cpu,
                  "\", memory: 1Gi", gpu ? absl::StrCat(", nvidia.com/gpu: \"", gpu, "\"") : "", "}\n");
  if (gpu) absl::StrAppend(&s, "      limits: {nvidia.com/gpu: \"", gpu, "\"}\n");
  if (o.node.empty()) absl::StrAppend(&s, "status: {phase: Pending}\n");
  else absl::StrAppend(&s, "status: {phase: Running, startTime: \"", Rfc(o.started), "\"}\n");
  return s;
}

TEST_CASE("eta: a gang waits for the job whose end frees its GPUs", "[eta]") {
  std::string text = Queue("ml", 1) + Node("gpu-0", 64, 8) + Node("gpu-1", 64, 8);
  text += Group("ml", "train-a", 2, "ml", "4h", "Running");
  for (int i = 0; i < 2; ++i) {
    text += Pod("ml", absl::StrCat("train-a-", i), "train-a", 8, 6, {absl::StrCat("gpu-", i), kNow - 9600});
  }
  text += Group("ml", "train-b", 2, "ml", "2h", "Inqueue");
  for (int i = 0; i < 2; ++i) text += Pod("ml", absl::StrCat("train-b-", i), "train-b", 8, 6, {});
  text += Group("ml", "small", 1, "ml", "", "Pending");
  text += Pod("ml", "small-0", "small", 1, 2, {});
  const ScenarioObjects state = Load(text);
  EtaOptions o;
  o.now_seconds = kNow;
  absl::StatusOr<EtaResult> r = EstimateStarts(state, ConfigOf(state), o);
  INFO(r.status().message());
  REQUIRE(r.ok());
  REQUIRE(r->jobs.size() == 2);
  std::map<std::string, const EtaJob*> by;
  for (const EtaJob& j : r->jobs) by[j.job] = &j;
  REQUIRE(by.count("ml/train-b"));
  REQUIRE(by.count("ml/small"));
  const EtaJob& b = *by["ml/train-b"];
  // train-a started 9,600 s ago and runs 4 h: it ends 4,800 s from now, and train-b starts then.
  REQUIRE(b.start_s.has_value());
  CHECK(*b.start_s == 4800);
  CHECK(*b.start == kNow + 4800);
  REQUIRE_FALSE(b.waits_for.empty());
  CHECK(b.waits_for.back().job == "ml/train-a");
  CHECK(b.waits_for.back().ends_s == 4800);
  CHECK(b.waits_for.back().frees.at("nvidia.com/gpu") == 12);
  CHECK(b.note.find("after ml/train-a ends and frees 12 nvidia.com/gpu") == 0);
  // Created at the same time, the two are in job order by UID: small first.
  CHECK(by["ml/small"]->position == 1);
  CHECK(b.position == 2);
  // small fits beside train-a now: the first session places it.
  REQUIRE(by["ml/small"]->start_s.has_value());
  CHECK(*by["ml/small"]->start_s == 0);
  CHECK(by["ml/small"]->reason == "Scheduled");
  CHECK(b.reason != "Scheduled");

  SECTION("without a runtime, nothing ends: not within the horizon, and the note says why") {
    std::string none = text;
    size_t at = 0;
    const std::string four_hours = "vcsched.io/expected-runtime: \"4h\"";
    while ((at = none.find(four_hours)) != std::string::npos) none.replace(at, four_hours.size(), "x: z");
    const ScenarioObjects s2 = Load(none);
    EtaOptions o2 = o;
    o2.horizon_ms = 24 * 3600 * 1000LL;
    absl::StatusOr<EtaResult> r2 = EstimateStarts(s2, ConfigOf(s2), o2);
    REQUIRE(r2.ok());
    for (const EtaJob& j : r2->jobs) {
      if (j.job != "ml/train-b") continue;
      CHECK_FALSE(j.start_s.has_value());
      CHECK(j.note.find("still ") == 0);
    }
    // A default runtime gives train-a an end: from its start, 1 h, which is past: it ends now.
    o2.default_runtime_ms = 3600 * 1000;
    r2 = EstimateStarts(s2, ConfigOf(s2), o2);
    REQUIRE(r2.ok());
    for (const EtaJob& j : r2->jobs) {
      if (j.job == "ml/train-b") CHECK((j.start_s && *j.start_s <= 1));
    }
  }
  SECTION("the text and JSON forms") {
    const std::string json = EtaJson(*r);
    CHECK(json.find("\"job\": \"ml/train-b\", \"queue\": \"ml\", \"start_s\": 4800, \"start\": \"2026-12-07T14:00:00Z\"") !=
          std::string::npos);
    const std::string text_out = EtaText(*r);
    CHECK(text_out.find("ml/train-b  starts in ~1h20m (14:00Z), after ml/train-a ends and frees 12 nvidia.com/gpu") !=
          std::string::npos);
  }
}

TEST_CASE("eta: where a pod's runtime comes from", "[eta]") {
  // One running pod per source on its own node, each blocking one pending pod that needs the
  // whole node: each pending job starts when its node's pod ends.
  std::string text = Queue("q", 1);
  const std::vector<std::pair<std::string, int64_t>> cases = {
      {"pod", 600}, {"group", 1200}, {"job", 1800}, {"deadline", 2400}, {"default", 3000}};
  text += "---\napiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: vj\n  namespace: ns\n"
          "  annotations: {vcsched.io/expected-runtime: \"30m\"}\nspec:\n  minAvailable: 1\n  queue: q\n"
          "  tasks:\n  - name: t\n    replicas: 1\n    template:\n      spec:\n        containers:\n"
          "        - name: c\n          image: x\n          resources: {requests: {cpu: \"100\"}}\n";  // fits nowhere
  for (const auto& [name, _] : cases) {
    const std::string node = absl::StrCat("n-", name);
    text += Node(node, 8, 0);
    PodOpts run{node, kNow};
    std::string group_runtime;
    if (name == "pod") run.runtime = "10m";
    if (name == "group") group_runtime = "20m";
    if (name == "job") run.extra_annotations = "volcano.sh/job-name: vj";
    if (name == "deadline") run.active_deadline = 2400;
    text += Group("ns", absl::StrCat("run-", name), 1, "q", group_runtime, "Running");
    text += Pod("ns", absl::StrCat("run-", name, "-0"), absl::StrCat("run-", name), 8, 0, run);
    // The waiting pod may go only to this node.
    text += Group("ns", absl::StrCat("wait-", name), 1, "q", "", "Inqueue");
    std::string wait = Pod("ns", absl::StrCat("wait-", name, "-0"), absl::StrCat("wait-", name), 8, 0, {});
    wait.replace(wait.find("  containers:"), 0, absl::StrCat("  nodeSelector: {kubernetes.io/hostname: ", node, "}\n"));
    text += wait;
  }
  ScenarioObjects state = Load(text);
  EtaOptions o;
  o.now_seconds = kNow;
  o.default_runtime_ms = 3000 * 1000;
  absl::StatusOr<EtaResult> r = EstimateStarts(state, ConfigOf(state), o);
  INFO(r.status().message());
  REQUIRE(r.ok());
  std::map<std::string, double> start;
  for (const EtaJob& j : r->jobs) {
    if (j.start_s) start[j.job] = *j.start_s;
  }
  for (const auto& [name, ends] : cases) {
    INFO(name);
    INFO(EtaText(*r));
    CHECK(start[absl::StrCat("ns/wait-", name)] == static_cast<double>(ends));
  }

  SECTION("an annotation that does not parse is an error naming the file, object and field") {
    std::string bad = text;
    bad.replace(bad.find("\"20m\""), 5, "\"a while\"");
    absl::StatusOr<ScenarioObjects> s2 = LoadObjects({{"state.yaml", bad}});
    REQUIRE_FALSE(s2.ok());
    const std::string message(s2.status().message());
    CHECK(message.find("state.yaml: document ") == 0);
    CHECK(message.find("PodGroup \"ns/run-group\": metadata.annotations[vcsched.io/expected-runtime]: \"a while\"") !=
          std::string::npos);
    // A Volcano Job's annotation goes to the PodGroup its controller makes, checked there.
    std::string bad_job = text;
    bad_job.replace(bad_job.find("\"30m\""), 5, "\"1h\xC2\xB1\"");
    absl::StatusOr<ScenarioObjects> s3 = LoadObjects({{"state.yaml", bad_job}});
    REQUIRE_FALSE(s3.ok());
    CHECK(std::string(s3.status().message()).find("(created for Job \"ns/vj\")") != std::string::npos);
    CHECK(std::string(s3.status().message()).find("expected a spread such as 20m") != std::string::npos);
  }
}

// ---- Exactness against a host loop written on the public API ----

struct HostLoopResult {
  std::map<std::string, int64_t> started_ms;  // job key -> start, for the jobs pending at 0
};

// Sessions at the first period boundary after a change (never two at one boundary), on the
// state's clock; a bound pod runs at once and ends its runtime later; an evicted pod goes
// at once; jobs start when min_member of their pods run.
HostLoopResult HostLoop(const ScenarioObjects& state, const SchedulerConfig& config, int64_t now, int64_t period_ms,
                        int64_t horizon_ms) {
  Cluster cluster;
  ScenarioObjects objects = state;
  REQUIRE(PutObjects(objects, cluster).ok());
  absl::StatusOr<Snapshot> first = cluster.Snapshot();
  REQUIRE(first.ok());
  std::map<std::string, int64_t> runtime;   // pod key -> ms
  std::map<std::string, std::string> job_of;  // pod key -> job key
  std::map<std::string, int32_t> min_member, running;
  std::multimap<int64_t, std::string> ends;  // time -> pod key
  for (const TaskInfo& t : first->tasks()) {
    const PodSpec& p = *t.pod;
    const std::string key = absl::StrCat(p.namespace_, "/", p.name);
    if (t.job == kNone) continue;
    const JobInfo& j = first->jobs()[static_cast<size_t>(t.job)];
    // The pod's own runtime, else its PodGroup's (the states here give no other).
    auto a = p.annotations.find("vcsched.io/expected-runtime");
    if (a == p.annotations.end()) a = j.pod_group.annotations.find("vcsched.io/expected-runtime");
    if (a != p.annotations.end() && a != j.pod_group.annotations.end()) runtime[key] = *ParseGoDurationMillis(a->second);
    job_of[key] = j.key;
    min_member[j.key] = std::max(1, j.pod_group.min_member);
    if (p.phase == "Running") {
      ++running[j.key];
      if (runtime.count(key)) ends.emplace(std::max<int64_t>(0, (*p.start_time - now) * 1000 + runtime[key]), key);
    }
  }
  HostLoopResult out;
  std::set<std::string> pending;
  for (const auto& [job, m] : min_member) {
    if (running[job] < m) pending.insert(job);
  }
  SchedulerMemory memory;
  bool dirty = true;
  int64_t dirty_since = 0, last_session = -1, t = 0;
  while (!pending.empty()) {
    int64_t session_at = INT64_MAX;
    if (dirty) session_at = std::max((dirty_since + period_ms - 1) / period_ms * period_ms, last_session < 0 ? 0 : last_session + period_ms);
    const int64_t next_end = ends.empty() ? INT64_MAX : ends.begin()->first;
    t = std::min(session_at, next_end);
    if (t == INT64_MAX || t > horizon_ms) break;
    if (next_end <= session_at) {
      while (!ends.empty() && ends.begin()->first == t) {
        const std::string key = ends.begin()->second;
        ends.erase(ends.begin());
        auto it = cluster.pods().find(key);
        if (it == cluster.pods().end() || it->second->phase != "Running") continue;
        PodSpec p = *it->second;
        p.phase = "Succeeded";
        REQUIRE(cluster.PutPod(std::move(p)).ok());
        if (job_of.count(key)) --running[job_of[key]];
        if (!dirty) dirty_since = t;
        dirty = true;
      }
      continue;
    }
    dirty = false;
    last_session = t;
    absl::StatusOr<Snapshot> snap = cluster.Snapshot();
    REQUIRE(snap.ok());
    RunOptions ro;
    ro.now_seconds = now + t / 1000;
    ro.memory = &memory;
    absl::StatusOr<Decisions> d = RunSession(*snap, config, ro);
    REQUIRE(d.ok());
    cluster.Apply(*d, now + t / 1000);
    for (const Bind& b : d->binds) {
      const std::string key = b.task.str();
      auto it = cluster.pods().find(key);
      if (it == cluster.pods().end()) continue;
      PodSpec p = *it->second;
      p.phase = "Running";
      p.start_time = now + t / 1000;
      REQUIRE(cluster.PutPod(std::move(p)).ok());
      dirty = true;
      dirty_since = t;
      if (runtime.count(key)) ends.emplace(t + runtime[key], key);
      if (!job_of.count(key)) continue;
      const std::string& job = job_of[key];
      if (++running[job] >= min_member[job] && pending.erase(job)) out.started_ms[job] = t;
    }
    for (const Eviction& e : d->evictions) {
      const std::string key = e.task.str();
      auto it = cluster.pods().find(key);
      if (it == cluster.pods().end()) continue;
      if (it->second->phase == "Running" && job_of.count(key)) --running[job_of[key]];
      REQUIRE(cluster.DeletePod(it->second->namespace_, it->second->name).ok());
      dirty = true;
      dirty_since = t;
    }
  }
  return out;
}

// A random state: nodes (some with GPUs) under HyperNodes, weighted queues (one with a
// capability), running gangs with their start times, and pending gangs at three priorities
// (preemptable ones, and jobs of queues over their share: preempt and reclaim have victims).
std::string RandomState(std::mt19937_64& rng) {
  auto pick = [&](int lo, int hi) { return static_cast<int>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  std::string text =
      "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, preempt, reclaim, backfill\"\n"
      "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n  - name: drf\n"
      "  - name: predicates\n  - name: proportion\n  - name: nodeorder\n  - name: binpack\n  - name: network-topology-aware\n";
  text += "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n";
  text += "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\n";
  const int queues = pick(1, 3);
  for (int q = 0; q < queues; ++q) {
    text += Queue(absl::StrCat("q", q), pick(1, 4), q == 1 ? absl::StrCat("{cpu: \"", pick(16, 48), "\"}") : "");
  }
  const int nodes = pick(2, 6);
  std::vector<int> free_cpu, free_gpu;
  for (int n = 0; n < nodes; ++n) {
    const int cpu = 8 * pick(1, 4), gpu = pick(0, 1) * 8;
    text += Node(absl::StrCat("n", n), cpu, gpu);
    free_cpu.push_back(cpu);
    free_gpu.push_back(gpu);
  }
  for (int h = 0; h * 2 < nodes; ++h) {
    text += absl::StrCat("---\napiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: s", h,
                         "}\nspec:\n  tier: 1\n  members:\n  - type: Node\n    selector: {exactMatch: {name: n", 2 * h, "}}\n");
    if (2 * h + 1 < nodes) {
      text += absl::StrCat("  - type: Node\n    selector: {exactMatch: {name: n", 2 * h + 1, "}}\n");
    }
  }
  const char* runtimes[] = {"5m", "10m", "20m", "30m", "45m", "1h"};
  const int running_jobs = pick(1, 5);
  for (int j = 0; j < running_jobs; ++j) {
    const std::string name = absl::StrCat("run", j), queue = absl::StrCat("q", pick(0, queues - 1));
    const int pods = pick(1, 3), cpu = pick(1, 8);
    const bool preemptable = pick(0, 1) == 1;
    text += Group("ns", name, pods, queue, runtimes[pick(0, 5)], "Running",
                  preemptable ? "" : "", pick(0, 2) == 0 ? "low" : "");
    if (preemptable) text.replace(text.rfind("  annotations: {"), 16, "  annotations: {volcano.sh/preemptable: \"true\", ");
    for (int p = 0; p < pods; ++p) {
      int n = pick(0, nodes - 1), tries = 0;
      while (free_cpu[static_cast<size_t>(n)] < cpu && tries++ < nodes) n = (n + 1) % nodes;
      if (free_cpu[static_cast<size_t>(n)] < cpu) break;
      free_cpu[static_cast<size_t>(n)] -= cpu;
      text += Pod("ns", absl::StrCat(name, "-", p), name, cpu, 0, {absl::StrCat("n", n), kNow - pick(0, 1800)});
    }
  }
  const int pending_jobs = pick(1, 6);
  for (int j = 0; j < pending_jobs; ++j) {
    const std::string name = absl::StrCat("wait", j), queue = absl::StrCat("q", pick(0, queues - 1));
    const int pods = pick(1, 4), cpu = pick(1, 12), gpu = pick(0, 3) == 0 ? pick(1, 4) : 0;
    const int prio = pick(0, 2);
    const std::string extra = pick(0, 3) == 0 ? ", networkTopology: {mode: hard, highestTierAllowed: 1}" : "";
    text += Group("ns", name, pick(1, pods), queue, runtimes[pick(0, 5)], "Pending", extra,
                  prio == 0 ? "low" : (prio == 2 ? "high" : ""));
    for (int p = 0; p < pods; ++p) {
      text += Pod("ns", absl::StrCat(name, "-", p), name, cpu, gpu, {"", 0, "", prio == 0 ? "low" : (prio == 2 ? "high" : "")});
    }
  }
  return text;
}

TEST_CASE("eta: estimates equal the starts of a host loop over the same state", "[eta][exact]") {
  std::mt19937_64 rng(20261207);
  int compared = 0, started = 0;
  for (int c = 0; c < 60; ++c) {
    const std::string text = RandomState(rng);
    INFO("state " << c << ":\n" << text);
    const ScenarioObjects state = Load(text);
    const SchedulerConfig config = ConfigOf(state);
    EtaOptions o;
    o.now_seconds = kNow;
    o.horizon_ms = 12 * 3600 * 1000LL;
    absl::StatusOr<EtaResult> r = EstimateStarts(state, config, o);
    INFO(r.status().message());
    REQUIRE(r.ok());
    const HostLoopResult host = HostLoop(state, config, kNow, 1000, o.horizon_ms);
    // And `vcsched simulate --cluster-runtimes` on the state, with no arrivals.
    Workload none;
    none.start_seconds = kNow;
    SimulationOptions so;
    so.until_ms = o.horizon_ms;
    so.cluster_runtimes.emplace();
    absl::StatusOr<SimulationResult> sim = Simulate(state, none, config, so);
    REQUIRE(sim.ok());
    std::map<std::string, double> simulated;
    for (const JobRecord& rec : sim->jobs) simulated[rec.job] = rec.running_s;
    for (const EtaJob& j : r->jobs) {
      REQUIRE(simulated.count(j.job));
      CHECK(simulated[j.job] == (j.start_s ? *j.start_s : -1));
      INFO(j.job << ": estimate " << (j.start_s ? *j.start_s : -1));
      auto h = host.started_ms.find(j.job);
      if (h == host.started_ms.end()) {
        CHECK_FALSE(j.start_s.has_value());
      } else {
        REQUIRE(j.start_s.has_value());
        CHECK(*j.start_s == static_cast<double>(h->second) / 1000);
        ++started;
      }
      ++compared;
    }
  }
  CHECK(compared > 100);
  CHECK(started > 50);
}

TEST_CASE("eta: samples draw runtimes, and the same seed gives the same percentiles", "[eta]") {
  std::string text = Queue("q", 1) + Node("n0", 8, 0);
  text += Group("ns", "a", 1, "q", "1h±30m", "Running");
  text += Pod("ns", "a-0", "a", 8, 0, {"n0", kNow});
  text += Group("ns", "b", 1, "q", "10m", "Pending");
  text += Pod("ns", "b-0", "b", 8, 0, {});
  const ScenarioObjects state = Load(text);
  EtaOptions o;
  o.now_seconds = kNow;
  o.samples = 200;
  o.seed = 5;
  o.threads = 3;
  absl::StatusOr<EtaResult> r = EstimateStarts(state, ConfigOf(state), o);
  REQUIRE(r.ok());
  REQUIRE(r->jobs.size() == 1);
  const EtaJob& b = r->jobs[0];
  CHECK(*b.start_s == 3600);  // the middle of the range
  REQUIRE(b.p10_s);
  REQUIRE(b.p90_s);
  CHECK(*b.p10_s >= 1800);
  CHECK(*b.p10_s < *b.p50_s);
  CHECK(*b.p50_s < *b.p90_s);
  CHECK(*b.p90_s <= 5400);
  CHECK(std::abs(*b.p10_s - 2160) < 240);  // uniform over [30m, 90m]: p10 near 36m
  CHECK(b.samples_started == 200);
  o.threads = 1;
  absl::StatusOr<EtaResult> again = EstimateStarts(state, ConfigOf(state), o);
  REQUIRE(again.ok());
  CHECK(EtaJson(*again, true) == EtaJson(*r, true));
  // Chunks of futures are the futures of one run.
  o.samples = 120;
  absl::StatusOr<EtaResult> head = EstimateStarts(state, ConfigOf(state), o);
  o.samples = 80;
  o.first_sample = 120;
  absl::StatusOr<EtaResult> tail = EstimateStarts(state, ConfigOf(state), o);
  REQUIRE((head.ok() && tail.ok()));
  std::vector<double> joined = head->jobs[0].sample_starts_s;
  joined.insert(joined.end(), tail->jobs[0].sample_starts_s.begin(), tail->jobs[0].sample_starts_s.end());
  CHECK(joined == r->jobs[0].sample_starts_s);
}

}  // namespace
}  // namespace vcsched
