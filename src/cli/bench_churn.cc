#include "src/cli/bench_churn.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/cli/files.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// The process's resident memory now (not its peak), from /proc/self/statm; 0 elsewhere.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}


// N pod changes, a quarter of each kind, chosen by position so runs repeat: a new pod
// (a copy of a pending one), a deletion, a phase change (running pods succeed, pending
// ones start), a bind of a pending pod to a node.
absl::Status Churn(Cluster& c, int changes) {
  std::vector<std::string> keys;
  for (const auto& [k, _] : c.pods()) keys.push_back(k);
  std::vector<std::string> nodes;
  for (const auto& [n, _] : c.nodes()) nodes.push_back(n);
  if (keys.empty() || nodes.empty()) return absl::OkStatus();
  const size_t stride = std::max<size_t>(1, keys.size() / static_cast<size_t>(changes + 1));
  for (int i = 0; i < changes; ++i) {
    const std::string& key = keys[(static_cast<size_t>(i) * stride) % keys.size()];
    auto it = c.pods().find(key);
    if (it == c.pods().end()) continue;
    PodSpec p = it->second;
    switch (i % 4) {
      case 0:
        p.name = absl::StrCat(p.name, "-churn-", i);
        p.node_name.clear();
        p.phase = "Pending";
        break;
      case 1:
        if (absl::Status s = c.DeletePod(p.namespace_, p.name); !s.ok()) return s;
        continue;
      case 2:
        p.phase = p.phase == "Running" ? "Succeeded" : "Running";
        if (p.node_name.empty()) p.node_name = nodes[static_cast<size_t>(i) % nodes.size()];
        break;
      default:
        if (p.node_name.empty()) p.node_name = nodes[static_cast<size_t>(i) % nodes.size()];
        break;
    }
    if (absl::Status s = c.PutPod(std::move(p)); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> MeasureChurn(const std::string& file, int changes, const SchedulerConfig& config) {
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return text.status();
  absl::StatusOr<ScenarioObjects> objects = LoadObjects({{file, *text}});
  if (!objects.ok()) return objects.status();
  Cluster cluster;
  auto t = Clock::now();
  if (absl::Status s = PutObjects(*objects, cluster); !s.ok()) return s;
  const double fill_ms = Ms(Clock::now() - t);
  absl::StatusOr<Snapshot> first = cluster.Snapshot();
  if (!first.ok()) return first.status();
  t = Clock::now();
  if (absl::StatusOr<Snapshot> s = cluster.Snapshot(); !s.ok()) return s.status();
  const double unchanged_ms = Ms(Clock::now() - t);
  const int64_t rss_before = ResidentBytes();
  t = Clock::now();
  if (absl::Status s = Churn(cluster, changes); !s.ok()) return s;
  absl::StatusOr<Snapshot> second = cluster.Snapshot();  // held with the first, as a host would
  if (!second.ok()) return second.status();
  const double churn_ms = Ms(Clock::now() - t);
  const int64_t rss_after = ResidentBytes();
  t = Clock::now();
  absl::StatusOr<Snapshot> built = cluster.BuildSnapshot();
  if (!built.ok()) return built.status();
  const double build_ms = Ms(Clock::now() - t);
  // Sessions on the cluster's snapshot and on the scratch build, interleaved.
  std::vector<double> on_cluster, on_built;
  for (int i = 0; i < 5; ++i) {
    for (const Snapshot* s : {&*second, &*built}) {
      const auto start = Clock::now();
      if (absl::StatusOr<Decisions> d = RunSession(*s, config); !d.ok()) return d.status();
      (s == &*second ? on_cluster : on_built).push_back(Ms(Clock::now() - start));
    }
  }
  std::sort(on_cluster.begin(), on_cluster.end());
  std::sort(on_built.begin(), on_built.end());
  return absl::StrFormat(", \"churn\": %d, \"fill_ms\": %.3f, \"churn_ms\": %.3f, \"build_ms\": %.3f, "
                         "\"snapshot_unchanged_ms\": %.4f, \"session_on_cluster_ms\": %.3f, \"session_on_built_ms\": %.3f, "
                         "\"first_snapshot_mib\": %.1f, \"second_snapshot_mib\": %.1f",
                         changes, fill_ms, churn_ms, build_ms, unchanged_ms, on_cluster[2], on_built[2],
                         static_cast<double>(rss_before) / (1 << 20), static_cast<double>(rss_after - rss_before) / (1 << 20));
}

}  // namespace vcsched::cli
