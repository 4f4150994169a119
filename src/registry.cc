#include "vcsched/registry.h"

#include <algorithm>
#include <iterator>

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
      if (f == nullptr && Skips(p.name)) continue;
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

bool Registry::Skips(absl::string_view plugin) const {
  // Volcano's plugins (reference §4.1) that vcsched does not model.
  static constexpr absl::string_view kVolcanoOnly[] = {"tdm", "task-topology", "numa-aware", "deviceshare",
                                                       "usage", "pdb", "rescheduling", "resourcequota",
                                                       "cdp", "nodegroup", "extender"};
  return FindPlugin(plugin) == nullptr &&
         std::find(std::begin(kVolcanoOnly), std::end(kVolcanoOnly), plugin) != std::end(kVolcanoOnly);
}

std::vector<std::string> Registry::ConfigWarnings(const SchedulerConfig& config) const {
  std::vector<std::string> out;
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    bool hierarchical_drf = false, proportion = false;
    for (size_t pi = 0; pi < config.tiers[ti].plugins.size(); ++pi) {
      const PluginOption& p = config.tiers[ti].plugins[pi];
      hierarchical_drf |= p.name == "drf" && p.Enabled(Switch::kHierarchy);
      proportion |= p.name == "proportion";
      if (Skips(p.name)) {
        out.push_back(absl::StrCat("tiers[", ti, "].plugins[", pi, "]: plugin \"", p.name,
                                   "\" is not modelled by vcsched; the session runs without it, so ",
                                   "decisions it would change can differ from Volcano's"));
      }
    }
    if (hierarchical_drf && proportion) {
      out.push_back(absl::StrCat("tiers[", ti, "]: drf with enableHierarchy and proportion share a tier: ",
                                 "Volcano's scheduler refuses to load such a file (and keeps its previous ",
                                 "configuration); this session runs both, as Volcano's framework does"));
    }
  }
  return out;
}

}  // namespace vcsched
