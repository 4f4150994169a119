// vcsched job FILE [--now SECONDS] STEP...   (the steps in command-line order)
// Steps a Volcano Job through its lifecycle and prints, after each step, the action the
// controller takes, its commands, and the job's phase and pod counts. Steps, in order:
//   --sync                   the controller syncs the job
//   --podgroup PHASE         the scheduler moved the PodGroup (Inqueue, Running, Unknown)
//   --pod NAME=PHASE[:CODE]  a pod changed phase (Failed with an exit code)
//   --all-pods PHASE         every current pod to PHASE
//   --evict NAME             the pod was deleted from outside (PodEvicted)
//   --restart-container NAME a container of the pod restarted
//   --event EVENT[:TASK[:POD[:EXITCODE]]]  an event as is
//   --command ACTION         a bus Command (AbortJob, ResumeJob, ...)
//   --wait SECONDS           time passes; delayed (timeout) actions run
#include <algorithm>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "src/cli/commands.h"
#include "src/cli/manifest_files.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/job_simulator.h"

namespace vcsched::cli {

using lifecycle::AdmitJobDocument;
using lifecycle::EventRequest;
using lifecycle::Findings;
using lifecycle::FormatFindings;
using lifecycle::JobActionName;
using lifecycle::JobCommand;
using lifecycle::JobCommandKind;
using lifecycle::JobCommandKindName;
using lifecycle::JobEvent;
using lifecycle::JobEventName;
using lifecycle::JobRequest;
using lifecycle::JobSimulator;
using lifecycle::JobStatus;
using lifecycle::JobStep;
using lifecycle::SimulatorStep;
using lifecycle::VolcanoJob;

namespace {

void Print(const SimulatorStep& s, const JobSimulator& sim) {
  std::cout << "[t=" << sim.now() << "] " << s.what << "\n";
  if (s.request.event != JobEvent::kOutOfSync || s.request.action) {
    std::cout << "  event: " << JobEventName(s.request.event) << (s.choice.matched.empty() ? "" : " (" + s.choice.matched + ")")
              << "\n";
  }
  if (!s.executed) {
    std::cout << "  action: " << JobActionName(s.choice.action) << " delayed " << *s.choice.timeout_seconds << "s\n";
    return;
  }
  std::cout << "  action: " << JobActionName(s.executed->action) << " -> " << s.executed->status.phase << "\n";
  // A follow-up sync re-issues commands the step already gave (DeletePluginObjects of a
  // finished job); each is printed once per step.
  std::vector<std::pair<JobCommandKind, std::string>> printed;
  const auto print_new = [&](const JobCommand& c, const char* indent) {
    if (std::find(printed.begin(), printed.end(), std::make_pair(c.kind, c.target)) != printed.end()) return;
    printed.emplace_back(c.kind, c.target);
    std::cout << indent << "command: " << JobCommandKindName(c.kind) << " " << c.target << "\n";
  };
  for (const JobCommand& c : s.executed->commands) print_new(c, "  ");
  for (const JobStep& f : s.follow_ups) {
    std::cout << "  then (job changed phase, out of sync): SyncJob -> " << f.status.phase << "\n";
    for (const JobCommand& c : f.commands) print_new(c, "    ");
  }
  // The state this step left, not the simulator's state after later steps.
  const JobStatus& st = s.follow_ups.empty() ? s.executed->status : s.follow_ups.back().status;
  std::cout << "  phase: " << st.phase << "  retry: " << st.retry_count << "  version: " << st.version
            << "  pods: pending " << st.pending << ", running " << st.running << ", succeeded " << st.succeeded
            << ", failed " << st.failed << ", terminating " << st.terminating << "\n";
}

}  // namespace

int Job(const JobOptions& options) {
  absl::StatusOr<std::vector<Manifest>> manifests = ReadManifests({options.file});
  if (!manifests.ok()) {
    std::cerr << manifests.status().message() << "\n";
    return 1;
  }
  const Manifest* doc = nullptr;
  for (const Manifest& m : *manifests) {
    if (IsVolcanoJob(m) && doc == nullptr) doc = &m;
  }
  if (doc == nullptr) {
    std::cerr << options.file << ": no Volcano Job (batch.volcano.sh) in the file\n";
    return 1;
  }
  Findings f;
  VolcanoJob job = AdmitJobDocument(doc->object, {}, &f);
  if (!f.ok()) {
    std::cerr << FormatFindings(absl::StrCat(doc->where, ": Job \"", job.metadata.name, "\""), Findings{f.errors, {}});
    return 1;
  }
  const int64_t now = options.now;
  absl::StatusOr<JobSimulator> created = JobSimulator::Create(std::move(job), now);
  if (!created.ok()) {
    std::cerr << "vcsched job: " << created.status().message() << "\n";
    return 1;
  }
  JobSimulator& sim = *created;
  for (const auto& [step_name, value] : options.steps) {
    const std::string flag = absl::StrCat("--", step_name);
    if (flag == "--sync") {
      Print(sim.Sync(), sim);
      continue;
    }
    absl::StatusOr<SimulatorStep> step = absl::InvalidArgumentError(absl::StrCat("unknown step ", flag));
    if (flag == "--podgroup") {
      step = sim.SetPodGroupPhase(value);
    } else if (flag == "--pod") {
      std::vector<std::string> kv = absl::StrSplit(value, absl::MaxSplits('=', 1));
      std::vector<std::string> pc = absl::StrSplit(kv.size() > 1 ? kv[1] : "", absl::MaxSplits(':', 1));
      std::optional<int32_t> code;
      if (int32_t c = 0; pc.size() > 1 && absl::SimpleAtoi(pc[1], &c)) code = c;
      step = kv.size() == 2 ? sim.SetPodPhase(kv[0], pc[0], code)
                            : absl::InvalidArgumentError("--pod expects NAME=PHASE[:EXITCODE]");
    } else if (flag == "--all-pods") {
      absl::StatusOr<std::vector<SimulatorStep>> steps = sim.SetAllPods(value);
      if (!steps.ok()) {
        std::cerr << "vcsched job: --all-pods: " << steps.status().message() << "\n";
        return 2;
      }
      for (const SimulatorStep& s : *steps) Print(s, sim);
      continue;
    } else if (flag == "--evict") {
      step = sim.EvictPod(value);
    } else if (flag == "--restart-container") {
      step = sim.RestartContainer(value);
    } else if (flag == "--event") {
      std::vector<std::string> parts = absl::StrSplit(value, ':');
      absl::StatusOr<JobRequest> request =
          EventRequest(parts[0], parts.size() > 1 ? parts[1] : "", parts.size() > 2 ? parts[2] : "");
      if (!request.ok()) {
        std::cerr << "vcsched job: --event: " << request.status().message() << "\n";
        return 2;
      }
      JobRequest r = *std::move(request);
      if (int32_t code = 0; parts.size() > 3 && absl::SimpleAtoi(parts[3], &code)) r.exit_code = code;
      step = sim.Deliver(r, absl::StrCat("event ", value));
    } else if (flag == "--command") {
      step = sim.Command(value);
    } else if (flag == "--wait") {
      int64_t secs = 0;
      if (!absl::SimpleAtoi(value, &secs) || secs < 0) {
        std::cerr << "vcsched job: --wait expects seconds, got " << value << "\n";
        return 2;
      }
      const bool deleted_before = sim.deleted();
      absl::StatusOr<std::vector<SimulatorStep>> ran = sim.Advance(secs);
      if (!ran.ok()) {
        std::cerr << "vcsched job: --wait: " << ran.status().message() << "\n";
        return 2;
      }
      std::cout << "[t=" << sim.now() << "] waited " << secs << "s\n";
      for (const SimulatorStep& s : *ran) Print(s, sim);
      if (sim.deleted() && !deleted_before) {
        std::cout << "  ttlSecondsAfterFinished passed: the job is deleted\n";
      }
      continue;
    }
    if (!step.ok()) {
      std::cerr << "vcsched job: " << step.status().message() << "\n";
      return 2;
    }
    Print(*step, sim);
  }
  std::cout << "final phase: " << sim.status().phase << (sim.deleted() ? " (deleted)" : "") << "\n";
  return 0;
}

}  // namespace vcsched::cli
