#include "vcsched/registry.h"

#include <algorithm>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/util/status_macros.h"

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

// Builds once: a wrongly typed argument takes its default, as in Volcano, and its error
// text goes to `dropped`.
template <typename T, typename Factory>
absl::StatusOr<std::unique_ptr<T>> BuildOnce(const Factory& factory, const Arguments& arguments,
                                             std::vector<std::string>* dropped) {
  std::vector<std::string> ignored;
  Arguments lenient = arguments;
  lenient.set_wrong_type_sink(dropped != nullptr ? dropped : &ignored);
  return factory(lenient);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> Registry::MakePlugin(absl::string_view name, const Arguments& arguments,
                                                             std::vector<std::string>* dropped) const {
  const PluginFactory* f = FindPlugin(name);
  if (f == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown plugin \"", name, "\""));
  return BuildOnce<Plugin>(*f, arguments, dropped);
}

absl::StatusOr<std::unique_ptr<Action>> Registry::MakeAction(absl::string_view name, const Arguments& arguments,
                                                             std::vector<std::string>* dropped) const {
  const ActionFactory* f = FindAction(name);
  if (f == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown action \"", name, "\""));
  return BuildOnce<Action>(*f, arguments, dropped);
}

// How a warning about a dropped argument ends.
constexpr char kDefaultUsed[] = "; the default is used there, as Volcano does";

absl::Status Registry::Check(const SchedulerConfig& config, std::vector<std::string>* warnings,
                             std::vector<std::unique_ptr<Plugin>>* plugins) const {
  const auto error = [&](std::string message) {
    return absl::InvalidArgumentError(config.origin.empty() ? message : absl::StrCat(config.origin, ": ", message));
  };
  // Every warning starts with where the configuration came from.
  const auto warn = [&](std::string w) {
    if (warnings != nullptr) warnings->push_back(config.origin.empty() ? std::move(w) : absl::StrCat(config.origin, ": ", w));
  };
  if (config.actions.empty()) return error("actions: no action configured");
  for (size_t i = 0; i < config.actions.size(); ++i) {
    if (FindAction(config.actions[i]) == nullptr) {
      return error(absl::StrCat("actions[", i, "]: unknown action \"", config.actions[i], "\""));
    }
  }
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    for (size_t pi = 0; pi < config.tiers[ti].plugins.size(); ++pi) {
      const PluginOption& p = config.tiers[ti].plugins[pi];
      const std::string where = absl::StrCat("tiers[", ti, "].plugins[", pi, "]");
      if (Skips(p.name)) {
        warn(absl::StrCat(where, ": plugin \"", p.name, "\" is not modelled by vcsched; the session runs ",
                          "without it, so decisions it would change can differ from Volcano's"));
        continue;
      }
      if (FindPlugin(p.name) == nullptr) return error(absl::StrCat(where, ": unknown plugin \"", p.name, "\""));
      std::vector<std::string> dropped;
      absl::StatusOr<std::unique_ptr<Plugin>> made = MakePlugin(p.name, p.arguments, &dropped);
      if (!made.ok()) return error(absl::StrCat(where, " (", p.name, "): arguments: ", made.status().message()));
      for (const std::string& d : dropped) warn(absl::StrCat(where, " (", p.name, "): ", d, kDefaultUsed));
      if (plugins != nullptr) plugins->push_back(*std::move(made));
    }
    if (config.tiers[ti].MixesHierarchicalDrfAndProportion()) {
      warn(absl::StrCat("tiers[", ti, "]: drf with enableHierarchy and proportion share a tier: ",
                        "Volcano's scheduler refuses to load such a file (and keeps its previous ",
                        "configuration); this session runs both, as Volcano's framework does"));
    }
  }
  for (size_t i = 0; i < config.configurations.size(); ++i) {
    const ActionConfiguration& c = config.configurations[i];
    if (FindAction(c.name) == nullptr) {
      return error(absl::StrCat("configurations[", i, "]: unknown action \"", c.name, "\""));
    }
    std::vector<std::string> dropped;
    absl::StatusOr<std::unique_ptr<Action>> made = MakeAction(c.name, c.arguments, &dropped);
    if (!made.ok()) {
      return error(absl::StrCat("configurations[", i, "] (", c.name, "): arguments: ", made.status().message()));
    }
    for (const std::string& d : dropped) warn(absl::StrCat("configurations[", i, "] (", c.name, "): ", d, kDefaultUsed));
  }
  return absl::OkStatus();
}

absl::Status Registry::ValidateConfig(const SchedulerConfig& config) const { return Check(config, nullptr, nullptr); }

std::vector<std::string> Registry::ConfigWarnings(const SchedulerConfig& config) const {
  std::vector<std::string> out;
  (void)Check(config, &out, nullptr);  // an invalid configuration: the warnings found before its error
  return out;
}

absl::StatusOr<std::vector<std::unique_ptr<Plugin>>> Registry::BuildPlugins(const SchedulerConfig& config,
                                                                            std::vector<std::string>* warnings) const {
  std::vector<std::unique_ptr<Plugin>> plugins;
  VCSCHED_RETURN_IF_ERROR(Check(config, warnings, &plugins));
  return plugins;
}

bool Registry::Skips(absl::string_view plugin) const {
  // Volcano's plugins (docs/reference/scheduler.md §4.1) that vcsched does not model.
  static constexpr absl::string_view kVolcanoOnly[] = {"extender"};
  return FindPlugin(plugin) == nullptr &&
         std::find(std::begin(kVolcanoOnly), std::end(kVolcanoOnly), plugin) != std::end(kVolcanoOnly);
}

}  // namespace vcsched
