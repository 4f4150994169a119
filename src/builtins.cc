// The top of the core: the registry of built-in actions and plugins, and the session
// entry point that uses it when the host brings none. The framework below knows
// neither actions nor plugins by name.
#include "src/actions/actions.h"
#include "src/framework/run_session.h"
#include "src/plugins/plugins.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"

namespace vcsched {

Registry Registry::BuiltIn() {
  Registry r;
  internal::RegisterBuiltInPlugins(r);
  internal::RegisterBuiltInActions(r);
  return r;
}

const Registry& internal::RegistryFor(const RunOptions& options) {
  static const Registry* const kBuiltIn = new Registry(Registry::BuiltIn());
  return options.registry != nullptr ? *options.registry : *kBuiltIn;
}

absl::StatusOr<Decisions> RunSession(const Snapshot& snapshot, const SchedulerConfig& config,
                                     const RunOptions& options) {
  return internal::RunSessionWith(internal::RegistryFor(options), snapshot, config, options);
}

}  // namespace vcsched
