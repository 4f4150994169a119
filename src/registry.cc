#include "vcsched/registry.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/plugins/plugins.h"

namespace vcsched {

Registry Registry::BuiltIn() {
  Registry r;
  internal::RegisterBuiltInPlugins(r);
  internal::RegisterBuiltInActions(r);
  return r;
}

absl::Status Registry::RegisterPlugin(std::string name, PluginFactory factory) {
  if (name.empty()) return absl::InvalidArgumentError("plugin name must not be empty");
  if (plugins_.count(name)) {
    return absl::AlreadyExistsError(absl::StrCat("plugin \"", name, "\" is already registered"));
  }
  plugins_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

absl::Status Registry::RegisterAction(std::string name, ActionFactory factory) {
  if (name.empty()) return absl::InvalidArgumentError("action name must not be empty");
  if (actions_.count(name)) {
    return absl::AlreadyExistsError(absl::StrCat("action \"", name, "\" is already registered"));
  }
  actions_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

const PluginFactory* Registry::FindPlugin(absl::string_view name) const {
  auto it = plugins_.find(name);
  return it == plugins_.end() ? nullptr : &it->second;
}

const ActionFactory* Registry::FindAction(absl::string_view name) const {
  auto it = actions_.find(name);
  return it == actions_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::PluginNames() const {
  std::vector<std::string> out;
  for (const auto& [n, f] : plugins_) out.push_back(n);
  return out;
}

std::vector<std::string> Registry::ActionNames() const {
  std::vector<std::string> out;
  for (const auto& [n, f] : actions_) out.push_back(n);
  return out;
}

absl::Status Registry::ValidateConfig(const SchedulerConfig& config) const {
  if (config.actions.empty()) return absl::InvalidArgumentError("actions: no action configured");
  for (size_t i = 0; i < config.actions.size(); ++i) {
    if (FindAction(config.actions[i]) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("actions[", i, "]: unknown action \"", config.actions[i], "\""));
    }
  }
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    for (size_t pi = 0; pi < config.tiers[ti].plugins.size(); ++pi) {
      const PluginOption& p = config.tiers[ti].plugins[pi];
      const std::string where = absl::StrCat("tiers[", ti, "].plugins[", pi, "]");
      const PluginFactory* f = FindPlugin(p.name);
      if (f == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": unknown plugin \"", p.name, "\""));
      }
      absl::StatusOr<std::unique_ptr<Plugin>> made = (*f)(p.arguments);
      if (!made.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, " (", p.name, "): arguments: ", made.status().message()));
      }
    }
  }
  for (size_t i = 0; i < config.configurations.size(); ++i) {
    const ActionConfiguration& c = config.configurations[i];
    const ActionFactory* f = FindAction(c.name);
    if (f == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("configurations[", i, "]: unknown action \"", c.name, "\""));
    }
    absl::StatusOr<std::unique_ptr<Action>> made = (*f)(c.arguments);
    if (!made.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("configurations[", i, "] (", c.name, "): arguments: ", made.status().message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace vcsched
