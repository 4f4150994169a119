#include "src/cli/bench_churn.h"

#include <chrono>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/cli/files.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/scenario.h"

namespace vcsched::cli {
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }


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

absl::StatusOr<std::string> MeasureChurn(const std::string& file, int changes) {
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return text.status();
  absl::StatusOr<ScenarioObjects> objects = LoadObjects({{file, *text}});
  if (!objects.ok()) return objects.status();
  Cluster cluster;
  auto t = Clock::now();
  if (absl::Status s = PutObjects(*objects, cluster); !s.ok()) return s;
  const double fill_ms = Ms(Clock::now() - t);
  if (absl::StatusOr<Snapshot> s = cluster.Snapshot(); !s.ok()) return s.status();
  t = Clock::now();
  if (absl::StatusOr<Snapshot> s = cluster.Snapshot(); !s.ok()) return s.status();
  const double unchanged_ms = Ms(Clock::now() - t);
  t = Clock::now();
  if (absl::Status s = Churn(cluster, changes); !s.ok()) return s;
  if (absl::StatusOr<Snapshot> s = cluster.Snapshot(); !s.ok()) return s.status();
  const double churn_ms = Ms(Clock::now() - t);
  t = Clock::now();
  if (absl::StatusOr<Snapshot> s = cluster.BuildSnapshot(); !s.ok()) return s.status();
  const double build_ms = Ms(Clock::now() - t);
  return absl::StrFormat(", \"churn\": %d, \"fill_ms\": %.3f, \"churn_ms\": %.3f, \"build_ms\": %.3f, "
                         "\"snapshot_unchanged_ms\": %.4f",
                         changes, fill_ms, churn_ms, build_ms, unchanged_ms);
}

}  // namespace vcsched::cli
