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
  // Node answers that depend only on the task's shape and the node, but for the tasks
  // they veto (pod affinity and spread, PreferNoSchedule taints).
  const PluginTraits node_local{/*node_local_answers=*/true};
  (void)r.RegisterPlugin("predicates", NewPredicatesPlugin, node_local);
  (void)r.RegisterPlugin("proportion", NewProportionPlugin);
  (void)r.RegisterPlugin("nodeorder", NewNodeOrderPlugin, node_local);
  (void)r.RegisterPlugin("binpack", NewBinpackPlugin, node_local);
  (void)r.RegisterPlugin("resource-strategy-fit", NewResourceStrategyFitPlugin, node_local);
  (void)r.RegisterPlugin("sla", NewSlaPlugin);
  (void)r.RegisterPlugin("capacity", NewCapacityPlugin);
  (void)r.RegisterPlugin("network-topology-aware", NewNetworkTopologyPlugin, node_local);
  (void)r.RegisterPlugin("resourcequota", NewResourceQuotaPlugin);
  (void)r.RegisterPlugin("pdb", NewPdbPlugin);
  (void)r.RegisterPlugin("cdp", NewCdpPlugin);
  (void)r.RegisterPlugin("nodegroup", NewNodeGroupPlugin);
  (void)r.RegisterPlugin("tdm", NewTdmPlugin);
  (void)r.RegisterPlugin("task-topology", NewTaskTopologyPlugin);
  (void)r.RegisterPlugin("usage", NewUsagePlugin, node_local);
  (void)r.RegisterPlugin("numa-aware", NewNumaAwarePlugin);  // its predicate keeps state: no node-choice reuse
  (void)r.RegisterPlugin("rescheduling", NewReschedulingPlugin);
  (void)r.RegisterPlugin("deviceshare", NewDeviceSharePlugin, node_local);
}

}  // namespace vcsched::internal
