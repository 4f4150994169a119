// dependsOn between the tasks of a Volcano Job (docs/reference/lifecycle.md §4.3): whether the
// graph is a DAG, and which tasks may have their pods created given the others' progress.
#ifndef VCSCHED_LIFECYCLE_DEPENDENCIES_H_
#define VCSCHED_LIFECYCLE_DEPENDENCIES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vcsched/lifecycle/job.h"

namespace vcsched::lifecycle {

// Empty when the dependencies form a DAG; otherwise says why not ("task x depends on
// unknown task y", "cycle a -> b -> a").
std::string TaskDependencyCycle(const VolcanoJob& job);

// Whether `task`'s dependencies are met. `ready_pods[t]` counts the pods of task t that
// are Succeeded, or Running with every container ready. A dependency is ready when that
// count reaches its minAvailable (no minAvailable: always ready). With iteration "any"
// and more than one dependency one ready dependency suffices; otherwise all must be.
bool DependenciesMet(const VolcanoJob& job, const JobTask& task, const std::map<std::string, int32_t>& ready_pods);

// The tasks whose pods may be created now, in spec order.
std::vector<std::string> TasksReadyToCreate(const VolcanoJob& job, const std::map<std::string, int32_t>& ready_pods);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_DEPENDENCIES_H_
