#include "src/io/job_documents.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/io/value_yaml.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/dependencies.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::io_internal {

using lifecycle::AdmitJobDocument;
using lifecycle::ExpandJobTo;
using lifecycle::ExpandOptions;
using lifecycle::Findings;
using lifecycle::JobTask;
using lifecycle::SshKeyPair;
using lifecycle::TasksReadyToCreate;
using lifecycle::Violation;
using lifecycle::VolcanoJob;

void ExpandJobDocument(const YAML::Node& doc, ObjectReader& r, const std::function<void(const YAML::Node&)>& read,
                       Value* manifest) {
  Value v;
  int64_t budget = kMaxManifestValues;
  if (!ToValue(doc, &v, &budget)) {
    r.Fail(doc, "", absl::StrCat("the document holds more than ", kMaxManifestValues, " values once its aliases are expanded, or nests "
                                 "deeper than ", kMaxValueDepth, " levels"));
    return;
  }
  Findings findings;
  // Queues are resolved by the snapshot, which warns on unknown ones.
  const VolcanoJob job = AdmitJobDocument(v, {}, &findings);
  for (const Violation& e : findings.errors) r.Fail(doc, e.field, e.message);
  if (!findings.ok()) return;
  ExpandOptions options;
  // The controller creates a task's pods once its dependsOn tasks are ready; in a
  // snapshot nothing has run yet, so only tasks without pending dependencies have pods.
  options.only_tasks = TasksReadyToCreate(job, {});
  if (options.only_tasks.size() < job.tasks.size()) {
    std::vector<std::string> waiting;
    for (const JobTask& t : job.tasks) {
      if (std::find(options.only_tasks.begin(), options.only_tasks.end(), t.name) == options.only_tasks.end()) {
        waiting.push_back(t.name);
      }
    }
    r.Warn("spec.tasks", absl::StrCat("pods of tasks waiting on dependsOn are not created yet: ",
                                      absl::StrJoin(waiting, ", ")));
  }
  // The ssh Secret is not part of a scheduling snapshot; its keys are never shown.
  options.ssh_keys = [](const VolcanoJob&) -> absl::StatusOr<SshKeyPair> {
    return SshKeyPair{"(not generated for scheduling)", "(not generated for scheduling)"};
  };
  // The PodGroup and the pods; the plugins' other objects change no scheduling decision.
  const absl::Status s = ExpandJobTo(job, options, [&](Value object) {
    const Value* kind = object.Find("kind");
    if (kind != nullptr && (kind->text() == "Pod" || kind->text() == "PodGroup")) read(ToYamlNode(object));
  });
  if (!s.ok()) {
    r.Fail(doc, "spec", s.message());
  } else if (manifest != nullptr) {
    *manifest = std::move(v);
  }
}

}  // namespace vcsched::io_internal
