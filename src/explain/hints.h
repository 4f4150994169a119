// Hints (docs/EXPLAIN.md): changes that let a job run, each found by running the
// session again on a changed copy of the snapshot.
#ifndef VCSCHED_SRC_EXPLAIN_HINTS_H_
#define VCSCHED_SRC_EXPLAIN_HINTS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/explain.h"

namespace vcsched::internal {

// The smallest change of each kind that worked for `job`; each session run is taken
// from `*budget`, and the search stops when it is spent.
absl::StatusOr<std::vector<Hint>> FindHints(const Snapshot& snapshot, const SchedulerConfig& config,
                                            const RunOptions& options, const JobExplanation& job, int32_t* budget);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_EXPLAIN_HINTS_H_
