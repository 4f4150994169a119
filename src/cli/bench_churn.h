// `vcsched bench --churn N`: the cost of a cycle's changes on a Cluster against a build
// of the same state from scratch.
#ifndef VCSCHED_SRC_CLI_BENCH_CHURN_H_
#define VCSCHED_SRC_CLI_BENCH_CHURN_H_

#include <string>

#include "absl/status/statusor.h"

namespace vcsched::cli {

// JSON fields (without braces, starting with ", ") to add to bench's line:
// fill_ms (the cluster filled object by object), churn_ms (N pod changes and a
// snapshot), build_ms (a SnapshotBuilder fed the same objects and built),
// snapshot_unchanged_ms (a snapshot with no change since the last).
absl::StatusOr<std::string> MeasureChurn(const std::string& file, int changes);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_BENCH_CHURN_H_
