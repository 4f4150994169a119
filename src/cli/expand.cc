// vcsched expand FILE [--ssh-key-dir DIR]
// Prints, as Kubernetes YAML, every object Volcano's controller creates for each Job of
// FILE: its PodGroup, the plugins' Service, NetworkPolicy, ConfigMap, Secret, PVCs, and its pods.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"
#include "src/cli/manifest_files.h"
#include "vcsched/lifecycle/admit.h"

namespace vcsched::cli {

using lifecycle::AdmitJobDocument;
using lifecycle::ExpandJobTo;
using lifecycle::ExpandOptions;
using lifecycle::Findings;
using lifecycle::FormatFindings;
using lifecycle::VolcanoJob;

int Expand(const ExpandCommandOptions& command) {
  const std::vector<std::string>& files = command.files;
  const std::string& key_dir = command.ssh_key_dir;
  absl::StatusOr<std::vector<Manifest>> manifests = ReadManifests(files);
  if (!manifests.ok()) {
    std::cerr << manifests.status().message() << "\n";
    return 1;
  }
  ExpandOptions options;
  options.ssh_keys = CliSshKeys(key_dir);
  for (const Manifest& m : *manifests) {
    if (m.kind == "PriorityClass") {
      const Value* v = m.object.Find("value");
      const Value* name = FindPath(m.object, "metadata.name");
      if (v != nullptr && name != nullptr) options.priority_classes[name->text()] = std::atoi(v->text().c_str());
    }
  }
  int jobs = 0, failed = 0;
  for (const Manifest& m : *manifests) {
    if (!IsVolcanoJob(m)) continue;
    ++jobs;
    Findings f;
    const VolcanoJob job = AdmitJobDocument(m.object, {}, &f);
    if (!f.ok()) {
      std::cerr << FormatFindings(absl::StrCat(m.where, ": Job \"", job.metadata.name, "\""), Findings{f.errors, {}});
      ++failed;
      continue;
    }
    // Objects are printed as they are made: a job of many replicas needs the memory of
    // a few pods, not of all of them.
    std::cout << "# Job " << job.metadata.namespace_ << "/" << job.metadata.name << " (from " << m.where << ")\n";
    const absl::Status s = ExpandJobTo(job, options, [](Value object) { std::cout << ToYaml({&object}); });
    if (!s.ok()) {
      std::cerr << m.where << ": Job \"" << job.metadata.name << "\": " << s.message() << "\n";
      ++failed;
      continue;
    }
  }
  if (jobs == 0) {
    std::cerr << "vcsched expand: no Volcano Job (batch.volcano.sh) in the input\n";
    return 1;
  }
  return failed > 0 ? 1 : 0;
}

}  // namespace vcsched::cli
