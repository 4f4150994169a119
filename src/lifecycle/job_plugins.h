// The job plugins (docs/reference/lifecycle.md §5): env, svc, ssh, mpi, pytorch, tensorflow, ray
// and hcclrank. Each adds its shared objects once per job and mutates every pod.
#ifndef VCSCHED_SRC_LIFECYCLE_JOB_PLUGINS_H_
#define VCSCHED_SRC_LIFECYCLE_JOB_PLUGINS_H_

#include <vector>

#include "absl/status/status.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::lifecycle::internal {

struct PodDraft {
  Value pod;
  const JobTask* task;
  int32_t index;
};

absl::Status ApplyJobPlugins(const VolcanoJob& job, const ExpandOptions& options, std::vector<Value>& objects,
                             std::vector<PodDraft>& pods);

// Host names of a task's pods as the svc plugin publishes them.
std::vector<std::string> TaskHostNames(const VolcanoJob& job, const JobTask& task);

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_JOB_PLUGINS_H_
