// Factories of the built-in actions, and their registration.
#ifndef VCSCHED_SRC_ACTIONS_ACTIONS_H_
#define VCSCHED_SRC_ACTIONS_ACTIONS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "vcsched/action.h"
#include "vcsched/registry.h"

namespace vcsched::internal {

absl::StatusOr<std::unique_ptr<Action>> NewEnqueueAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewAllocateAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewBackfillAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewPreemptAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewReclaimAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewShuffleAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewGangPreemptAction(const Arguments& args);
absl::StatusOr<std::unique_ptr<Action>> NewGangReclaimAction(const Arguments& args);

void RegisterBuiltInActions(Registry& registry);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_ACTIONS_H_
