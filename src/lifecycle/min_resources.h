// A job PodGroup's minResources (docs/reference/lifecycle.md §3.1): the quota usage of the first
// minAvailable pods, taking tasks in priority order.
#ifndef VCSCHED_SRC_LIFECYCLE_MIN_RESOURCES_H_
#define VCSCHED_SRC_LIFECYCLE_MIN_RESOURCES_H_

#include <map>
#include <string>

#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle::internal {

// Quota usage of one pod built from a template, in milli-units per quota key.
std::map<std::string, int64_t> PodQuotaUsage(const Value& pod_template);
// The minResources map of the job's PodGroup, as quantity text.
Value JobMinResources(const VolcanoJob& job, const std::map<std::string, int32_t>& priority_classes);

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_MIN_RESOURCES_H_
