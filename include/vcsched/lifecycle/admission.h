// Volcano's admission webhooks as pure functions: the mutating defaults a Job gets on
// create, and the validating rules for Jobs, PodGroups and Queues. Every violation of an
// object is reported (Volcano stops at some of them; we go on, so that a user fixes all
// at once), each with its field path and Volcano's wording.
#ifndef VCSCHED_LIFECYCLE_ADMISSION_H_
#define VCSCHED_LIFECYCLE_ADMISSION_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/lifecycle/names.h"
#include "vcsched/lifecycle/queue.h"

namespace vcsched::lifecycle {

// What admission needs to know of the cluster.
struct AdmissionContext {
  // The cluster's queues. nullopt: unknown, so queue rules (exists, Open, leaf, not root)
  // are not checked and a warning says so.
  std::optional<std::vector<VolcanoQueue>> queues;
  // Scheduler names served by Volcano; the first is the default schedulerName.
  std::vector<std::string> scheduler_names = {"volcano"};
  // Kubernetes' pod-template rules (containers present, container names, images,
  // restartPolicy, resource quantities). Volcano's webhook rejects a template failing
  // them; by default they are warnings here so that manifests printed with such flaws
  // (the seeds' distributed-mnist) can still be studied; `strict` makes them errors.
  bool strict_pod_templates = false;
};

// The job plugins Volcano knows.
const std::vector<std::string>& KnownJobPlugins();

// Create-time defaults (queue, schedulerName, maxRetry, task names, DNS policy,
// minAvailable, implied svc/ssh plugins), in Volcano's order.
void MutateJob(VolcanoJob& job, const AdmissionContext& context);
// Create-time validation of a mutated job.
Findings ValidateJob(const VolcanoJob& job, const AdmissionContext& context);
// Update-time validation: what may change between `old_job` and `new_job`.
Findings ValidateJobUpdate(const VolcanoJob& old_job, const VolcanoJob& new_job);
// The policy rules (§2.4) for one list of policies at `path`.
Findings ValidatePolicies(const std::vector<LifecyclePolicy>& policies, const std::string& path);

// PodGroup admission (create): the queue exists and is Open, networkTopology tiers.
Findings ValidatePodGroup(const Value& pod_group, const AdmissionContext& context);
// PodGroup create-time default: a group left in the `default` queue goes to the queue
// its namespace names in the annotation `scheduling.volcano.sh/queue-name`.
void MutatePodGroup(Value& pod_group, const std::map<std::string, std::string>& namespace_annotations);
// Pod admission for pods of Volcano's schedulers: the disruption-budget annotations
// `volcano.sh/jdb-min-available` / `-max-unavailable` (one of them; a positive integer
// or 1%–99%).
Findings ValidatePod(const Value& pod, const AdmissionContext& context);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_ADMISSION_H_
