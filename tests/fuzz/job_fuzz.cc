// Fuzzes the Job lifecycle: manifests are read and admitted by kind; valid jobs are
// expanded twice (identical output required) and driven through a few lifecycle steps,
// every status staying consistent; CronJobs and JobFlows are synced once.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "vcsched/io/manifests.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/expand.h"
#include "vcsched/lifecycle/job_simulator.h"
#include "vcsched/lifecycle/jobflow.h"

namespace {

using namespace vcsched;
using namespace vcsched::lifecycle;

void Require(bool ok) {
  if (!ok) std::abort();
}

void CheckStatus(const JobSimulator& sim) {
  const JobStatus& s = sim.status();
  Require(s.pending >= 0 && s.running >= 0 && s.succeeded >= 0 && s.failed >= 0 && s.terminating >= 0);
  bool known = false;
  for (const std::string& p : JobPhases()) known = known || p == s.phase;
  Require(known);
  Require(static_cast<int64_t>(sim.world().pods.size()) <= sim.job().TotalReplicas());
}

void Drive(const VolcanoJob& job) {
  if (job.TotalReplicas() > 200) return;
  JobSimulator sim(job, 1000);
  sim.Sync();
  CheckStatus(sim);
  (void)sim.SetPodGroupPhase("Inqueue");
  CheckStatus(sim);
  (void)sim.SetAllPods("Running");
  CheckStatus(sim);
  if (!sim.world().pods.empty()) {
    (void)sim.SetPodPhase(sim.world().pods[0].name, "Failed", 137);
    CheckStatus(sim);
  }
  if (!sim.world().pods.empty()) {
    (void)sim.EvictPod(sim.world().pods.back().name);
    CheckStatus(sim);
  }
  (void)sim.Advance(3600);
  (void)sim.SetAllPods("Succeeded");
  CheckStatus(sim);
  (void)sim.Command("AbortJob");
  (void)sim.Command("ResumeJob");
  CheckStatus(sim);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<Manifest>> manifests = LoadManifests({{"fuzz.yaml", text}});
  if (!manifests.ok()) return 0;
  ExpandOptions options;
  options.max_pods = 200;
  options.ssh_keys = [](const VolcanoJob&) -> absl::StatusOr<SshKeyPair> { return SshKeyPair{"k", "p"}; };
  for (const Manifest& m : *manifests) {
    Findings f;
    (void)AdmitObject(m.api_version, m.kind, m.object, {}, ClusterQueues({&m.object}));
    if (m.kind == "Job") {
      const VolcanoJob job = AdmitJobDocument(m.object, {}, &f);
      if (!f.ok()) continue;
      absl::StatusOr<Expansion> a = ExpandJob(job, options), b = ExpandJob(job, options);
      Require(a.ok() == b.ok());
      if (!a.ok()) continue;
      Require(ToYaml(a->All()) == ToYaml(b->All()));
      Require(static_cast<int64_t>(a->pods.size()) == job.TotalReplicas());
      Drive(job);
    } else if (m.kind == "CronJob") {
      VolcanoCronJob c = ReadCronJob(m.object, &f);
      if (!f.ok() || !ValidateCronJob(c).ok()) continue;
      CronSyncResult r = SyncCronJob(c, 0, {}, {}, 1800000000);
      Require(r.create_job.is_null() || r.scheduled_time.has_value());
    } else if (m.kind == "JobFlow") {
      VolcanoJobFlow flow = ReadJobFlow(m.object, &f);
      if (ValidateJobFlow(flow).ok()) (void)SyncJobFlow(flow, "", {}, {});
    }
  }
  return 0;
}
