// vcsched validate FILE... [--strict] [--cluster FILE]... [--old FILE]...
// Runs Volcano's admission on every Job, PodGroup, Queue, CronJob, JobFlow, JobTemplate
// and Volcano Pod of the files; prints every finding; exits 1 when any object is
// rejected. A Job also found (same namespace/name) in an --old file is judged as an
// update of it.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/cli/manifest_files.h"
#include "src/model/output_text.h"
#include "vcsched/scheduler.h"
#include "vcsched/lifecycle/admit.h"

namespace vcsched::cli {

using lifecycle::AdmissionContext;
using lifecycle::AdmitJobUpdate;
using lifecycle::AdmitObject;
using lifecycle::ClusterQueues;
using lifecycle::Findings;
using lifecycle::Violation;
using lifecycle::VolcanoQueue;

namespace {

std::string Label(const Manifest& m) {
  const Value* name = FindPath(m.object, "metadata.name");
  return absl::StrCat(m.where, ": ", m.kind, " \"", name != nullptr ? name->text() : "", "\"");
}

std::string Key(const Value& object) {
  const Value* ns = FindPath(object, "metadata.namespace");
  const Value* name = FindPath(object, "metadata.name");
  return absl::StrCat(ns != nullptr ? ns->text() : "default", "/", name != nullptr ? name->text() : "");
}

// The object of the same kind and namespace/name among `old`, if any.
const Value* FindSame(const std::vector<Manifest>& old, const Manifest& m) {
  for (const Manifest& o : old) {
    if (o.kind == m.kind && Key(o.object) == Key(m.object)) return &o.object;
  }
  return nullptr;
}

// Inputs that schedule but are almost certainly mistakes (docs/EXPLAIN.md, lint): the
// files as one scenario, one session with its configuration, and its warnings. Files
// that are not a scenario have none.
void PrintSchedulingLint(const std::vector<std::string>& files) {
  absl::StatusOr<Scenario> sc = LoadScenarioFiles(files);
  if (!sc.ok()) return;
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, sc->config.value_or(DefaultSchedulerConfig()));
  const std::vector<std::string>& warnings = d.ok() ? d->warnings : sc->snapshot.warnings();
  for (const std::string& w : warnings) std::cout << "lint: " << w << "\n";
  const auto& others = sc->snapshot.other_scheduler_pods();
  if (!others.empty()) {
    const PodSpec& p = *others.front();
    std::cout << "note: " << others.size()
              << " pending pod(s) are not scheduled here: another scheduler serves their schedulerName (for example "
              << Printable(p.namespace_ + "/" + p.name) << ", schedulerName "
              << (p.scheduler_name.empty() ? "empty" : Printable(p.scheduler_name)) << ")\n";
  }
}

}  // namespace

int Validate(const ValidateOptions& options) {
  const std::vector<std::string>& files = options.files;
  const std::vector<std::string>& cluster_files = options.cluster_files;
  const std::vector<std::string>& old_files = options.old_files;
  AdmissionContext context;
  context.strict_pod_templates = options.strict;
  absl::StatusOr<std::vector<Manifest>> manifests = ReadManifests(files);
  absl::StatusOr<std::vector<Manifest>> cluster = ReadManifests(cluster_files);
  absl::StatusOr<std::vector<Manifest>> old = ReadManifests(old_files);
  for (const absl::Status& s : {manifests.status(), cluster.status(), old.status()}) {
    if (!s.ok()) {
      std::cerr << s.message() << "\n";
      return 1;
    }
  }
  // Queues are judged against the cluster's and against each other.
  std::vector<const Value*> queue_objects = ObjectsOfKind(*cluster, "Queue");
  if (!cluster_files.empty()) context.queues = ClusterQueues(queue_objects);
  for (const Value* q : ObjectsOfKind(*manifests, "Queue")) queue_objects.push_back(q);
  const std::vector<VolcanoQueue> queues = ClusterQueues(queue_objects);
  int rejected = 0, accepted = 0, skipped = 0;
  for (const Manifest& m : *manifests) {
    const Value* earlier = m.kind == "Job" ? FindSame(*old, m) : nullptr;
    const std::optional<Findings> f = earlier != nullptr
                                          ? AdmitJobUpdate(*earlier, m.object)
                                          : AdmitObject(m.api_version, m.kind, m.object, context, queues, SystemTimeZones());
    if (!f) {
      ++skipped;
      std::cout << Label(m) << ": skipped (not a Volcano object)\n";
      continue;
    }
    std::cout << Label(m) << (earlier != nullptr ? " (update)" : "") << ": " << (f->ok() ? "accepted" : "REJECTED")
              << "\n";
    for (const Violation& v : f->errors) std::cout << "  error: " << (v.field.empty() ? "" : v.field + ": ") << v.message << "\n";
    for (const Violation& v : f->warnings) std::cout << "  warning: " << (v.field.empty() ? "" : v.field + ": ") << v.message << "\n";
    (f->ok() ? accepted : rejected)++;
  }
  std::cout << accepted << " accepted, " << rejected << " rejected, " << skipped << " skipped\n";
  // The lint sees the cluster's objects too: a job's queue given with --cluster exists.
  std::vector<std::string> scenario = cluster_files;
  scenario.insert(scenario.end(), files.begin(), files.end());
  PrintSchedulingLint(scenario);
  return rejected > 0 ? 1 : 0;
}

}  // namespace vcsched::cli
