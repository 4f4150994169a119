#include "vcsched/lifecycle/jobflow.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/lifecycle/dag.h"
#include "src/lifecycle/field_reader.h"
#include "src/lifecycle/k8s_values.h"

namespace vcsched::lifecycle {

using internal::FieldReader;
using internal::Index;
using internal::Join;

VolcanoJobFlow ReadJobFlow(const Value& doc, Findings* findings) {
  FieldReader r(findings);
  VolcanoJobFlow f;
  f.metadata = ReadObjectMeta(doc, findings);
  const Value* spec = r.Map(doc, "spec", "");
  if (spec == nullptr) return f;
  f.job_retain_policy = r.String(*spec, "jobRetainPolicy", "spec").value_or("retain");
  r.ForEachMap(*spec, "flows", "spec", [&](const Value& item, const std::string& at) {
    FlowStep s;
    s.name = r.String(item, "name", at).value_or("");
    if (const Value* dep = r.Map(item, "dependsOn", at)) s.targets = r.Strings(*dep, "targets", Join(at, "dependsOn"));
    f.flows.push_back(std::move(s));
  });
  return f;
}

Findings ValidateJobFlow(const VolcanoJobFlow& flow) {
  Findings f;
  std::set<std::string> names;
  std::vector<std::pair<std::string, std::vector<std::string>>> graph;
  for (size_t i = 0; i < flow.flows.size(); ++i) {
    const FlowStep& s = flow.flows[i];
    if (s.name.empty()) f.Error(Join(Index("spec.flows", i), "name"), "Required value");
    else if (!names.insert(s.name).second) f.Error(Join(Index("spec.flows", i), "name"), absl::StrCat("Duplicate value: \"", s.name, "\""));
    graph.emplace_back(s.name, s.targets);
  }
  const internal::DagProblem p = internal::CheckDag(graph);
  if (!p.undefined.empty()) f.Error("spec.flows", absl::StrCat("jobflow Flow is not DAG: vertex is not defined: ", p.undefined));
  else if (!p.cycle.empty()) f.Error("spec.flows", absl::StrCat("jobflow Flow is not DAG: cycle ", absl::StrJoin(p.cycle, " -> ")));
  if (flow.job_retain_policy != "retain" && flow.job_retain_policy != "delete") {
    f.Error("spec.jobRetainPolicy", absl::StrCat("Unsupported value: \"", flow.job_retain_policy,
                                                 "\": supported values: \"retain\", \"delete\""));
  }
  return f;
}

std::string FlowJobName(const VolcanoJobFlow& flow, const std::string& step) {
  return absl::StrCat(flow.metadata.name, "-", step);
}

JobFlowSync SyncJobFlow(const VolcanoJobFlow& flow, const std::string& phase,
                        const std::map<std::string, std::string>& jobs, const std::map<std::string, Value>& templates) {
  JobFlowSync out;
  const std::string ns = flow.metadata.namespace_;
  auto job_phase = [&](const std::string& step) -> const std::string* {
    auto it = jobs.find(FlowJobName(flow, step));
    return it == jobs.end() ? nullptr : &it->second;
  };
  if (phase == "Succeed" && flow.job_retain_policy == "delete") {
    for (const FlowStep& s : flow.flows) {
      if (job_phase(s.name) != nullptr) out.delete_jobs.push_back(FlowJobName(flow, s.name));
    }
    out.phase = phase;
    return out;
  }
  if (phase != "Failed" && phase != "Terminating" && phase != "Succeed") {
    for (const FlowStep& s : flow.flows) {
      if (job_phase(s.name) != nullptr) continue;
      bool ready = true;
      for (const std::string& t : s.targets) {
        const std::string* p = job_phase(t);
        ready = ready && p != nullptr && *p == "Completed";
      }
      if (!ready) continue;
      auto tmpl = templates.find(s.name);
      if (tmpl == templates.end()) {
        out.missing_templates.push_back(s.name);
        continue;
      }
      Value job = internal::NewObject("batch.volcano.sh/v1alpha1", "Job", FlowJobName(flow, s.name), ns);
      const std::string by_template = absl::StrCat(ns, ".", s.name), by_flow = absl::StrCat(ns, ".", flow.metadata.name);
      for (const char* key : {"labels", "annotations"}) {
        job["metadata"][key].Set("volcano.sh/createdByJobTemplate", Value::String(by_template));
        job["metadata"][key].Set("volcano.sh/createdByJobFlow", Value::String(by_flow));
      }
      Value owner = Value::Map();
      owner.Set("apiVersion", Value::String("flow.volcano.sh/v1alpha1"));
      owner.Set("kind", Value::String("JobFlow"));
      owner.Set("name", Value::String(flow.metadata.name));
      owner.Set("controller", Value::Bool(true));
      job["metadata"]["ownerReferences"].Push(std::move(owner));
      if (const Value* spec = tmpl->second.Find("spec")) job.Set("spec", *spec);
      out.create_jobs.push_back(std::move(job));
    }
  }
  // Status lists and the phase.
  bool any_running_or_completed = false, any_failed = false, all_completed = !flow.flows.empty();
  for (const FlowStep& s : flow.flows) {
    const std::string* p = job_phase(s.name);
    const std::string name = FlowJobName(flow, s.name);
    all_completed = all_completed && p != nullptr && *p == "Completed";
    if (p == nullptr) continue;
    if (*p == "Pending") out.jobs_by_status["pendingJobs"].push_back(name);
    else if (*p == "Running") out.jobs_by_status["runningJobs"].push_back(name);
    else if (*p == "Failed") out.jobs_by_status["failedJobs"].push_back(name);
    else if (*p == "Completed") out.jobs_by_status["completedJobs"].push_back(name);
    else if (*p == "Terminated") out.jobs_by_status["terminatedJobs"].push_back(name);
    else if (*p != "Completing" && *p != "Terminating") out.jobs_by_status["unKnowJobs"].push_back(name);
    any_running_or_completed = any_running_or_completed || *p == "Running" || *p == "Completed";
    any_failed = any_failed || *p == "Failed" || *p == "Terminated";
  }
  out.phase = phase.empty() ? "Pending" : phase;
  if (out.phase == "Pending") {
    if (any_running_or_completed && !any_failed) out.phase = "Running";
    else if (any_failed) out.phase = "Failed";
  } else if (out.phase == "Running") {
    if (all_completed) out.phase = "Succeed";
    else if (any_failed) out.phase = "Failed";
  }
  return out;
}

}  // namespace vcsched::lifecycle
