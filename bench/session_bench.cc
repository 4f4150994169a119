// Whole sessions on synthetic clusters, and the parts of one: gang allocation, node
// scoring, fit checks, share updates, statement commit/discard.
#include <cstdint>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/synthetic_cluster.h"
#include "tests/testing/builders.h"

namespace vcsched::bench {
namespace {

// Sessions at 100 / 1,000 / 5,000 nodes with 20 pods per node on offer.
void BM_Session_Default(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const Snapshot snap = SyntheticCluster(nodes, nodes / 2, 40, /*seed=*/1);
  const SchedulerConfig config = GenloadConfig();
  size_t placed = 0;
  for (auto _ : state) {
    absl::StatusOr<Decisions> d = RunSession(snap, config);
    if (!d.ok()) {
      state.SkipWithError("session failed");
      return;
    }
    placed = d->binds.size();
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * placed));
  state.counters["binds"] = static_cast<double>(placed);
}
BENCHMARK(BM_Session_Default)->Arg(100)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

// The same clusters with local disks: 8 PersistentVolumes per node and a claim per pod
// (VolumeBinding matches each claim on each node; a volume taken is gone for the session).
// Compare with BM_Session_Default of the same size, run beside it.
void BM_Session_LocalVolumes(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const Snapshot snap = SyntheticCluster(nodes, nodes / 2, 40, /*seed=*/1, /*node_cpu=*/32, /*volumes_per_node=*/8);
  const SchedulerConfig config = GenloadConfig();
  size_t placed = 0;
  for (auto _ : state) {
    absl::StatusOr<Decisions> d = RunSession(snap, config);
    if (!d.ok()) {
      state.SkipWithError("session failed");
      return;
    }
    placed = d->binds.size();
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * placed));
  state.counters["binds"] = static_cast<double>(placed);
}
BENCHMARK(BM_Session_LocalVolumes)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// The same sessions on the reference path (every node for every task).
void BM_Session_Reference(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const Snapshot snap = SyntheticCluster(nodes, nodes / 2, 40, /*seed=*/1);
  const SchedulerConfig config = GenloadConfig();
  RunOptions opts;
  opts.node_choice_cache = false;
  size_t placed = 0;
  for (auto _ : state) {
    absl::StatusOr<Decisions> d = RunSession(snap, config, opts);
    placed = d.ok() ? d->binds.size() : 0;
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * placed));
}
BENCHMARK(BM_Session_Reference)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// One gang of `range` pods on an otherwise empty 1,000-node cluster.
void BM_Allocate_Gang(benchmark::State& state) {
  const Snapshot snap = SyntheticCluster(1000, 1, static_cast<int>(state.range(0)), /*seed=*/3);
  SchedulerConfig config = GenloadConfig();
  config.actions = {"allocate"};
  for (auto _ : state) benchmark::DoNotOptimize(RunSession(snap, config));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Allocate_Gang)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// The Armada shape: 1,000 nodes of 32 cpu, 32,000 one-pod jobs of 1 cpu.
Snapshot ManySmallJobs() {
  SnapshotBuilder b;
  for (int n = 0; n < 1000; ++n) {
    NodeSpec ns;
    ns.name = absl::StrCat("node-", n);
    ns.allocatable = Quantities({{"cpu", "32"}, {"memory", "256Gi"}, {"pods", "110"}});
    b.AddNode(ns);
  }
  for (int j = 0; j < 32000; ++j) {
    PodGroupSpec g;
    g.name = absl::StrCat("job-", j);
    g.min_member = 1;
    g.phase = "Inqueue";
    b.AddPodGroup(g);
    PodSpec p;
    p.name = absl::StrCat(g.name, "-task-0");
    p.annotations["scheduling.k8s.io/group-name"] = g.name;
    p.containers.push_back({"main", Quantities({{"cpu", "1"}, {"memory", "1Gi"}}), false});
    b.AddPod(std::move(p));
  }
  return *std::move(b).Build();
}

void PlaceManySmallJobs(benchmark::State& state, const Snapshot& snap) {
  SchedulerConfig config = GenloadConfig();
  config.actions = {"allocate"};
  size_t placed = 0;
  for (auto _ : state) {
    absl::StatusOr<Decisions> d = RunSession(snap, config);
    placed = d.ok() ? d->binds.size() : 0;
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * placed));
}

void BM_Allocate_ManySmallJobs(benchmark::State& state) { PlaceManySmallJobs(state, ManySmallJobs()); }
BENCHMARK(BM_Allocate_ManySmallJobs)->Unit(benchmark::kMillisecond);

// The same on the heap of a process that has run a while: two million small blocks
// allocated and three in four freed, so the session's own allocations (the strings of
// its decisions) land in scattered holes rather than fresh memory. The gap to the
// benchmark above is what a long-lived host's heap costs.
void BM_Allocate_ManySmallJobs_UsedHeap(benchmark::State& state) {
  const Snapshot snap = ManySmallJobs();
  std::vector<std::unique_ptr<char[]>> blocks(2000000);
  uint64_t x = 88172645463325252ull;  // xorshift: block sizes 16..79 bytes
  for (auto& block : blocks) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    block.reset(new char[16 + x % 64]);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (i % 4 != 0) blocks[i].reset();
  }
  PlaceManySmallJobs(state, snap);
}
BENCHMARK(BM_Allocate_ManySmallJobs_UsedHeap)->Unit(benchmark::kMillisecond);

// A session over `range` nodes with its plugins open, for the micro benchmarks.
struct OpenSession {
  explicit OpenSession(int nodes, SchedulerConfig cfg)
      : snap(SyntheticCluster(nodes, 4, 10, /*seed=*/5)), config(std::move(cfg)), ssn(snap, config, 0, "bench") {
    testing::OpenPluginsForTesting(ssn, config, plugins);
  }
  Snapshot snap;
  SchedulerConfig config;
  Session ssn;
  std::vector<std::unique_ptr<Plugin>> plugins;
};

SchedulerConfig Only(const std::vector<std::string>& names) {
  SchedulerConfig c;
  c.actions = {"allocate"};
  Tier t;
  for (const std::string& n : names) t.plugins.push_back({n, {}, {}});
  c.tiers = {t};
  c.ApplyDefaults();
  return c;
}

void ScoreAllNodes(benchmark::State& state, const std::vector<std::string>& plugins) {
  OpenSession o(static_cast<int>(state.range(0)), Only(plugins));
  std::vector<NodeIndex> nodes(o.snap.nodes().size());
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<NodeIndex>(i);
  std::vector<double> scores(nodes.size());
  for (auto _ : state) {
    o.ssn.ScoreNodes(0, nodes, absl::MakeSpan(scores));
    benchmark::DoNotOptimize(scores.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * nodes.size()));
}
void BM_Score_NodeOrder(benchmark::State& state) { ScoreAllNodes(state, {"predicates", "nodeorder"}); }
void BM_Score_Binpack(benchmark::State& state) { ScoreAllNodes(state, {"binpack"}); }
BENCHMARK(BM_Score_NodeOrder)->Arg(1000)->Arg(5000);
BENCHMARK(BM_Score_Binpack)->Arg(1000)->Arg(5000);

void BM_FitCheck_FutureIdle(benchmark::State& state) {
  OpenSession o(static_cast<int>(state.range(0)), Only({"predicates"}));
  const Session& s = o.ssn;
  for (auto _ : state) {
    int fits = 0;
    for (NodeIndex n = 0; n < s.num_nodes(); ++n) fits += s.NodeFitsFutureIdle(s.task_resreq(0), n);
    benchmark::DoNotOptimize(fits);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * o.snap.nodes().size()));
}
BENCHMARK(BM_FitCheck_FutureIdle)->Arg(1000)->Arg(5000);

void BM_Predicate_AllNodes(benchmark::State& state) {
  OpenSession o(static_cast<int>(state.range(0)), Only({"predicates"}));
  for (auto _ : state) {
    int ok = 0;
    for (NodeIndex n = 0; n < static_cast<NodeIndex>(o.snap.nodes().size()); ++n) ok += o.ssn.Predicate(0, n).ok();
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * o.snap.nodes().size()));
}
BENCHMARK(BM_Predicate_AllNodes)->Arg(1000)->Arg(5000);

// Allocate then discard one task: node accounting plus every plugin's event handlers
// (drf and proportion share updates, the predicates' node view).
void StatementCycle(benchmark::State& state, const std::vector<std::string>& plugins, bool commit_check) {
  OpenSession o(100, Only(plugins));
  for (auto _ : state) {
    Statement st(o.ssn);
    if (!st.Allocate(0, 0).ok()) {
      state.SkipWithError("allocate failed");
      return;
    }
    st.Discard();
  }
  (void)commit_check;
  state.SetItemsProcessed(state.iterations());
}
void BM_Statement_AllocateDiscard(benchmark::State& state) { StatementCycle(state, {"predicates"}, false); }
void BM_ShareUpdate_Drf(benchmark::State& state) { StatementCycle(state, {"drf"}, false); }
void BM_ShareUpdate_Proportion(benchmark::State& state) { StatementCycle(state, {"proportion"}, false); }
BENCHMARK(BM_Statement_AllocateDiscard);
BENCHMARK(BM_ShareUpdate_Drf);
BENCHMARK(BM_ShareUpdate_Proportion);

// Commit: allocations become binds (the Decisions grow, so each run uses a new session).
void BM_Statement_Commit(benchmark::State& state) {
  const Snapshot snap = SyntheticCluster(100, 4, 10, /*seed=*/5);
  const SchedulerConfig config = Only({"predicates"});
  for (auto _ : state) {
    state.PauseTiming();
    Session ssn(snap, config, 0, "bench");
    state.ResumeTiming();
    Statement st(ssn);
    for (TaskIndex t = 0; t < 10; ++t) benchmark::DoNotOptimize(st.Allocate(t, t % 100));
    st.Commit();
  }
  state.SetItemsProcessed(state.iterations() * 10);
}
BENCHMARK(BM_Statement_Commit);

}  // namespace
}  // namespace vcsched::bench
