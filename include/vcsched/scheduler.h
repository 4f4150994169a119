// The entry point: one scheduling session, a pure function of its inputs.
//
//   absl::StatusOr<Decisions> d = RunSession(snapshot, DefaultSchedulerConfig());
//
// The snapshot is never changed. The same snapshot, configuration and options give the
// same Decisions, bit for bit. Where Volcano picks at random, vcsched picks by a rule
// (README "Determinism"): among equal node scores the node first in name order.
#ifndef VCSCHED_SCHEDULER_H_
#define VCSCHED_SCHEDULER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler_memory.h"
#include "vcsched/snapshot.h"

namespace vcsched {

struct RunOptions {
  // Actions and plugins to use. Default (nullptr): Registry::BuiltIn().
  const Registry* registry = nullptr;
  // The session's clock, seconds since the epoch (sla waiting times). Default: 0, which
  // means "the newest creationTimestamp in the snapshot".
  int64_t now_seconds = 0;
  // Written as the transitionID of PodGroup conditions. Default: "vcsched".
  std::string session_id = "vcsched";
  // Reuse node feasibility and scores across identical tasks of a job visit (decisions
  // are the same either way; false evaluates every node for every task, the reference
  // path tests compare against). Default: true.
  bool node_choice_cache = true;
  // What the scheduler remembers from earlier sessions (vcsched/scheduler_memory.h); a
  // session that ends without error writes back what it changed. Default (nullptr): the
  // first session of a scheduler that started at this session's clock.
  SchedulerMemory* memory = nullptr;
};

// Runs every configured action in order on a session over `snapshot`.
// kInvalidArgument for a configuration the registry rejects; an action's or plugin's
// error ends the session with that error.
absl::StatusOr<Decisions> RunSession(const Snapshot& snapshot, const SchedulerConfig& config,
                                     const RunOptions& options = {});

}  // namespace vcsched

#endif  // VCSCHED_SCHEDULER_H_
