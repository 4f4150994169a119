// vcsched hypernodes: the HyperNodes Volcano's label discoverer would create, as YAML.
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/cluster.h"
#include "vcsched/hyper_node_discovery.h"
#include "vcsched/io/cluster_io.h"

namespace vcsched::cli {

int HyperNodes(const HyperNodesOptions& options) {
  absl::StatusOr<Scenario> sc = LoadScenarioFiles(options.files);
  if (!sc.ok()) {
    std::cerr << "vcsched: " << sc.status().message() << "\n";
    return 1;
  }
  std::vector<std::string> labels = options.labels;
  if (labels.empty()) labels = {"topology.kubernetes.io/region", "topology.kubernetes.io/zone"};
  std::vector<const NodeSpec*> nodes;
  for (const NodeInfo& n : sc->snapshot.nodes()) nodes.push_back(&n.spec);
  Cluster found;
  for (HyperNodeSpec& h : DiscoverHyperNodes(nodes, labels)) {
    if (absl::Status s = found.PutHyperNode(std::move(h)); !s.ok()) {
      std::cerr << "vcsched: " << s.message() << "\n";
      return 1;
    }
  }
  if (found.hyper_nodes().empty()) {
    std::cerr << "vcsched hypernodes: no node carries the narrowest of the labels given\n";
    return 0;
  }
  std::cout << ClusterToYaml(found);
  return 0;
}

}  // namespace vcsched::cli
