// Factories of the built-in plugins, and their registration.
#ifndef VCSCHED_SRC_PLUGINS_PLUGINS_H_
#define VCSCHED_SRC_PLUGINS_PLUGINS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "vcsched/plugin.h"
#include "vcsched/registry.h"

namespace vcsched::internal {

absl::StatusOr<std::unique_ptr<Plugin>> NewPriorityPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewGangPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewConformancePlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewOvercommitPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewDrfPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewPredicatesPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewProportionPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewNodeOrderPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewBinpackPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewResourceStrategyFitPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewSlaPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewCapacityPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewNetworkTopologyPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewResourceQuotaPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewPdbPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewCdpPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewTdmPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewTaskTopologyPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewUsagePlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewNumaAwarePlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewReschedulingPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewNodeGroupPlugin(const Arguments& args);
absl::StatusOr<std::unique_ptr<Plugin>> NewDeviceSharePlugin(const Arguments& args);

void RegisterBuiltInPlugins(Registry& registry);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_PLUGINS_H_
