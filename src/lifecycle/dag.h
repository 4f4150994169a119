// Cycle and undefined-vertex detection for the dependency graphs of job tasks and
// JobFlow flows.
#ifndef VCSCHED_SRC_LIFECYCLE_DAG_H_
#define VCSCHED_SRC_LIFECYCLE_DAG_H_

#include <string>
#include <utility>
#include <vector>

namespace vcsched::lifecycle::internal {

struct DagProblem {
  std::string undefined;           // a vertex depended on but not defined
  std::vector<std::string> cycle;  // a cycle, first vertex repeated at the end
  bool ok() const { return undefined.empty() && cycle.empty(); }
};

// `graph`: vertex -> the vertices it depends on, in declaration order. Deterministic:
// the first problem in declaration order is reported.
DagProblem CheckDag(const std::vector<std::pair<std::string, std::vector<std::string>>>& graph);

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_DAG_H_
