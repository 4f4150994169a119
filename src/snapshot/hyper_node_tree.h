// The HyperNode tree and each job's sub-groups, built once per snapshot
// (docs/FORMAT-hypernode.md). Internal to the snapshot layer.
#ifndef VCSCHED_SRC_SNAPSHOT_HYPER_NODE_TREE_H_
#define VCSCHED_SRC_SNAPSHOT_HYPER_NODE_TREE_H_

#include <vector>

#include "absl/status/status.h"

#include "src/snapshot/snapshot_impl.h"

namespace vcsched::internal {

// Fills impl's HyperNode fields from `specs` (checked by ObjectProblems), after the
// nodes are in place; what a real cluster may hold but is probably a mistake (members
// that select nothing, two parents, cycles) becomes a warning.
absl::Status BuildHyperNodeTree(std::vector<HyperNodeSpec>& specs, Snapshot::Impl& impl);

// Gives every job its sub-groups and resolved network topology and every task its
// sub-group, after the tree is built.
void BuildSubJobs(Snapshot::Impl& impl);
// The same for one job of impl (its tasks listed), replacing what it had.
void BuildSubJobsOf(Snapshot::Impl& impl, JobInfo& job);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_HYPER_NODE_TREE_H_
