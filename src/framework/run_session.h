// A session run with a given registry: RunSession without the choice of the built-in
// registry, which sits above the framework (src/builtins.cc).
#ifndef VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_
#define VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_

#include <functional>

#include "absl/status/statusor.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// Explain's way into a session (src/explain): with hooks, the session keeps its explain
// log; `on_open` runs once the plugins are open, before any action, and `on_close` once
// the PodGroup statuses and task reasons are written, before the decisions leave.
struct SessionHooks {
  std::function<absl::Status(Session&)> on_open;
  std::function<void(Session&)> on_close;
  bool node_verdicts_by_node = false;  // explain keeps each node's verdict (one job asked)
};

absl::StatusOr<Decisions> RunSessionWith(const Registry& registry, const Snapshot& snapshot,
                                         const SchedulerConfig& config, const RunOptions& options,
                                         const SessionHooks* hooks = nullptr);

// The registry RunSession uses for `options`: options.registry, else the built-in one.
const Registry& RegistryFor(const RunOptions& options);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_
