// Checks of the queue hierarchy that every snapshot must pass before a session walks
// it: parent cycles, and depths (spec.parent chains and volcano.sh/hierarchy paths)
// past a bound that keeps every walk short.
#ifndef VCSCHED_SRC_MODEL_QUEUE_CHECKS_H_
#define VCSCHED_SRC_MODEL_QUEUE_CHECKS_H_

#include <functional>
#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched {

// The volcano.sh/hierarchy annotation's problem, if it has more levels than
// kMaxQueueHierarchyDepth allows (`metadata.annotations...: N levels, ...`), else "".
std::string HierarchyAnnotationProblem(const QueueSpec& queue);

// Appends an error for each parent cycle (naming its queues in order), each queue
// deeper than kMaxQueueHierarchyDepth, and each volcano.sh/hierarchy annotation with
// more levels than that. Linear in the number of queues and annotation bytes.
// `report` gets the index of the queue at fault and the field and message
// ("spec.parent: ..."); the overload formats them as `Queue "name": spec.parent: ...`.
void CheckQueueHierarchy(const std::vector<QueueSpec>& queues,
                         const std::function<void(size_t queue, const std::string& problem)>& report);
void CheckQueueHierarchy(const std::vector<QueueSpec>& queues, std::vector<std::string>& errors);

// Warnings for queue specs that schedule but are almost certainly mistakes: a
// guarantee above the capability in some resource.
void LintQueues(const std::vector<QueueSpec>& queues, std::vector<std::string>& warnings);

}  // namespace vcsched

#endif  // VCSCHED_SRC_MODEL_QUEUE_CHECKS_H_
