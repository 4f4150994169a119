// A session run with a given registry: RunSession without the choice of the built-in
// registry, which sits above the framework (src/builtins.cc).
#ifndef VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_
#define VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_

#include "absl/status/statusor.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"

namespace vcsched::internal {

absl::StatusOr<Decisions> RunSessionWith(const Registry& registry, const Snapshot& snapshot,
                                         const SchedulerConfig& config, const RunOptions& options);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_FRAMEWORK_RUN_SESSION_H_
