// Kubernetes watch events for a Cluster: JSON values one after another, one per line or
// pretty-printed, as the watch API and `kubectl get -w -o json --output-watch-events`
// print them: {"type": "ADDED"|"MODIFIED"|"DELETED"|"BOOKMARK"|"ERROR", "object": {...}}.
// vcsched adds {"type": "SCHEDULE"}: run a session here (`vcsched replay`), optionally
// with "now" (the session's clock, seconds since the epoch) and "expect" (an
// Expectation's fields, docs/FORMAT.md, that the session's decisions must meet).
#ifndef VCSCHED_IO_WATCH_H_
#define VCSCHED_IO_WATCH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "vcsched/cluster.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/io/scenario.h"
#include "vcsched/value.h"

namespace vcsched {

struct WatchEvent {
  enum class Type { kAdded, kModified, kDeleted, kBookmark, kError, kSchedule };
  Type type = Type::kAdded;
  std::string where;   // "events.json: event 3", for messages
  std::string object;  // the object as JSON text; empty for SCHEDULE
  // SCHEDULE only.
  std::optional<int64_t> now;
  std::optional<Expectation> expect;
};

// The events of a stream, in order. Errors name the source, the event and the field:
// a value that is not an object, an unknown type, a missing object. The loader's limits
// hold (LoadOptions: 256 MiB of text, nesting 200 deep).
absl::StatusOr<std::vector<WatchEvent>> ReadWatchEvents(const ScenarioSource& source);

// Applies one event. ADDED and MODIFIED put the object (an ADDED for an object that
// exists is an update, as after a relist; a MODIFIED for one that does not exist is an
// error); DELETED removes it. The object is read and
// checked as the loader reads it (a Volcano Job is expanded into its PodGroup and pods);
// on error the cluster is unchanged. What is reported but not an error goes to `notes`:
// a DELETED for an object that does not exist, an ERROR event, an object of a kind the
// cluster does not hold. BOOKMARK and SCHEDULE do nothing here.
absl::Status ApplyWatchEvent(Cluster& cluster, const WatchEvent& event, std::vector<std::string>* notes);
// The same for an event a host holds as a Value tree ({"type": ..., "object": {...}}, e.g.
// converted from a Python dict), read without a trip through text. `where` names it in
// messages. SCHEDULE and BOOKMARK do nothing.
absl::Status ApplyWatchEvent(Cluster& cluster, const Value& event, absl::string_view where,
                             std::vector<std::string>* notes);
// The same for an event in a host's own objects (a Python dict), read in place: only the
// fields the readers need are visited, and nothing is copied first.
absl::Status ApplyWatchEvent(Cluster& cluster, const HostTree& tree, HostTree::Node event, absl::string_view where,
                             std::vector<std::string>* notes);
// The same for an ADDED, MODIFIED or DELETED event of a Pod the host has read itself
// (Python's reader of plain dicts): applied as ApplyWatchEvent applies such an event. The
// pod must be one the readers would give without a warning, and pass ObjectProblems.
absl::Status ApplyPodEvent(Cluster& cluster, WatchEvent::Type type, PodSpec&& pod, absl::string_view where,
                           std::vector<std::string>* notes);

}  // namespace vcsched

#endif  // VCSCHED_IO_WATCH_H_
