// A Volcano Job from admission to restart, in code: read the manifest, admit it, expand
// it into the PodGroup and pods, then drive it with events as a host controller would.
//
//   build/example_job_lifecycle [tests/data/lifecycle/volcano-examples/job.yaml]
#include <fstream>
#include <iostream>
#include <sstream>

#include "vcsched/io/manifests.h"
#include "vcsched/lifecycle.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "tests/data/lifecycle/volcano-examples/job.yaml";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<vcsched::Manifest>> docs = vcsched::LoadManifests({{path, text.str()}});
  if (!docs.ok() || docs->empty()) {
    std::cerr << (docs.ok() ? "no document" : std::string(docs.status().message())) << "\n";
    return 1;
  }
  vcsched::lifecycle::Findings findings;
  const vcsched::lifecycle::VolcanoJob job = vcsched::lifecycle::AdmitJobDocument(docs->front().object, {}, &findings);
  if (!findings.ok()) {
    std::cerr << vcsched::lifecycle::FormatFindings(path, findings);
    return 1;
  }
  vcsched::lifecycle::ExpandOptions options;
  options.ssh_keys = [](const vcsched::lifecycle::VolcanoJob&) -> absl::StatusOr<vcsched::lifecycle::SshKeyPair> {
    return vcsched::lifecycle::SshKeyPair{"(host-provided private key)", "(host-provided public key)"};
  };
  absl::StatusOr<vcsched::lifecycle::Expansion> objects = vcsched::lifecycle::ExpandJob(job, options);
  if (!objects.ok()) {
    std::cerr << objects.status().message() << "\n";
    return 1;
  }
  std::cout << "PodGroup " << vcsched::lifecycle::PodGroupNameOf(job) << " and " << objects->pods.size() << " pods, "
            << objects->plugin_objects.size() << " plugin objects\n";

  vcsched::lifecycle::JobSimulator sim(job, /*now=*/0);
  sim.Sync();                       // the controller creates the PodGroup
  (void)sim.SetPodGroupPhase("Inqueue");  // the scheduler enqueues it: pods are created
  (void)sim.SetAllPods("Running");
  std::cout << "phase " << sim.status().phase << "\n";
  if (!sim.world().pods.empty()) {
    absl::StatusOr<vcsched::lifecycle::SimulatorStep> step = sim.EvictPod(sim.world().pods.front().name);
    if (step.ok()) std::cout << "eviction -> " << vcsched::lifecycle::JobActionName(step->choice.action) << ", phase " << sim.status().phase << "\n";
  }
  return 0;
}
