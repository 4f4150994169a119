// Fuzzes workload documents through the simulator on a small fixed cluster: a workload
// is read (or refused with an error), and one that is read runs for an hour of
// simulated time (or, for half the inputs, until its work ends or the events' limit
// stops it) within small limits, keeping the invariants every run keeps: never more
// allocated than capacity, no negative counts, phases in order, well-formed plots.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "vcsched/io/scenario.h"
#include "vcsched/simulate.h"

namespace {

using namespace vcsched;

void Require(bool ok) {
  if (!ok) std::abort();
}

const char* kCluster =
    "apiVersion: v1\nkind: Node\nmetadata: {name: n0}\nstatus: {allocatable: {cpu: \"8\", memory: 16Gi, "
    "nvidia.com/gpu: \"2\", pods: \"110\"}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
    "status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\napiVersion: scheduling.volcano.sh/v1beta1\n"
    "kind: Queue\nmetadata: {name: q}\nspec: {weight: 2}\nstatus: {state: Open}\n";

// Pods a template asks for (Σ replicas), read loosely: the fuzzer skips big jobs.
int64_t Replicas(const Value& job_manifest) {
  const Value* tasks = FindPath(job_manifest, "spec.tasks");
  if (tasks == nullptr) tasks = FindPath(job_manifest, "spec.jobTemplate.spec.tasks");
  int64_t n = 0;
  if (tasks == nullptr) return 0;
  for (const Value& t : tasks->items()) {
    const Value* r = t.Find("replicas");
    if (r == nullptr) continue;
    const int64_t v = std::atoll(r->text().c_str());
    if (v < 0 || v > 1000) return 1 << 20;
    n += v;
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  static const ScenarioObjects cluster = *LoadObjects({{"cluster.yaml", kCluster}});
  absl::StatusOr<Workload> w = ReadWorkload({{"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)}});
  if (!w.ok()) {
    Require(!w.status().message().empty());
    return 0;
  }
  int64_t pods = 0, jobs = 0;
  for (const WorkloadJob& j : w->jobs) {
    pods += Replicas(j.template_) * std::min<int64_t>(j.count, 64);
    jobs += j.count;
  }
  for (const WorkloadCronJob& c : w->cron_jobs) pods += Replicas(c.template_) * 64;
  for (const WorkloadJobFlow& f : w->job_flows) {
    for (const Value& t : f.templates) pods += Replicas(t);
  }
  if (pods > 2000 || jobs > 200 || w->period_ms < 1000) return 0;  // keep each run short
  SimulationOptions options;
  options.max_jobs = 200;
  // Half the inputs run without an end, bounded only by the events' limit (issue 57:
  // work that cannot end must stop with an error, not run for ever).
  if (size % 2 == 0 || !w->cron_jobs.empty()) {
    options.until_ms = 3600 * 1000;
  } else {
    options.max_events = 20000;
  }
  absl::StatusOr<SimulationResult> r = Simulate(cluster, *w, DefaultSchedulerConfig(), options);
  if (!r.ok()) {
    Require(!r.status().message().empty());
    return 0;
  }
  for (const TimelineRow& row : r->timeline) {
    Require(row.pending_pods >= 0 && row.running_pods >= 0);
    for (size_t i = 0; i < r->resources.size(); ++i) {
      Require(row.allocated[i] <= row.capacity[i] + 1e-6 && row.allocated[i] >= -1e-6);
    }
  }
  for (const JobRecord& j : r->jobs) {
    if (j.running_s >= 0) Require(j.inqueue_s >= 0 && j.running_s >= j.inqueue_s && j.inqueue_s >= j.created_s);
    if (j.phase == "Completed" && j.finished_s >= 0 && j.running_s >= 0) {
      Require(j.progress_s * 1000 + 1e-6 >= static_cast<double>(j.duration_ms));
    }
  }
  (void)JobsCsv(*r);
  (void)SummaryJson(*r);
  // The plots and report stay well-formed XML for any name: no control character but
  // tab, line feed and carriage return.
  for (const std::string& doc : {ReportHtml(*r), UtilizationSvg(*r), QueueSharesSvg(*r), WaitTimesSvg(*r)}) {
    for (char c : doc) {
      const auto u = static_cast<unsigned char>(c);
      Require(u >= 0x20 || c == '\t' || c == '\n' || c == '\r');
    }
  }
  return 0;
}
