// Volcano Job admission: the mutating defaults and the create/update validation rules
// (docs/reference/lifecycle.md §2).
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "src/lifecycle/field_reader.h"
#include "src/lifecycle/k8s_values.h"
#include "src/lifecycle/pod_template_rules.h"
#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/dependencies.h"

namespace vcsched::lifecycle {

using internal::Index;
using internal::Join;

const std::vector<std::string>& KnownJobPlugins() {
  static const std::vector<std::string> kPlugins = {"env", "svc", "ssh", "mpi", "pytorch", "tensorflow", "ray",
                                                    "hcclrank"};
  return kPlugins;
}

void MutateJob(VolcanoJob& job, const AdmissionContext& context) {
  if (job.queue.empty()) job.queue = "default";
  if (job.scheduler_name.empty() && !context.scheduler_names.empty()) job.scheduler_name = context.scheduler_names[0];
  if (job.max_retry.value_or(0) == 0) job.max_retry = 3;
  int64_t sum_min = 0;
  for (size_t i = 0; i < job.tasks.size(); ++i) {
    JobTask& t = job.tasks[i];
    if (t.name.empty()) t.name = absl::StrCat("default", i);
    if (Value* spec = t.pod_template.Find("spec"); spec != nullptr && spec->is_map()) {
      const Value* host_network = spec->Find("hostNetwork");
      if (host_network != nullptr && host_network->text() == "true" && spec->Find("dnsPolicy") == nullptr) {
        spec->Set("dnsPolicy", Value::String("ClusterFirstWithHostNet"));
      }
    }
    if (!t.min_available.has_value()) {
      const PartitionPolicy* pp = t.partition_policy ? &*t.partition_policy : nullptr;
      t.min_available = pp != nullptr && pp->min_partitions > 0 ? pp->min_partitions * pp->partition_size : t.replicas;
    }
    if (t.max_retry.value_or(0) == 0) t.max_retry = 3;
    sum_min += *t.min_available;
  }
  if (job.min_available.value_or(0) == 0) job.min_available = static_cast<int32_t>(sum_min);
  auto add_plugin = [&](const std::string& name) {
    if (!job.HasPlugin(name)) job.plugins.emplace_back(name, std::vector<std::string>{});
  };
  if (job.HasPlugin("tensorflow") || job.HasPlugin("mpi") || job.HasPlugin("pytorch") || job.HasPlugin("ray")) {
    add_plugin("svc");
  }
  if (job.HasPlugin("mpi")) add_plugin("ssh");
}

namespace {

std::string GoList(const std::vector<std::string>& items) { return absl::StrCat("[", absl::StrJoin(items, " "), "]"); }

bool BothTiers(const Value& topology) {
  return topology.Find("highestTierAllowed") != nullptr && topology.Find("highestTierName") != nullptr;
}

void ValidatePartition(const JobTask& t, const std::string& at, Findings& f) {
  if (!t.partition_policy) return;
  const PartitionPolicy& p = *t.partition_policy;
  const std::string pat = Join(at, "partitionPolicy");
  if (p.total_partitions <= 0) {
    f.Error(Join(pat, "totalPartitions"), absl::StrCat("'TotalPartitions' must be greater than 0 in task: ", t.name));
  }
  if (p.partition_size <= 0) {
    f.Error(Join(pat, "partitionSize"), absl::StrCat("'PartitionSize' must be greater than 0 in task: ", t.name));
  }
  if (int64_t{p.total_partitions} * p.partition_size != t.replicas) {
    f.Error(Join(at, "replicas"), absl::StrCat("'Replicas' are not equal to TotalPartitions*PartitionSize in task: ",
                                              t.name));
  }
  if (t.min_available && p.min_partitions > 0 && int64_t{p.min_partitions} * p.partition_size != *t.min_available) {
    f.Error(Join(at, "minAvailable"),
            absl::StrCat("'MinAvailable' is not equal to MinPartitions*PartitionSize in task: ", t.name));
  }
  if (BothTiers(p.network_topology)) {
    f.Error(Join(pat, "networkTopology"),
            "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously");
  }
}

void ValidateVolumes(const VolcanoJob& job, Findings& f) {
  std::set<std::string> mounts;
  for (size_t i = 0; i < job.volumes.size(); ++i) {
    const JobVolume& v = job.volumes[i];
    const std::string at = Index("spec.volumes", i);
    std::string problem;
    if (v.mount_path.empty()) problem = " mountPath is required;";
    else if (!mounts.insert(v.mount_path).second) problem = absl::StrCat(" duplicated mountPath: ", v.mount_path, ";");
    else if (v.volume_claim.is_null() && v.volume_claim_name.empty())
      problem = " either VolumeClaim or VolumeClaimName must be specified;";
    else if (!v.volume_claim.is_null() && !v.volume_claim_name.empty())
      problem = absl::StrCat(" conflict: If you want to use an existing PVC, just specify VolumeClaimName. ",
                             "If you want to create a new PVC, you do not need to specify VolumeClaimName;");
    else if (!v.volume_claim_name.empty() && !Dns1123SubdomainProblems(v.volume_claim_name).empty())
      problem = absl::StrCat(" invalid VolumeClaimName ", v.volume_claim_name, ";");
    if (!problem.empty()) {
      f.Error(at, problem.substr(1));
      return;  // Volcano reports the first volume problem only
    }
  }
}

void ValidateQueueOfJob(const VolcanoJob& job, const AdmissionContext& context, Findings& f) {
  if (!context.queues) {
    f.Warn("spec.queue", absl::StrCat("queue \"", job.queue, "\" not checked: the cluster's queues were not given"));
    return;
  }
  const VolcanoQueue* q = FindQueue(*context.queues, job.queue);
  if (q == nullptr) {
    f.Error("spec.queue", absl::StrCat("unable to find job queue: queues.scheduling.volcano.sh \"", job.queue,
                                       "\" not found;"));
    return;
  }
  const std::string state = q->state.empty() ? "Open" : q->state;
  if (state != "Open") {
    f.Error("spec.queue", absl::StrCat("can only submit job to queue with state `Open`, queue `", job.queue,
                                       "` status is `", state, "`;"));
  }
  if (job.queue == "root") {
    f.Error("spec.queue", "can not submit job to root queue;");
    return;
  }
  const size_t children = ChildQueues(job.queue, *context.queues).size();
  if (children > 0) {
    f.Error("spec.queue", absl::StrCat("can only submit job to leaf queue, queue `", job.queue, "` has ", children,
                                       " child queues;"));
  }
}

// restartPolicy OnFailure restarts a failed container in place: the pod does not fail,
// so an exitCode policy for the task can never fire.
void LintExitCodePolicies(const VolcanoJob& job, const JobTask& t, const std::string& at, Findings& f) {
  const Value* rp = FindPath(t.pod_template, "spec.restartPolicy");
  if (rp == nullptr || rp->text() != "OnFailure") return;
  auto first_exit_code = [](const std::vector<LifecyclePolicy>& policies) -> std::optional<int32_t> {
    for (const LifecyclePolicy& p : policies) {
      if (p.exit_code) return p.exit_code;
    }
    return std::nullopt;
  };
  std::optional<int32_t> code = first_exit_code(t.policies);
  std::string where = Join(at, "policies");
  if (!code) {
    code = first_exit_code(job.policies);
    where = "spec.policies";
  }
  if (!code) return;
  f.Warn(Join(at, "template.spec.restartPolicy"),
         absl::StrCat("OnFailure restarts a failed container in place, so the pod never fails and the exitCode ", *code,
                      " policy in ", where, " can never fire"));
}

}  // namespace

Findings ValidatePolicies(const std::vector<LifecyclePolicy>& policies, const std::string& path) {
  Findings f;
  std::set<std::string> seen_events;
  std::set<int32_t> seen_codes;
  bool star = false, other = false;
  const std::string suffix = absl::StrCat(" valid events are ", GoList(PolicyEvents()), ", valid actions are ",
                                          GoList(PolicyActions()), ";");
  for (size_t i = 0; i < policies.size(); ++i) {
    const LifecyclePolicy& p = policies[i];
    const std::string at = Index(Join(path, "policies"), i);
    auto fail = [&](const std::string& field, const std::string& msg) { f.Error(field, absl::StrCat(msg, suffix)); };
    if (!p.events.empty() && p.exit_code) return fail(at, "must not specify event and exitCode simultaneously"), f;
    if (p.events.empty() && !p.exit_code) return fail(at, "either event and exitCode should be specified"), f;
    const auto& actions = PolicyActions();
    if (!p.events.empty()) {
      std::set<std::string> mine(p.events.begin(), p.events.end());
      for (const std::string& e : mine) {
        const auto& events = PolicyEvents();
        if (std::find(events.begin(), events.end(), e) == events.end()) return fail(Join(at, "event"), "invalid policy event"), f;
        if (std::find(actions.begin(), actions.end(), p.action) == actions.end()) {
          return fail(Join(at, "action"), "invalid policy action"), f;
        }
        if (!seen_events.insert(e).second) {
          return fail(Join(at, "event"), absl::StrCat("duplicate event ", e, "  across different policy")), f;
        }
        (e == "*" ? star : other) = true;
      }
    } else {
      if (std::find(actions.begin(), actions.end(), p.action) == actions.end()) {
        return fail(Join(at, "action"), "invalid policy action"), f;
      }
      if (*p.exit_code == 0) return fail(Join(at, "exitCode"), "0 is not a valid error code"), f;
      if (!seen_codes.insert(*p.exit_code).second) {
        return fail(Join(at, "exitCode"), absl::StrCat("duplicate exitCode ", *p.exit_code)), f;
      }
    }
  }
  if (star && other) f.Error(Join(path, "policies"), absl::StrCat("if there's * here, no other policy should be here", suffix));
  return f;
}

Findings ValidateJob(const VolcanoJob& job, const AdmissionContext& context) {
  Findings f;
  if (job.tasks.empty()) {
    // Volcano stops here and at the mpi rule; the other findings are reported as well.
    f.Error("spec.tasks", "No task specified in job spec");
  }
  if (const auto* mpi = job.PluginArguments("mpi")) {
    if (job.FindTask(internal::PluginFlag(*mpi, "master", "master")) == nullptr) {
      f.Error("spec.plugins.mpi", "The specified mpi master task was not found");
    }
  }
  if (BothTiers(job.network_topology)) {
    f.Error("spec.networkTopology",
            "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously");
  }
  if (job.min_available && *job.min_available < 0) f.Error("spec.minAvailable", "job 'minAvailable' must be >= 0.");
  if (job.max_retry && *job.max_retry < 0) f.Error("spec.maxRetry", "'maxRetry' cannot be less than zero.");
  if (job.ttl_seconds_after_finished && *job.ttl_seconds_after_finished < 0) {
    f.Error("spec.ttlSecondsAfterFinished", "'ttlSecondsAfterFinished' cannot be less than zero.");
  }
  if (job.min_success && *job.min_success < 1) f.Error("spec.minSuccess", "should be greater than or equal to 1");
  std::set<std::string> names;
  for (size_t i = 0; i < job.tasks.size(); ++i) {
    const JobTask& t = job.tasks[i];
    const std::string at = Index("spec.tasks", i);
    if (t.replicas < 0) f.Error(Join(at, "replicas"), absl::StrCat("'replicas' < 0 in task: ", t.name));
    if (t.min_available && *t.min_available < 0) {
      f.Error(Join(at, "minAvailable"), absl::StrCat("'minAvailable' < 0 in task: ", t.name));
    }
    if (t.min_available && *t.min_available > t.replicas) {
      f.Error(Join(at, "minAvailable"), absl::StrCat("'minAvailable' is greater than 'replicas' in task: ", t.name,
                                                    ", job: ", job.metadata.name, ";"));
    }
    // Pod names are `<job>-<task>-<index>`: a task name must be a DNS-1123 label for
    // them to be valid object names (Volcano v1.7 checked this directly).
    for (const std::string& p : Dns1123LabelProblems(t.name)) {
      f.Error(Join(at, "name"), absl::StrCat("Invalid value: \"", t.name, "\": ", p));
    }
    if (!names.insert(t.name).second) {
      f.Error(Join(at, "name"), absl::StrCat("duplicated task name ", t.name, ";"));
      break;  // as Volcano: later tasks are not checked
    }
    for (const Violation& v : ValidatePolicies(t.policies, at).errors) f.errors.push_back(v);
    const std::string pod_name = absl::StrCat(job.metadata.name, "-", t.name, "-", i);
    if (auto problems = QualifiedNameProblems(pod_name); !problems.empty()) {
      f.Error(Join(at, "name"), absl::StrCat("create pod with name ", pod_name, " validate failed ",
                                            GoList(problems), ";"));
    }
    internal::CheckPodTemplate(t, at, context.strict_pod_templates, f);
    ValidatePartition(t, at, f);
    LintExitCodePolicies(job, t, at, f);
  }
  if (auto problems = QualifiedNameProblems(job.metadata.name); !problems.empty()) {
    f.Error("metadata.name", absl::StrCat("create job with name ", job.metadata.name, " validate failed ",
                                          GoList(problems)));
  }
  // The API server's own rule for object names, checked before any webhook runs.
  for (const std::string& p : Dns1123SubdomainProblems(job.metadata.name)) {
    f.Error("metadata.name", absl::StrCat("Invalid value: \"", job.metadata.name, "\": ", p));
  }
  if (job.min_available && job.TotalReplicas() < *job.min_available) {
    f.Error("spec.minAvailable", "job 'minAvailable' should not be greater than total replicas in tasks;");
  }
  for (const Violation& v : ValidatePolicies(job.policies, "spec").errors) f.errors.push_back(v);
  const auto& known = KnownJobPlugins();
  for (const auto& [name, args] : job.plugins) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      f.Error(Join("spec.plugins", name), absl::StrCat("unable to find job plugin: ", name, ";"));
    }
  }
  ValidateVolumes(job, f);
  ValidateQueueOfJob(job, context, f);
  bool has_depends = false;
  for (const JobTask& t : job.tasks) has_depends = has_depends || t.depends_on.has_value();
  if (const std::string why = has_depends ? TaskDependencyCycle(job) : ""; !why.empty()) {
    f.Error("spec.tasks", absl::StrCat("job has dependencies between tasks, but doesn't form a directed acyclic ",
                                       "graph(DAG); ", why));
  }
  return f;
}

Findings ValidateJobUpdate(const VolcanoJob& old_job, const VolcanoJob& new_job) {
  Findings f;
  int64_t total = 0;
  for (size_t i = 0; i < new_job.tasks.size(); ++i) {
    const JobTask& t = new_job.tasks[i];
    const std::string at = Index("spec.tasks", i);
    total += t.replicas;
    if (t.replicas < 0) return f.Error(Join(at, "replicas"), absl::StrCat("'replicas' must be >= 0 in task: ", t.name)), f;
    if (t.min_available && *t.min_available < 0) {
      return f.Error(Join(at, "minAvailable"), absl::StrCat("'minAvailable' must be >= 0 in task: ", t.name)), f;
    }
    if (t.min_available && *t.min_available > t.replicas) {
      return f.Error(Join(at, "minAvailable"), absl::StrCat("'minAvailable' must be <= 'replicas' in task: ", t.name)), f;
    }
    Findings partition;
    ValidatePartition(t, at, partition);
    if (!partition.ok()) return partition;
  }
  const int32_t min_available = new_job.min_available.value_or(0);
  if (min_available > total) {
    return f.Error("spec.minAvailable", "job 'minAvailable' must not be greater than total replicas"), f;
  }
  if (min_available < 0) return f.Error("spec.minAvailable", "job 'minAvailable' must be >= 0"), f;
  if (BothTiers(new_job.network_topology)) {
    return f.Error("spec.networkTopology",
                   "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously"),
           f;
  }
  if (old_job.tasks.size() != new_job.tasks.size()) {
    return f.Error("spec.tasks", "job updates may not add or remove tasks"), f;
  }
  // Everything else must be equal once the mutable fields are aligned.
  VolcanoJob a = old_job, b = new_job;
  for (VolcanoJob* j : {&a, &b}) {
    j->min_available.reset();
    j->priority_class_name.clear();
    for (JobTask& t : j->tasks) {
      t.replicas = 0;
      t.min_available.reset();
    }
  }
  if (!SameJobSpec(a, b)) {
    f.Error("spec", "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under spec` "
                    "and `PriorityClassName`");
  }
  return f;
}

}  // namespace vcsched::lifecycle
