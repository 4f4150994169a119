// Fuzzes watch-event streams into a Cluster: events are read, applied one by one (a
// refused event must leave the state unchanged), and at each SCHEDULE the cluster's
// snapshot (patched or built) must equal a scratch build of its objects field by field
// and a session on it decide what a session on the build decides; the decisions are
// then applied. Every other snapshot is kept through the next one, so that patches are
// made both in place and from a copy (the kept one must not change).
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "vcsched/cluster.h"
#include "vcsched/io/format.h"
#include "vcsched/io/watch.h"
#include "vcsched/scheduler.h"
#include "tests/testing/snapshot_compare.h"

namespace {

using namespace vcsched;

void Require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  absl::StatusOr<std::vector<WatchEvent>> events =
      ReadWatchEvents({"fuzz.json", std::string(reinterpret_cast<const char*>(data), size)});
  if (!events.ok()) return 0;
  Cluster cluster;
  const SchedulerConfig config = DefaultSchedulerConfig();
  int sessions = 0;
  std::optional<Snapshot> kept, kept_build;  // the last snapshot, held through the next change
  for (const WatchEvent& e : *events) {
    const int64_t generation = cluster.generation();
    std::vector<std::string> notes;
    if (!ApplyWatchEvent(cluster, e, &notes).ok()) Require(cluster.generation() == generation);
    if (e.type != WatchEvent::Type::kSchedule || ++sessions > 8) continue;
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
  }
  return 0;
}
