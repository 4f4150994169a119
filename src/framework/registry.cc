#include "vcsched/registry.h"

#include <algorithm>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace vcsched {

absl::Status Registry::RegisterPlugin(std::string name, PluginFactory factory, PluginTraits traits) {
  if (name.empty()) return absl::InvalidArgumentError("plugin name must not be empty");
  if (plugins_.count(name)) {
    return absl::AlreadyExistsError(absl::StrCat("plugin \"", name, "\" is already registered"));
  }
  plugins_.emplace(std::move(name), PluginEntry{std::move(factory), traits});
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
  return it == plugins_.end() ? nullptr : &it->second.factory;
}

const PluginTraits* Registry::FindPluginTraits(absl::string_view name) const {
  auto it = plugins_.find(name);
  return it == plugins_.end() ? nullptr : &it->second.traits;
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

namespace {

// Calls `factory` until it accepts the arguments, dropping each one it names as wrongly
// typed; a key it cannot drop (not at the top level) ends the loop with its error.
template <typename T, typename Factory>
absl::StatusOr<std::unique_ptr<T>> BuildDroppingWrongTypes(const Factory& factory, Arguments arguments,
                                                            std::vector<std::string>* dropped) {
  while (true) {
    absl::StatusOr<std::unique_ptr<T>> made = factory(arguments);
    if (made.ok()) return made;
    const std::optional<std::string> key = WrongTypeArgument(made.status());
    if (!key || !arguments.Erase(*key)) return made;
    if (dropped != nullptr) dropped->push_back(std::string(made.status().message()));
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> Registry::MakePlugin(absl::string_view name, const Arguments& arguments,
                                                             std::vector<std::string>* dropped) const {
  const PluginFactory* f = FindPlugin(name);
  if (f == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown plugin \"", name, "\""));
  return BuildDroppingWrongTypes<Plugin>(*f, arguments, dropped);
}

absl::StatusOr<std::unique_ptr<Action>> Registry::MakeAction(absl::string_view name, const Arguments& arguments,
                                                             std::vector<std::string>* dropped) const {
  const ActionFactory* f = FindAction(name);
  if (f == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown action \"", name, "\""));
  return BuildDroppingWrongTypes<Action>(*f, arguments, dropped);
}

absl::Status Registry::ValidateConfig(const SchedulerConfig& config) const {
  const auto error = [&](std::string message) {
    return absl::InvalidArgumentError(config.origin.empty() ? message : absl::StrCat(config.origin, ": ", message));
  };
  if (config.actions.empty()) return error("actions: no action configured");
  for (size_t i = 0; i < config.actions.size(); ++i) {
    if (FindAction(config.actions[i]) == nullptr) {
      return error(
          absl::StrCat("actions[", i, "]: unknown action \"", config.actions[i], "\""));
    }
  }
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    for (size_t pi = 0; pi < config.tiers[ti].plugins.size(); ++pi) {
      const PluginOption& p = config.tiers[ti].plugins[pi];
      const std::string where = absl::StrCat("tiers[", ti, "].plugins[", pi, "]");
      if (Skips(p.name)) continue;
      if (FindPlugin(p.name) == nullptr) {
        return error(absl::StrCat(where, ": unknown plugin \"", p.name, "\""));
      }
      absl::StatusOr<std::unique_ptr<Plugin>> made = MakePlugin(p.name, p.arguments);
      if (!made.ok()) {
        return error(
            absl::StrCat(where, " (", p.name, "): arguments: ", made.status().message()));
      }
    }
  }
  for (size_t i = 0; i < config.configurations.size(); ++i) {
    const ActionConfiguration& c = config.configurations[i];
    if (FindAction(c.name) == nullptr) {
      return error(
          absl::StrCat("configurations[", i, "]: unknown action \"", c.name, "\""));
    }
    absl::StatusOr<std::unique_ptr<Action>> made = MakeAction(c.name, c.arguments);
    if (!made.ok()) {
      return error(
          absl::StrCat("configurations[", i, "] (", c.name, "): arguments: ", made.status().message()));
    }
  }
  return absl::OkStatus();
}

bool Registry::Skips(absl::string_view plugin) const {
  // Volcano's plugins (docs/reference/scheduler.md §4.1) that vcsched does not model.
  static constexpr absl::string_view kVolcanoOnly[] = {"tdm", "task-topology", "numa-aware", "deviceshare",
                                                       "usage", "pdb", "rescheduling", "resourcequota",
                                                       "cdp", "nodegroup", "extender"};
  return FindPlugin(plugin) == nullptr &&
         std::find(std::begin(kVolcanoOnly), std::end(kVolcanoOnly), plugin) != std::end(kVolcanoOnly);
}

// How a warning about a dropped argument ends.
constexpr char kDefaultUsed[] = "; the default is used there, as Volcano does";

std::vector<std::string> Registry::ConfigWarnings(const SchedulerConfig& config) const {
  std::vector<std::string> out;
  struct Prefixed {  // every warning starts with where the configuration came from
    std::vector<std::string>& out;
    const std::string& origin;
    void push_back(std::string w) { out.push_back(origin.empty() ? std::move(w) : absl::StrCat(origin, ": ", w)); }
  } warn{out, config.origin};
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    for (size_t pi = 0; pi < config.tiers[ti].plugins.size(); ++pi) {
      const PluginOption& p = config.tiers[ti].plugins[pi];
      const std::string where = absl::StrCat("tiers[", ti, "].plugins[", pi, "]");
      if (Skips(p.name)) {
        warn.push_back(absl::StrCat(where, ": plugin \"", p.name, "\" is not modelled by vcsched; the session runs ",
                                   "without it, so decisions it would change can differ from Volcano's"));
        continue;
      }
      std::vector<std::string> dropped;
      (void)MakePlugin(p.name, p.arguments, &dropped);
      for (const std::string& d : dropped) warn.push_back(absl::StrCat(where, " (", p.name, "): ", d, kDefaultUsed));
    }
    if (config.tiers[ti].MixesHierarchicalDrfAndProportion()) {
      warn.push_back(absl::StrCat("tiers[", ti, "]: drf with enableHierarchy and proportion share a tier: ",
                                 "Volcano's scheduler refuses to load such a file (and keeps its previous ",
                                 "configuration); this session runs both, as Volcano's framework does"));
    }
  }
  for (size_t i = 0; i < config.configurations.size(); ++i) {
    const ActionConfiguration& c = config.configurations[i];
    std::vector<std::string> dropped;
    (void)MakeAction(c.name, c.arguments, &dropped);
    for (const std::string& d : dropped) {
      warn.push_back(absl::StrCat("configurations[", i, "] (", c.name, "): ", d, kDefaultUsed));
    }
  }
  return out;
}

}  // namespace vcsched
