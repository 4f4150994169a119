// Fuzzes watch-event streams into a Cluster: events are read, applied one by one (a
// refused event must leave the state unchanged), and at each SCHEDULE the cluster's
// snapshot (patched or built) must equal a scratch build of its objects field by field
// and a session on it decide what a session on the build decides; the decisions are
// then applied. Every other snapshot is kept through the next one, so that patches are
// made both in place and from a copy (the kept one must not change). Each event is also
// applied to a second cluster through a host's tree (HostTree over the event as a Value,
// as the Python bindings read dicts in place): both must accept or refuse it alike and
// hold the same state at every SCHEDULE and at the end.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/format.h"
#include "vcsched/io/watch.h"
#include "vcsched/scheduler.h"
#include "tests/testing/snapshot_compare.h"
#include "tests/testing/value_host_tree.h"

namespace {

using namespace vcsched;

void Require(bool ok) {
  if (!ok) std::abort();
}

const char* TypeName(WatchEvent::Type t) {
  using T = WatchEvent::Type;
  switch (t) {
    case T::kAdded: return "ADDED";
    case T::kModified: return "MODIFIED";
    case T::kDeleted: return "DELETED";
    case T::kBookmark: return "BOOKMARK";
    case T::kError: return "ERROR";
    case T::kSchedule: return "SCHEDULE";
  }
  return "";
}

// The event through a host's tree: refused exactly when the JSON path refused it.
void ApplyHosted(Cluster& hosted, const WatchEvent& e, bool json_ok) {
  if (e.type == WatchEvent::Type::kSchedule) return;
  Value event = Value::Map();
  event["type"] = Value::String(TypeName(e.type));
  if (!e.object.empty()) {
    absl::StatusOr<Value> object = testing::JsonToValue(e.object);
    if (!object.ok()) {  // a repeated key: no dict holds one, and the JSON path refused it
      Require(!json_ok);
      return;
    }
    event["object"] = *std::move(object);
  }
  const testing::ValueHostTree tree;
  const std::string before = ClusterToYaml(hosted);
  const bool ok = ApplyWatchEvent(hosted, tree, &event, e.where, nullptr).ok();
  Require(ok == json_ok);
  if (!ok) Require(ClusterToYaml(hosted) == before);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  absl::StatusOr<std::vector<WatchEvent>> events =
      ReadWatchEvents({"fuzz.json", std::string(reinterpret_cast<const char*>(data), size)});
  if (!events.ok()) return 0;
  Cluster cluster, hosted;
  const SchedulerConfig config = DefaultSchedulerConfig();
  int sessions = 0;
  std::optional<Snapshot> kept, kept_build;  // the last snapshot, held through the next change
  for (const WatchEvent& e : *events) {
    // A refused event leaves the state exactly as it was (a List's or a Job's puts are
    // undone when a later one is refused, so the generation may move; the objects not).
    const std::string before = ClusterToYaml(cluster);
    std::vector<std::string> notes;
    const bool ok = ApplyWatchEvent(cluster, e, &notes).ok();
    if (!ok) Require(ClusterToYaml(cluster) == before);
    ApplyHosted(hosted, e, ok);
    if (e.type != WatchEvent::Type::kSchedule || ++sessions > 8) continue;
    Require(ClusterToYaml(hosted) == ClusterToYaml(cluster));
    absl::StatusOr<Snapshot> mine = cluster.Snapshot();
    absl::StatusOr<Snapshot> scratch = cluster.BuildSnapshot();
    Require(mine.ok() == scratch.ok());
    if (kept) Require(testing::SnapshotDifference(*kept, *kept_build).empty());
    kept.reset();
    if (!mine.ok()) continue;
    Require(testing::SnapshotDifference(*mine, *scratch).empty());
    if (sessions % 2 == 0) {
      kept = *mine;
      kept_build = *scratch;
    }
    if (mine->tasks().size() > 500 || mine->nodes().size() > 200) continue;
    RunOptions run;
    run.now_seconds = e.now.value_or(0);
    absl::StatusOr<Decisions> a = RunSession(*mine, config, run);
    absl::StatusOr<Decisions> b = RunSession(*scratch, config, run);
    Require(a.ok() == b.ok());
    if (!a.ok()) continue;
    Require(DecisionsToJson(*a) == DecisionsToJson(*b));
    cluster.Apply(*a);
    hosted.Apply(*a);
  }
  Require(ClusterToYaml(hosted) == ClusterToYaml(cluster));
  return 0;
}
