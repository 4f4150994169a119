// The Job lifecycle, all of it: admission (admission.h, admit.h, queue.h, names.h), Job
// expansion (expand.h), the state machine and simulator (job_state.h, job_simulator.h),
// dependsOn (dependencies.h), CronJob (cron.h) and JobFlow (jobflow.h). Pure logic on
// Value trees; vcsched/io/manifests.h reads and prints them as YAML.
#ifndef VCSCHED_LIFECYCLE_H_
#define VCSCHED_LIFECYCLE_H_

#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/dependencies.h"
#include "vcsched/lifecycle/expand.h"
#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/lifecycle/job_simulator.h"
#include "vcsched/lifecycle/job_state.h"
#include "vcsched/lifecycle/jobflow.h"
#include "vcsched/lifecycle/names.h"
#include "vcsched/lifecycle/queue.h"
#include "vcsched/value.h"

#endif  // VCSCHED_LIFECYCLE_H_
