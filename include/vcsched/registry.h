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
  absl::Status RegisterPlugin(std::string name, PluginFactory factory, PluginTraits traits = {});
  absl::Status RegisterAction(std::string name, ActionFactory factory);

  const PluginFactory* FindPlugin(absl::string_view name) const;
  // The traits the plugin was registered with; nullptr when it is not registered.
  const PluginTraits* FindPluginTraits(absl::string_view name) const;
  const ActionFactory* FindAction(absl::string_view name) const;
  // Builds a registered plugin or action from its arguments, once. An argument of the
  // wrong type takes its default there, as Volcano does (Arguments' wrong-type sink),
  // and adds its line to `dropped` (when given). Other argument errors, and an
  // unregistered name, are errors.
  absl::StatusOr<std::unique_ptr<Plugin>> MakePlugin(absl::string_view name, const Arguments& arguments,
                                                     std::vector<std::string>* dropped = nullptr) const;
  absl::StatusOr<std::unique_ptr<Action>> MakeAction(absl::string_view name, const Arguments& arguments,
                                                     std::vector<std::string>* dropped = nullptr) const;
  std::vector<std::string> PluginNames() const;
  std::vector<std::string> ActionNames() const;

  // Every action and plugin exists, and every plugin and action accepts its arguments
  // (wrongly typed ones aside: see MakePlugin). Errors name the place:
  // `tiers[1].plugins[2]: unknown plugin "gangg"`. A plugin of Volcano's that this
  // registry lacks (tdm, numa-aware, ...) is not an error: sessions skip it, as Volcano
  // skips a plugin it cannot build, and ConfigWarnings says so.
  absl::Status ValidateConfig(const SchedulerConfig& config) const;
  // What a valid configuration does that a session cannot follow as Volcano would, one
  // line each: plugins skipped (above), arguments of the wrong type (their defaults are
  // used), and hierarchical drf beside proportion in one tier (Volcano's file loader
  // refuses that; its framework, which sessions follow, runs both).
  std::vector<std::string> ConfigWarnings(const SchedulerConfig& config) const;
  // ValidateConfig, ConfigWarnings (into `warnings`) and every plugin of the tiers built,
  // in tier order, skipped plugins left out: each plugin is built once.
  absl::StatusOr<std::vector<std::unique_ptr<Plugin>>> BuildPlugins(const SchedulerConfig& config,
                                                                    std::vector<std::string>* warnings) const;
  // A plugin of Volcano's that this registry lacks: sessions skip it.
  bool Skips(absl::string_view plugin) const;

 private:
  struct PluginEntry {
    PluginFactory factory;
    PluginTraits traits;
  };
  std::map<std::string, PluginEntry, std::less<>> plugins_;
  std::map<std::string, ActionFactory, std::less<>> actions_;
  // ValidateConfig's checks; warnings and built plugins when asked for.
  absl::Status Check(const SchedulerConfig& config, std::vector<std::string>* warnings,
                     std::vector<std::unique_ptr<Plugin>>* plugins) const;
};

}  // namespace vcsched

#endif  // VCSCHED_REGISTRY_H_
