// vcsched validate FILE... [--strict] [--cluster FILE]...
// Runs Volcano's admission on every Job, PodGroup, Queue, CronJob, JobFlow and
// JobTemplate of the files; prints every finding; exits 1 when any object is rejected.
#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"
#include "src/cli/manifest_files.h"
#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/jobflow.h"

namespace vcsched::cli {

namespace {

std::string Label(const Manifest& m) {
  const Value* name = FindPath(m.object, "metadata.name");
  return absl::StrCat(m.where, ": ", m.kind, " \"", name != nullptr ? name->text() : "", "\"");
}

// The admission result of one manifest; `known` false for kinds admission does not cover.
Findings Admit(const Manifest& m, const AdmissionContext& context, const std::vector<VolcanoQueue>& all_queues,
               bool* known) {
  Findings f;
  *known = true;
  const bool volcano_batch = m.api_version.rfind("batch.volcano.sh/", 0) == 0;
  const bool volcano_sched = m.api_version.rfind("scheduling.volcano.sh/", 0) == 0 ||
                             m.api_version.rfind("scheduling.incubator.k8s.io/", 0) == 0;
  const bool volcano_flow = m.api_version.rfind("flow.volcano.sh/", 0) == 0;
  if (m.kind == "Job" && volcano_batch) {
    VolcanoJob job = ReadJob(m.object, &f);
    MutateJob(job, context);
    f.Append(ValidateJob(job, context));
  } else if (m.kind == "CronJob" && volcano_batch) {
    VolcanoCronJob cron = ReadCronJob(m.object, &f);
    f.Append(ValidateCronJob(cron, SystemTimeZones()));
  } else if (m.kind == "Queue" && volcano_sched) {
    VolcanoQueue q = ReadQueue(m.object, &f);
    MutateQueue(q);
    f.Append(ValidateQueue(q, all_queues));
  } else if (m.kind == "PodGroup" && volcano_sched) {
    f.Append(ValidatePodGroup(m.object, context));
  } else if (m.kind == "JobFlow" && volcano_flow) {
    VolcanoJobFlow flow = ReadJobFlow(m.object, &f);
    f.Append(ValidateJobFlow(flow));
  } else if (m.kind == "JobTemplate" && volcano_flow) {
    ObjectMeta meta = ReadObjectMeta(m.object, &f);
    const Value* spec = m.object.Find("spec");
    VolcanoJob job = ReadJobSpec(spec != nullptr ? *spec : Value::Map(), "spec", meta, &f);
    MutateJob(job, context);
    f.Append(ValidateJob(job, context));
  } else {
    *known = false;
  }
  return f;
}

}  // namespace

int Validate(const std::vector<std::string>& args) {
  std::vector<std::string> files, cluster_files;
  AdmissionContext context;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--strict") context.strict_pod_templates = true;
    else if (args[i] == "--cluster" && i + 1 < args.size()) cluster_files.push_back(args[++i]);
    else if (!args[i].empty() && args[i][0] == '-' && args[i] != "-") {
      std::cerr << "vcsched validate: unknown flag " << args[i] << "\n";
      return 2;
    } else files.push_back(args[i]);
  }
  if (files.empty()) {
    std::cerr << "usage: vcsched validate FILE... [--strict] [--cluster QUEUES.yaml]...\n";
    return 2;
  }
  absl::StatusOr<std::vector<Manifest>> manifests = ReadManifests(files);
  if (!manifests.ok()) {
    std::cerr << manifests.status().message() << "\n";
    return 1;
  }
  if (!cluster_files.empty()) {
    // The cluster's queues: Volcano's own (root, default) and those of the files.
    absl::StatusOr<std::vector<Manifest>> cluster = ReadManifests(cluster_files);
    if (!cluster.ok()) {
      std::cerr << cluster.status().message() << "\n";
      return 1;
    }
    std::vector<VolcanoQueue> queues(2);
    queues[0].metadata.name = "root";
    queues[1].metadata.name = "default";
    for (const Manifest& m : *cluster) {
      if (m.kind != "Queue") continue;
      Findings ignored;
      VolcanoQueue q = ReadQueue(m.object, &ignored);
      queues.erase(std::remove_if(queues.begin(), queues.end(),
                                  [&](const VolcanoQueue& e) { return e.metadata.name == q.metadata.name; }),
                   queues.end());
      queues.push_back(std::move(q));
    }
    context.queues = std::move(queues);
  }
  // Queues are checked against the cluster's and against each other.
  std::vector<VolcanoQueue> all_queues = context.queues.value_or(std::vector<VolcanoQueue>{});
  for (const Manifest& m : *manifests) {
    if (m.kind != "Queue") continue;
    Findings ignored;
    VolcanoQueue q = ReadQueue(m.object, &ignored);
    MutateQueue(q);
    all_queues.push_back(std::move(q));
  }
  int rejected = 0, accepted = 0, skipped = 0;
  for (const Manifest& m : *manifests) {
    bool known = false;
    const Findings f = Admit(m, context, all_queues, &known);
    if (!known) {
      ++skipped;
      std::cout << Label(m) << ": skipped (" << (m.kind.empty() ? "no kind" : m.kind) << " is not a Volcano object)\n";
      continue;
    }
    std::cout << Label(m) << ": " << (f.ok() ? "accepted" : "REJECTED") << "\n";
    for (const Violation& v : f.errors) std::cout << "  error: " << (v.field.empty() ? "" : v.field + ": ") << v.message << "\n";
    for (const Violation& v : f.warnings) std::cout << "  warning: " << (v.field.empty() ? "" : v.field + ": ") << v.message << "\n";
    (f.ok() ? accepted : rejected)++;
  }
  std::cout << accepted << " accepted, " << rejected << " rejected, " << skipped << " skipped\n";
  return rejected > 0 ? 1 : 0;
}

}  // namespace vcsched::cli
