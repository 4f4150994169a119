// Hierarchical DRF (drf with enableHierarchy, docs/reference/scheduler.md §10.5): queues form a tree by
// their volcano.sh/hierarchy paths ("root/eng/dev") and per-level weights, jobs are the
// leaves, and a queue's standing is its node's weighted dominant share.
#ifndef VCSCHED_SRC_PLUGINS_HDRF_H_
#define VCSCHED_SRC_PLUGINS_HDRF_H_

#include <map>
#include <string>
#include <vector>

#include "vcsched/session.h"

namespace vcsched::internal {

class HdrfTree {
 public:
  // Builds the tree for every job with a queue. `allocated[j]` is job j's allocation.
  HdrfTree(const Session& ssn, const std::vector<Resource>& allocated);

  // Recomputes every node from the jobs' allocations.
  void Update(const std::vector<Resource>& allocated);
  // <0 when queue l ranks before r (unsaturated first, then smaller share/weight,
  // level by level from the root), >0 after, 0 equal.
  double CompareQueues(QueueIndex l, QueueIndex r) const;

 private:
  struct Node {
    std::string name;
    double weight = 1;
    int parent = -1;
    std::map<std::string, int> children;  // by path element or job key
    JobIndex job = kNone;                 // leaves only
    std::vector<double> allocated;
    double share = 0;
    bool saturated = false;
  };
  double Share(const std::vector<double>& a) const;
  void UpdateNode(int n, const std::vector<Resource>& allocated, const std::vector<bool>& demanding);
  std::vector<std::string> PathOf(QueueIndex q) const;

  const Session* ssn_;
  std::vector<double> total_;
  std::vector<Node> nodes_;  // nodes_[0] is the root
  std::vector<std::vector<std::string>> queue_paths_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_HDRF_H_
