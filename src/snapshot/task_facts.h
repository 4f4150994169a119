// What a snapshot's task takes from its pod alone, and a job from its PodGroup alone
// (with the resource space, queues and priority classes): shared by the build
// (snapshot_assembly.cc) and the patch that makes a snapshot from an earlier one
// (snapshot_patch.cc). Internal to the snapshot layer.
#ifndef VCSCHED_SRC_SNAPSHOT_TASK_FACTS_H_
#define VCSCHED_SRC_SNAPSHOT_TASK_FACTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "src/snapshot/snapshot_impl.h"

namespace vcsched::internal {

// The list as a vector of the space: `missing` where it names no amount.
Resource ToResource(const ResourceSpace& space, const ResourceList& list, int64_t missing);

// Annotation first, then label, as Volcano reads volcano.sh/* switches.
const std::string* AnnotationOrLabel(const Labels& annotations, const Labels& labels, absl::string_view key);

// Key, uid, status, requests, priority, preemptable, role and pod index of the task of
// `p`, read against impl's resource space and priority classes.
void WorkOutPodFacts(const PodSpec& p, const Snapshot::Impl& impl, TaskInfo& t);

// A job's record from its PodGroup: key, queue, priority, preemptable, SLA waiting
// time, minimum resources, the sum of per-role minimums (index, tasks and sub-groups
// left to the caller); what a build warns of goes to `warnings`.
// `default_priority`: GlobalDefaultPriority of impl's priority classes (found once by
// the caller, not per job).
JobInfo WorkOutJobFacts(PodGroupSpec g, const Snapshot::Impl& impl, int32_t default_priority,
                        std::vector<std::string>& warnings);
// The value of the first (by name) globalDefault PriorityClass of `sorted` (sorted by
// name), if any; 0 otherwise.
std::optional<int32_t> GlobalDefaultPriority(const std::vector<PriorityClassSpec>& sorted);

// Whether a task with these TaskFlag bits has a shape of its own: node affinity terms
// (or a nominated node) make its node-local answers its own.
inline bool HasOwnShape(uint8_t flags) { return (flags & kTaskPlacementTerms) && !(flags & kTaskPodTermsOnly); }

// The shape key of a task without an own shape (HasOwnShape): requests, non-zero
// requests, node selector and tolerations (tasks with equal keys share a shape).
void ShapeKeyOf(const TaskInfo& t, const PodSpec& p, std::string& key);

// The warnings of a task whose node, or PodGroup (by "namespace/name"), is missing.
std::string NodeNotFoundWarning(absl::string_view task_key, absl::string_view node);
std::string PodGroupNotFoundWarning(absl::string_view task_key, absl::string_view group_key);

// The parse flags of the pod's node-selector terms, set in place; and whether they are set.
void ParseNodeTerms(PodSpec& p);
bool NodeTermsParsed(const PodSpec& p);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_TASK_FACTS_H_
