// HyperNodes from node labels, as Volcano's label discoverer (v1.13,
// controllers/hypernode/discovery/label) makes them for a cluster whose nodes carry
// their network domains as labels.
//
//   std::vector<HyperNodeSpec> tree = DiscoverHyperNodes(nodes, {"example.com/spine", "example.com/rack"});
//
// `keys` go from the widest domain to the narrowest, as Volcano's networkTopologyTypes
// list them; a last key kubernetes.io/hostname (the node itself) is dropped, as Volcano
// drops it, and a key given more than once counts once, at its widest place (a domain
// cannot hold itself). The narrowest key gives tier 1, whose HyperNodes hold nodes; each wider key
// gives the next tier, whose HyperNodes hold the ones below. A node is climbed from the
// narrowest key up to the first key it lacks. One HyperNode stands for each (key, value)
// pair, whatever lies below it, as in Volcano (a value must be unique across the cluster).
//
// Names follow Volcano's "hypernode-<type>-tier<N>-<suffix>"; where Volcano draws the
// five-character suffix at random, it is taken here from a hash of "<key>=<value>" in the
// same alphabet (rehashed on a clash), so a cluster always gets the same names. Each
// HyperNode carries the labels volcano.sh/network-topology-source=label and key=value,
// tierName = the key, members sorted by name. Results are sorted by name.
#ifndef VCSCHED_HYPER_NODE_DISCOVERY_H_
#define VCSCHED_HYPER_NODE_DISCOVERY_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "vcsched/objects.h"

namespace vcsched {

std::vector<HyperNodeSpec> DiscoverHyperNodes(const std::vector<const NodeSpec*>& nodes,
                                              const std::vector<std::string>& keys,
                                              absl::string_view topology_type = "label");

}  // namespace vcsched

#endif  // VCSCHED_HYPER_NODE_DISCOVERY_H_
