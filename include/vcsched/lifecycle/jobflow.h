// JobFlow and JobTemplate (`flow.volcano.sh/v1alpha1`, docs/reference/lifecycle.md §13): DAG
// admission, which jobs to create given the others' phases, and the flow's phase.
#ifndef VCSCHED_LIFECYCLE_JOBFLOW_H_
#define VCSCHED_LIFECYCLE_JOBFLOW_H_

#include <map>
#include <string>
#include <vector>

#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

struct FlowStep {
  std::string name;                  // also the JobTemplate's name
  std::vector<std::string> targets;  // flows it waits for
};

struct VolcanoJobFlow {
  ObjectMeta metadata;
  std::vector<FlowStep> flows;
  std::string job_retain_policy = "retain";  // retain | delete
};

VolcanoJobFlow ReadJobFlow(const Value& doc, Findings* findings);
// Admission: flows form a DAG over defined names; names unique; retain policy known.
Findings ValidateJobFlow(const VolcanoJobFlow& flow);

struct JobFlowSync {
  std::vector<Value> create_jobs;        // Jobs built from the templates
  std::vector<std::string> delete_jobs;  // retain policy `delete` after success
  std::vector<std::string> missing_templates;
  std::string phase;                     // Pending, Running, Succeed, Failed, Terminating
  std::map<std::string, std::vector<std::string>> jobs_by_status;  // pendingJobs, runningJobs, ...
};

// One sync. `jobs`: existing job name -> phase; `templates`: JobTemplate name -> the
// template object (its spec is a Job spec); `phase`: the flow's current phase.
JobFlowSync SyncJobFlow(const VolcanoJobFlow& flow, const std::string& phase,
                        const std::map<std::string, std::string>& jobs, const std::map<std::string, Value>& templates);

// The job name of a flow step: `<jobflow>-<flow>`.
std::string FlowJobName(const VolcanoJobFlow& flow, const std::string& step);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_JOBFLOW_H_
