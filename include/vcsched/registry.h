// An explicit registry of actions and plugins: the built-ins plus whatever a host adds.
//
//   Registry reg = Registry::BuiltIn();
//   reg.RegisterPlugin("prefer-n1", [](const Arguments&) { ... });
//   RunOptions opts; opts.registry = &reg;
#ifndef VCSCHED_REGISTRY_H_
#define VCSCHED_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "vcsched/action.h"
#include "vcsched/config.h"
#include "vcsched/plugin.h"

namespace vcsched {

class Registry {
 public:
  // An empty registry.
  Registry() = default;
  // Every built-in action and plugin.
  static Registry BuiltIn();

  // kAlreadyExists when the name is taken; kInvalidArgument for an empty name.
  absl::Status RegisterPlugin(std::string name, PluginFactory factory);
  absl::Status RegisterAction(std::string name, ActionFactory factory);

  const PluginFactory* FindPlugin(absl::string_view name) const;
  const ActionFactory* FindAction(absl::string_view name) const;
  std::vector<std::string> PluginNames() const;
  std::vector<std::string> ActionNames() const;

  // Every action and plugin exists, and every plugin and action accepts its arguments.
  // Errors name the place: `tiers[1].plugins[2]: unknown plugin "gangg"`. Combinations
  // Volcano's file loader refuses but its framework runs are warnings instead
  // (SchedulerConfig::Warnings).
  absl::Status ValidateConfig(const SchedulerConfig& config) const;

 private:
  std::map<std::string, PluginFactory, std::less<>> plugins_;
  std::map<std::string, ActionFactory, std::less<>> actions_;
};

}  // namespace vcsched

#endif  // VCSCHED_REGISTRY_H_
