// A host's cycle on a living cluster: change pods, take a snapshot. The baseline in the
// same run is a snapshot built from scratch of the same objects.
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/synthetic_cluster.h"
#include "vcsched/cluster.h"

namespace vcsched::bench {
namespace {

// The synthetic cluster of `nodes` nodes (20 pods per node on offer) as a Cluster, with
// the first tenth of its pods running.
Cluster SyntheticClusterState(int nodes) {
  const Snapshot snap = SyntheticCluster(nodes, nodes / 2, 40, /*seed=*/1);
  Cluster c = Cluster::FromSnapshot(snap);
  std::vector<PodSpec> placed;
  size_t i = 0;
  for (const auto& [_, p] : c.pods()) {
    if (i++ % 10 != 0) continue;
    PodSpec q = *p;
    q.node_name = absl::StrCat("node-", i % static_cast<size_t>(nodes));
    q.phase = "Running";
    placed.push_back(std::move(q));
  }
  for (PodSpec& p : placed) (void)c.PutPod(std::move(p));
  return c;
}

// `changes` pods flip between Pending and Running on a node, then a snapshot.
void ChurnCycle(Cluster& c, const std::vector<std::string>& keys, int changes, int round) {
  for (int k = 0; k < changes; ++k) {
    PodSpec p = *c.pods().at(keys[(static_cast<size_t>(k) * 7919 + static_cast<size_t>(round)) % keys.size()]);
    if (p.node_name.empty()) {
      p.node_name = "node-0";
      p.phase = "Running";
    } else {
      p.node_name.clear();
      p.phase = "Pending";
    }
    (void)c.PutPod(std::move(p));
  }
}

void BM_ClusterSnapshot_AfterChurn(benchmark::State& state) {
  Cluster c = SyntheticClusterState(static_cast<int>(state.range(0)));
  std::vector<std::string> keys;
  for (const auto& [k, _] : c.pods()) keys.push_back(k);
  const int changes = static_cast<int>(state.range(1));
  int round = 0;
  (void)c.Snapshot();
  for (auto _ : state) {
    ChurnCycle(c, keys, changes, ++round);
    absl::StatusOr<Snapshot> s = c.Snapshot();
    if (!s.ok()) {
      state.SkipWithError("snapshot failed");
      return;
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * changes);
  state.counters["pods"] = static_cast<double>(keys.size());
}
BENCHMARK(BM_ClusterSnapshot_AfterChurn)->Args({1000, 100})->Args({1000, 1000})->Unit(benchmark::kMillisecond);

// The baseline: the same state built from scratch.
void BM_ClusterSnapshot_Build(benchmark::State& state) {
  const Cluster c = SyntheticClusterState(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    absl::StatusOr<Snapshot> s = c.BuildSnapshot();
    if (!s.ok()) {
      state.SkipWithError("build failed");
      return;
    }
    benchmark::DoNotOptimize(s);
  }
  state.counters["pods"] = static_cast<double>(c.pods().size());
}
BENCHMARK(BM_ClusterSnapshot_Build)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vcsched::bench
