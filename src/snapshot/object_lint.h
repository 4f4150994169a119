// Inputs that schedule but are almost certainly mistakes (docs/EXPLAIN.md, lint): each
// warning names the object and field.
#ifndef VCSCHED_SRC_SNAPSHOT_OBJECT_LINT_H_
#define VCSCHED_SRC_SNAPSHOT_OBJECT_LINT_H_

#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched::internal {

// Unknown priorityClassName (pods and PodGroups), two globalDefault PriorityClasses,
// pods without containers, and host ports that collide between pods on one node.
// Linear in the objects and their ports.
void LintObjects(const std::vector<const PodSpec*>& pods, const std::vector<PodGroupSpec>& pod_groups,
                 const std::vector<PriorityClassSpec>& priority_classes, std::vector<std::string>& warnings);

// What LintObjects says of one pod on its own (no containers); the rest of what it says
// of pods involves others: an unknown priorityClassName (counted over pods) and host ports.
void LintPodAlone(const PodSpec& pod, std::vector<std::string>& warnings);
bool HasHostPorts(const PodSpec& pod);
// What LintObjects says of one PodGroup (all it says of PodGroups): an unknown
// priorityClassName. `class_known`: its class is in the input; `has_default`: some
// PriorityClass is the global default.
void LintPodGroupAlone(const PodGroupSpec& pod_group, bool class_known, bool has_default,
                       std::vector<std::string>& warnings);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_OBJECT_LINT_H_
