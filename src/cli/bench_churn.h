// `vcsched bench --churn N`: the cost of a cycle's changes on a Cluster against a build
// of the same state from scratch.
#ifndef VCSCHED_SRC_CLI_BENCH_CHURN_H_
#define VCSCHED_SRC_CLI_BENCH_CHURN_H_

#include <string>

#include "absl/status/statusor.h"
#include "vcsched/config.h"

namespace vcsched::cli {

// JSON fields (without braces, starting with ", ") to add to bench's line:
// fill_ms (the cluster filled object by object), churn_ms (N pod changes and a
// snapshot), build_ms (the same objects built from scratch), snapshot_unchanged_ms (a
// snapshot with no change since the last), session_on_cluster_ms and
// session_on_built_ms (medians of 5 interleaved sessions on each), first_snapshot_mib
// (resident memory with the first snapshot) and second_snapshot_mib (what holding a
// second one, after the changes, added).
absl::StatusOr<std::string> MeasureChurn(const std::string& file, int changes, const SchedulerConfig& config);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_BENCH_CHURN_H_
