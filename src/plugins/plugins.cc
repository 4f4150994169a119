#include "src/plugins/plugins.h"

namespace vcsched::internal {

void RegisterBuiltInPlugins(Registry& r) {
  // Names byte for byte as Volcano registers them. Registration into a fresh registry
  // cannot collide, so the statuses are known to be OK.
  (void)r.RegisterPlugin("priority", NewPriorityPlugin);
  (void)r.RegisterPlugin("gang", NewGangPlugin);
  (void)r.RegisterPlugin("conformance", NewConformancePlugin);
  (void)r.RegisterPlugin("overcommit", NewOvercommitPlugin);
  (void)r.RegisterPlugin("drf", NewDrfPlugin);
  (void)r.RegisterPlugin("predicates", NewPredicatesPlugin);
  (void)r.RegisterPlugin("proportion", NewProportionPlugin);
  (void)r.RegisterPlugin("nodeorder", NewNodeOrderPlugin);
  (void)r.RegisterPlugin("binpack", NewBinpackPlugin);
  (void)r.RegisterPlugin("resource-strategy-fit", NewResourceStrategyFitPlugin);
  (void)r.RegisterPlugin("sla", NewSlaPlugin);
  (void)r.RegisterPlugin("capacity", NewCapacityPlugin);
  (void)r.RegisterPlugin("network-topology-aware", NewNetworkTopologyPlugin);
}

bool IsBuiltInPluginFactory(const PluginFactory& factory) {
  using Fn = absl::StatusOr<std::unique_ptr<Plugin>> (*)(const Arguments&);
  const Fn* fn = factory.target<Fn>();
  if (fn == nullptr) return false;
  for (Fn builtin : {&NewPriorityPlugin, &NewGangPlugin, &NewConformancePlugin, &NewOvercommitPlugin, &NewDrfPlugin,
                     &NewPredicatesPlugin, &NewProportionPlugin, &NewNodeOrderPlugin, &NewBinpackPlugin,
                     &NewResourceStrategyFitPlugin, &NewSlaPlugin, &NewCapacityPlugin, &NewNetworkTopologyPlugin}) {
    if (*fn == builtin) return true;
  }
  return false;
}

}  // namespace vcsched::internal
