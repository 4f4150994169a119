// The Kubernetes pod-template rules Volcano's job admission applies to each task, and
// its NUMA rule (a topologyPolicy needs whole-core cpu requests).
#ifndef VCSCHED_SRC_LIFECYCLE_POD_TEMPLATE_RULES_H_
#define VCSCHED_SRC_LIFECYCLE_POD_TEMPLATE_RULES_H_

#include <string>

#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"

namespace vcsched::lifecycle::internal {

// Template problems go to errors when `strict`, else to warnings; the topologyPolicy
// rule is always an error.
void CheckPodTemplate(const JobTask& task, const std::string& task_path, bool strict, Findings& findings);

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_POD_TEMPLATE_RULES_H_
