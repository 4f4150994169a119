// Admission of any Volcano object by its kind: what `vcsched validate`, the Python
// package and the scenario loader run on each manifest.
#ifndef VCSCHED_LIFECYCLE_ADMIT_H_
#define VCSCHED_LIFECYCLE_ADMIT_H_

#include <optional>
#include <string>
#include <vector>

#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

// Reads a Job document, applies the create-time defaults and validates it; all
// findings (reading and admission) go to `findings`.
VolcanoJob AdmitJobDocument(const Value& doc, const AdmissionContext& context, Findings* findings);

// Update-time admission of a Job: `new_doc` replacing `old_doc` (both read as given;
// defaults are not applied on update).
Findings AdmitJobUpdate(const Value& old_doc, const Value& new_doc);

// Admission of one object: Job, CronJob, JobTemplate (batch/flow.volcano.sh), Queue,
// PodGroup (scheduling.volcano.sh or the older scheduling.incubator.k8s.io), JobFlow, Pod.
// `queues` are every queue the object is judged against (the cluster's and its
// neighbours'). nullopt for objects admission does not cover.
std::optional<Findings> AdmitObject(const std::string& api_version, const std::string& kind, const Value& object,
                                    const AdmissionContext& context, const std::vector<VolcanoQueue>& queues,
                                    const TimeZoneResolver& zones = nullptr);

// The cluster's queues as admission sees them: Volcano's own root and default, then
// those of `queue_objects` (Queue documents), later ones replacing earlier of a name.
std::vector<VolcanoQueue> ClusterQueues(const std::vector<const Value*>& queue_objects);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_ADMIT_H_
