#include "src/cli/bench_churn.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <set>
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


// Host-loop cycles measured (and scratch builds beside them): enough that the medians
// hold still on a noisy machine.
constexpr int kChurnRounds = 9;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// N pod changes, a quarter of each kind, chosen by position so runs repeat: a new pod
// (a copy of a pending one), a deletion, a phase change (running pods succeed, pending
// ones start), a bind of a pending pod to a node. `round` varies the new pods' names.
// Worked out before the clock starts: applying them (Apply) is what is measured.
struct PlannedChange {
  std::optional<PodSpec> put;  // else: delete
  std::string namespace_, name;
};

std::vector<PlannedChange> PlanChurn(const Cluster& c, int changes, int round) {
  std::vector<PlannedChange> plan;
  std::vector<const PodSpec*> pods;
  for (const auto& [_, p] : c.pods()) pods.push_back(p.get());
  std::vector<const std::string*> nodes;
  for (const auto& [n, _] : c.nodes()) nodes.push_back(&n);
  if (pods.empty() || nodes.empty()) return plan;
  const size_t stride = std::max<size_t>(1, pods.size() / static_cast<size_t>(changes + 1));
  std::set<std::string> deleted;
  for (int i = 0; i < changes; ++i) {
    const PodSpec& was = *pods[(static_cast<size_t>(i) * stride + static_cast<size_t>(round)) % pods.size()];
    if (deleted.count(absl::StrCat(was.namespace_, "/", was.name))) continue;
    PodSpec p = was;
    switch (i % 4) {
      case 0:
        p.name = absl::StrCat(p.name, "-churn-", round, "-", i);
        p.node_name.clear();
        p.phase = "Pending";
        break;
      case 1:
        deleted.insert(absl::StrCat(was.namespace_, "/", was.name));
        plan.push_back({std::nullopt, was.namespace_, was.name});
        continue;
      case 2:
        p.phase = p.phase == "Running" ? "Succeeded" : "Running";
        if (p.node_name.empty()) p.node_name = *nodes[static_cast<size_t>(i) % nodes.size()];
        break;
      default:
        if (p.node_name.empty()) p.node_name = *nodes[static_cast<size_t>(i) % nodes.size()];
        break;
    }
    plan.push_back({std::move(p), "", ""});
  }
  return plan;
}

absl::Status Apply(Cluster& c, std::vector<PlannedChange> plan) {
  for (PlannedChange& change : plan) {
    absl::Status s = change.put ? c.PutPod(*std::move(change.put)) : c.DeletePod(change.namespace_, change.name);
    if (!s.ok()) return s;
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
  // A cycle of a host that still holds the last snapshot: the next one cannot reuse its
  // data in place; the memory it adds is measured too.
  std::vector<PlannedChange> plan = PlanChurn(cluster, changes, 0);
  const int64_t rss_before = ResidentBytes();
  t = Clock::now();
  if (absl::Status s = Apply(cluster, std::move(plan)); !s.ok()) return s;
  absl::StatusOr<Snapshot> second = cluster.Snapshot();
  if (!second.ok()) return second.status();
  const double churn_held_ms = Ms(Clock::now() - t);
  const int64_t rss_after = ResidentBytes();
  // A host loop's cycle: the last snapshot (and its session's decisions) let go before
  // the changes come in, as a scheduling loop does. Cycles and scratch builds of the
  // state they reach alternate; the medians are reported (this machine is noisy).
  first = Snapshot();
  second = Snapshot();
  std::vector<double> cycles, builds;
  absl::StatusOr<Snapshot> third = Snapshot();
  absl::StatusOr<Snapshot> built = Snapshot();
  for (int round = 1; round <= kChurnRounds; ++round) {
    third = Snapshot();
    built = Snapshot();
    plan = PlanChurn(cluster, changes, round);
    t = Clock::now();
    if (absl::Status s = Apply(cluster, std::move(plan)); !s.ok()) return s;
    third = cluster.Snapshot();
    if (!third.ok()) return third.status();
    cycles.push_back(Ms(Clock::now() - t));
    t = Clock::now();
    built = cluster.BuildSnapshot();
    if (!built.ok()) return built.status();
    builds.push_back(Ms(Clock::now() - t));
  }
  const double churn_ms = Median(cycles), build_ms = Median(builds);
  // Each round's build over its own cycle, measured a moment apart: the machine's speed,
  // which drifts from second to second, is the same for both.
  std::vector<double> paired;
  for (size_t i = 0; i < cycles.size(); ++i) paired.push_back(builds[i] / std::max(cycles[i], 1e-9));
  // Sessions on the cluster's snapshot and on the scratch build, interleaved.
  std::vector<double> on_cluster, on_built;
  for (int i = 0; i < 5; ++i) {
    for (const Snapshot* s : {&*third, &*built}) {
      const auto start = Clock::now();
      if (absl::StatusOr<Decisions> d = RunSession(*s, config); !d.ok()) return d.status();
      (s == &*third ? on_cluster : on_built).push_back(Ms(Clock::now() - start));
    }
  }
  std::sort(on_cluster.begin(), on_cluster.end());
  std::sort(on_built.begin(), on_built.end());
  return absl::StrFormat(", \"churn\": %d, \"churn_rounds\": %d, \"fill_ms\": %.3f, \"churn_ms\": %.3f, \"churn_held_ms\": %.3f, \"build_ms\": %.3f, "
                         "\"build_over_churn_paired\": %.2f, "
                         "\"snapshot_unchanged_ms\": %.4f, \"session_on_cluster_ms\": %.3f, \"session_on_built_ms\": %.3f, "
                         "\"first_snapshot_mib\": %.1f, \"second_snapshot_mib\": %.1f",
                         changes, kChurnRounds, fill_ms, churn_ms, churn_held_ms, build_ms, Median(paired), unchanged_ms, on_cluster[2], on_built[2],
                         static_cast<double>(rss_before) / (1 << 20), static_cast<double>(rss_after - rss_before) / (1 << 20));
}

}  // namespace vcsched::cli
