// network-topology-aware: HyperNode-based placement (docs/reference/scheduler.md §10.19). A snapshot has
// no HyperNode objects, so there are no topology domains to order or prefer: the plugin
// accepts its arguments and registers nothing, which is what Volcano's plugin amounts
// to on a cluster without HyperNodes. Jobs that ask for a network topology get a loader
// warning and are placed as flat gangs.
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

class NetworkTopologyPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session&) override { return absl::OkStatus(); }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewNetworkTopologyPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new NetworkTopologyPlugin());
}

}  // namespace vcsched::internal
