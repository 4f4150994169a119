// The action interface: one step of a session (enqueue, allocate, ...).
#ifndef VCSCHED_ACTION_H_
#define VCSCHED_ACTION_H_

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "vcsched/arguments.h"
#include "vcsched/session.h"

namespace vcsched {

class Action {
 public:
  virtual ~Action() = default;
  // Runs the action on the session. An error ends the session with no Decisions.
  virtual absl::Status Execute(Session& session) = 0;
};

// Builds an action from its `configurations` arguments.
using ActionFactory = std::function<absl::StatusOr<std::unique_ptr<Action>>(const Arguments&)>;

}  // namespace vcsched

#endif  // VCSCHED_ACTION_H_
