// The job state machine, table-driven: every phase × every action Volcano defines, then
// the policies that choose the action, completion rules, and the simulator.
#include <catch2/catch.hpp>

#include "tests/lifecycle/test_manifests.h"
#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/dependencies.h"
#include "vcsched/lifecycle/job_simulator.h"

namespace vcsched::lifecycle {
namespace {

// The controller's vocabulary as Volcano spells it (the tables below are written so).
JobAction A(const std::string& name) {
  const std::optional<JobAction> a = ParseJobAction(name);
  REQUIRE(a.has_value());
  return *a;
}
JobEvent E(const std::string& name) {
  const std::optional<JobEvent> e = ParseJobEvent(name);
  REQUIRE(e.has_value());
  return *e;
}
std::string K(JobCommandKind kind) { return std::string(JobCommandKindName(kind)); }


using testing::ManifestFromText;

VolcanoJob JobFrom(const std::string& text) {
  Findings f;
  VolcanoJob job = ReadJob(ManifestFromText(text).at(0).object, &f);
  MutateJob(job, {});
  f.Append(ValidateJob(job, {}));
  REQUIRE(f.ok());
  return job;
}

const char* kThreePods = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  minAvailable: 3
  maxRetry: 3
  policies:
  - {event: PodEvicted, action: RestartJob}
  - {exitCode: 137, action: RestartJob}
  tasks:
  - name: w
    replicas: 3
    partitionPolicy: {totalPartitions: 3, partitionSize: 1}
    template: {spec: {containers: [{name: c, image: i}]}}
    policies:
    - {event: TaskCompleted, action: CompleteJob}
    - {event: PodPending, action: RestartPod, timeout: 5m}
)";

JobWorld RunningPods() {
  JobWorld w;
  w.pod_group_phase = "Running";
  for (int i = 0; i < 3; ++i) w.pods.push_back({"j-w-" + std::to_string(i), "w", i, "Running", false, true, 0});
  return w;
}

TEST_CASE("a sync keeps the pods its tasks name, deletes the others and creates the missing ones") {
  // Task names with dashes and digits: a pod's task is what lies between the job's name
  // and the last '-', its replica the digits after it, written as the controller writes
  // them (no leading zero).
  const VolcanoJob job = JobFrom(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  minAvailable: 1
  tasks:
  - {name: x, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: x-1, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
)");
  JobWorld w;
  w.pod_group_phase = "Running";
  for (const char* name : {"j-x-1-0", "j-x-1", "j-x-01", "j-x-2", "other-x-0", "j-x-1-1", "j-y-0"}) {
    w.pods.push_back({name, "x", 0, "Running", false, true, 0});
  }
  JobStatus s;
  s.phase = "Running";
  JobRequest r{JobEvent::kOutOfSync, A("SyncJob"), "", "", std::nullopt, std::nullopt};
  const JobStep step = ExecuteAction(job, s, w, A("SyncJob"), r, 100);
  std::vector<std::string> deleted, created;
  for (const JobCommand& c : step.commands) {
    if (c.kind == JobCommandKind::kDeletePod) deleted.push_back(c.target);
    if (c.kind == JobCommandKind::kCreatePod) created.push_back(c.target);
  }
  CHECK(deleted == std::vector<std::string>{"j-x-01", "j-x-2", "other-x-0", "j-x-1-1", "j-y-0"});
  CHECK(created == std::vector<std::string>{"j-x-0"});
  CHECK(step.status.running == 2);
  CHECK(step.status.terminating == 5);
  CHECK(step.status.pending == 1);
}

TEST_CASE("every phase x action of the transition table") {
  const VolcanoJob job = JobFrom(kThreePods);
  const std::vector<std::string> actions = {"RestartJob", "RestartTask", "RestartPod", "RestartPartition", "AbortJob",
                                            "TerminateJob", "CompleteJob", "ResumeJob", "SyncJob"};
  // Expected phase after each action, three Running pods and a Running PodGroup.
  const std::map<std::string, std::vector<std::string>> expected = {
      {"Pending", {"Restarting", "Restarting", "Restarting", "Restarting", "Aborting", "Terminating", "Completing",
                   "Running", "Running"}},
      {"Running", {"Restarting", "Restarting", "Restarting", "Restarting", "Aborting", "Terminating", "Completing",
                   "Running", "Running"}},
      // Kills leave 3 terminating, so Σreplicas - terminating < minAvailable; a sync sees
      // the pods again and goes back to Pending.
      {"Restarting", {"Restarting", "Restarting", "Restarting", "Restarting", "Restarting", "Restarting", "Restarting",
                      "Restarting", "Pending"}},
      {"Aborting", {"Aborting", "Aborting", "Aborting", "Aborting", "Aborting", "Aborting", "Aborting", "Restarting",
                    "Aborting"}},
      {"Aborted", {"Aborted", "Aborted", "Aborted", "Aborted", "Aborted", "Aborted", "Aborted", "Restarting",
                   "Aborted"}},
      {"Completing", std::vector<std::string>(9, "Completing")},
      {"Terminating", std::vector<std::string>(9, "Terminating")},
      {"Completed", std::vector<std::string>(9, "Completed")},
      {"Terminated", std::vector<std::string>(9, "Terminated")},
      {"Failed", std::vector<std::string>(9, "Failed")},
  };
  REQUIRE(expected.size() == JobPhases().size());
  for (const std::string& phase : JobPhases()) {
    for (size_t a = 0; a < actions.size(); ++a) {
      INFO(phase << " x " << actions[a]);
      JobStatus s;
      s.phase = phase;
      s.min_available = 3;
      JobRequest r{JobEvent::kOutOfSync, A(actions[a]), "w", "j-w-1", std::nullopt, std::nullopt};
      const JobStep step = ExecuteAction(job, s, RunningPods(), A(actions[a]), r, 100);
      CHECK(step.status.phase == expected.at(phase)[a]);
      const bool moved = step.status.phase != phase;
      CHECK(step.status.last_transition_time == (moved ? 100 : 0));
      if (moved) CHECK(step.status.conditions.back().status == step.status.phase);
    }
  }
}

TEST_CASE("every event x phase, through the policies of a job") {
  const VolcanoJob job = JobFrom(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  minAvailable: 3
  policies:
  - {event: PodEvicted, action: RestartJob}
  - {event: PodFailed, action: AbortJob}
  - {event: Unknown, action: TerminateJob}
  - {event: JobUpdated, action: ResumeJob}
  tasks:
  - name: w
    replicas: 3
    template: {spec: {containers: [{name: c, image: i}]}}
    policies:
    - {event: TaskCompleted, action: CompleteJob}
    - {event: TaskFailed, action: RestartTask}
    - {event: PodPending, action: RestartPod, timeout: 1m}
)");
  const std::vector<std::string> events = {"PodEvicted", "PodFailed",  "Unknown",   "JobUpdated",    "TaskCompleted",
                                           "TaskFailed", "PodPending", "OutOfSync", "CommandIssued", "PodRunning"};
  // The phase after each event; PodPending's action is delayed, so nothing changes yet.
  const std::map<std::string, std::vector<std::string>> expected = {
      {"Pending", {"Restarting", "Aborting", "Terminating", "Running", "Completing", "Restarting", "Pending",
                   "Running", "Running", "Running"}},
      {"Running", {"Restarting", "Aborting", "Terminating", "Running", "Completing", "Restarting", "Running",
                   "Running", "Running", "Running"}},
      {"Restarting", {"Restarting", "Restarting", "Restarting", "Restarting", "Restarting", "Restarting",
                      "Restarting", "Pending", "Pending", "Pending"}},
      {"Aborting", {"Aborting", "Aborting", "Aborting", "Restarting", "Aborting", "Aborting", "Aborting", "Aborting",
                    "Aborting", "Aborting"}},
      {"Aborted", {"Aborted", "Aborted", "Aborted", "Restarting", "Aborted", "Aborted", "Aborted", "Aborted",
                   "Aborted", "Aborted"}},
      {"Completing", std::vector<std::string>(10, "Completing")},
      {"Terminating", std::vector<std::string>(10, "Terminating")},
      {"Completed", std::vector<std::string>(10, "Completed")},
      {"Terminated", std::vector<std::string>(10, "Terminated")},
      {"Failed", std::vector<std::string>(10, "Failed")},
  };
  for (const std::string& phase : JobPhases()) {
    for (size_t e = 0; e < events.size(); ++e) {
      INFO(phase << " x " << events[e]);
      JobStatus s;
      s.phase = phase;
      s.min_available = 3;
      const JobRequest r{E(events[e]), std::nullopt, "w", "j-w-1", std::nullopt, 0};
      const PolicyChoice choice = ChooseAction(job, s, r);
      const std::string after =
          choice.timeout_seconds ? phase : ExecuteAction(job, s, RunningPods(), choice.action, r, 7).status.phase;
      CHECK(after == expected.at(phase)[e]);
    }
  }
}

TEST_CASE("what each kill deletes, and the retry counter") {
  const VolcanoJob job = JobFrom(kThreePods);
  JobStatus s;
  s.phase = "Running";
  s.min_available = 3;
  JobWorld w = RunningPods();
  w.pods[0].phase = "Succeeded";
  auto deleted = [](const JobStep& step) {
    std::vector<std::string> out;
    for (const JobCommand& c : step.commands) {
      if (K(c.kind) == "DeletePod") out.push_back(c.target);
    }
    return out;
  };
  JobRequest r{JobEvent::kOutOfSync, std::nullopt, "w", "j-w-1", std::nullopt, std::nullopt};
  // RestartJob kills every pod (retain none), bumps version and retry, drops the PodGroup.
  JobStep restart = ExecuteAction(job, s, w, A("RestartJob"), r, 1);
  CHECK(deleted(restart) == std::vector<std::string>{"j-w-0", "j-w-1", "j-w-2"});
  CHECK(restart.status.retry_count == 1);
  CHECK(restart.status.version == 1);
  CHECK(restart.commands.back().kind == JobCommandKind::kDeletePodGroup);
  // AbortJob keeps Succeeded/Failed pods (retain soft).
  CHECK(deleted(ExecuteAction(job, s, w, A("AbortJob"), r, 1)) == std::vector<std::string>{"j-w-1", "j-w-2"});
  // RestartPod kills only the pod; the PodGroup stays; no version bump.
  JobStep pod = ExecuteAction(job, s, w, A("RestartPod"), r, 1);
  CHECK(deleted(pod) == std::vector<std::string>{"j-w-1"});
  CHECK(pod.status.version == 0);
  for (const JobCommand& c : pod.commands) CHECK(K(c.kind) != "DeletePodGroup");
  // On the last retry even RestartJob keeps finished pods.
  s.retry_count = 2;
  CHECK(deleted(ExecuteAction(job, s, w, A("RestartJob"), r, 1)) == std::vector<std::string>{"j-w-1", "j-w-2"});
  // Restarting at maxRetry fails the job.
  s.phase = "Restarting";
  s.retry_count = 3;
  CHECK(ExecuteAction(job, s, w, A("SyncJob"), r, 1).status.phase == "Failed");
}

TEST_CASE("draining phases finish once no pod is left") {
  const VolcanoJob job = JobFrom(kThreePods);
  JobWorld empty;
  empty.pod_group_phase = "Running";
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"Aborting", "Aborted"}, {"Completing", "Completed"}, {"Terminating", "Terminated"}}) {
    JobStatus s;
    s.phase = from;
    CHECK(ExecuteAction(job, s, empty, A("SyncJob"), {}, 5).status.phase == to);
  }
}

TEST_CASE("policies choose the action") {
  const VolcanoJob job = JobFrom(kThreePods);
  JobStatus s;
  s.version = 2;
  struct Case {
    JobRequest request;
    std::string action;
    bool delayed;
  } cases[] = {
      {{E("PodEvicted"), std::nullopt, "w", "j-w-0", std::nullopt, 2}, "RestartJob", false},
      {{E("TaskCompleted"), std::nullopt, "w", "", std::nullopt, std::nullopt}, "CompleteJob", false},
      {{E("PodFailed"), std::nullopt, "w", "j-w-0", 137, 2}, "RestartJob", false},
      {{E("PodFailed"), std::nullopt, "w", "j-w-0", 1, 2}, "SyncJob", false},
      {{E("PodPending"), std::nullopt, "w", "j-w-0", std::nullopt, 2}, "RestartPod", true},
      {{E("PodEvicted"), std::nullopt, "w", "j-w-0", std::nullopt, 1}, "SyncJob", false},  // stale version
      {{E("OutOfSync"), std::nullopt, "", "", std::nullopt, std::nullopt}, "SyncJob", false},
      {{E("PodRunning"), std::nullopt, "w", "j-w-0", std::nullopt, 2}, "SyncJob", false},
      {{E("CommandIssued"), A("AbortJob"), "", "", std::nullopt, std::nullopt}, "AbortJob", false},
  };
  for (const Case& c : cases) {
    INFO(JobEventName(c.request.event) << " exit " << c.request.exit_code.value_or(-1));
    const PolicyChoice choice = ChooseAction(job, s, c.request);
    CHECK(JobActionName(choice.action) == c.action);
    CHECK(choice.timeout_seconds.has_value() == c.delayed);
  }
  // A PodPending policy without a timeout never applies; "*" matches any other event.
  const VolcanoJob star = JobFrom(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: s}
spec:
  policies: [{event: "*", action: AbortJob}]
  tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}]
)");
  CHECK(ChooseAction(star, {}, {E("PodPending"), std::nullopt, "t", "", std::nullopt, std::nullopt}).action == A("SyncJob"));
  CHECK(ChooseAction(star, {}, {E("Unknown"), std::nullopt, "", "", std::nullopt, std::nullopt}).action == A("AbortJob"));
}

TEST_CASE("Running completes, fails or falls back to Pending") {
  const VolcanoJob job = JobFrom(kThreePods);
  auto after = [&](std::vector<std::string> phases) {
    JobWorld w = RunningPods();
    for (size_t i = 0; i < phases.size(); ++i) w.pods[i].phase = phases[i];
    JobStatus s;
    s.phase = "Running";
    s.min_available = 3;
    return ExecuteAction(job, s, w, A("SyncJob"), {}, 9).status.phase;
  };
  CHECK(after({"Succeeded", "Succeeded", "Succeeded"}) == "Completed");
  CHECK(after({"Succeeded", "Failed", "Succeeded"}) == "Failed");
  CHECK(after({"Succeeded", "Running", "Running"}) == "Running");
  CHECK(after({"Pending", "Running", "Running"}) == "Pending");
  const VolcanoJob min_success = JobFrom(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: m}
spec:
  minAvailable: 1
  minSuccess: 2
  tasks: [{name: t, replicas: 3, minAvailable: 1, template: {spec: {containers: [{name: c, image: i}]}}}]
)");
  JobWorld w;
  w.pod_group_phase = "Running";
  for (int i = 0; i < 3; ++i) w.pods.push_back({"m-t-" + std::to_string(i), "t", i, i < 2 ? "Succeeded" : "Running"});
  JobStatus s;
  s.phase = "Running";
  CHECK(ExecuteAction(min_success, s, w, A("SyncJob"), {}, 1).status.phase == "Completed");
}

TEST_CASE("the simulator: create, run, evict and restart") {
  JobSimulator sim(JobFrom(kThreePods), 0);
  CHECK(sim.Sync().executed->status.phase == "Pending");
  CHECK(sim.world().pods.empty());  // the PodGroup is not enqueued yet
  (void)sim.SetPodGroupPhase("Inqueue");
  CHECK(sim.world().pods.size() == 3);
  (void)sim.SetAllPods("Running");
  CHECK(sim.status().phase == "Running");
  absl::StatusOr<SimulatorStep> evicted = sim.EvictPod("j-w-0");
  REQUIRE(evicted.ok());
  CHECK(evicted->choice.action == A("RestartJob"));
  CHECK(sim.status().phase == "Restarting");
  CHECK(sim.status().retry_count == 1);
  // The kill dropped the PodGroup; the follow-up sync re-created it, Pending again.
  CHECK(sim.world().pod_group_phase == "Pending");
  REQUIRE_FALSE(evicted->follow_ups.empty());
  CHECK(evicted->follow_ups[0].commands.at(0).kind == JobCommandKind::kCreatePodGroup);
  (void)sim.SetPodGroupPhase("Inqueue");
  CHECK(sim.status().phase == "Pending");
  CHECK(sim.world().pods.size() == 3);
  for (const JobPod& p : sim.world().pods) CHECK(p.version == 1);
  // A pod stuck Pending restarts after the policy's 5-minute timeout.
  absl::StatusOr<SimulatorStep> pending = sim.SetPodPhase("j-w-2", "Pending");
  REQUIRE(pending.ok());
  CHECK_FALSE(pending->executed.has_value());
  CHECK(sim.delayed().size() == 1);
  CHECK(sim.Advance(299)->empty());
  const std::vector<SimulatorStep> ran = *sim.Advance(1);
  REQUIRE(ran.size() == 1);
  CHECK(ran[0].executed->action == JobAction::kRestartPod);
  // Every pod succeeding completes the task: TaskCompleted -> CompleteJob.
  (void)sim.SetPodGroupPhase("Running");
  const std::vector<SimulatorStep> done = *sim.SetAllPods("Succeeded");
  CHECK(done.back().request.event == JobEvent::kTaskCompleted);
  CHECK(done.back().choice.action == A("CompleteJob"));
  CHECK(IsFinishedPhase(sim.status().phase));
}

TEST_CASE("regression (job_fuzz): a step may be given the name of the pod it removes") {
  JobSimulator sim(JobFrom(kThreePods), 0);
  sim.Sync();
  (void)sim.SetPodGroupPhase("Inqueue");
  REQUIRE(sim.world().pods.size() == 3);
  // The argument refers into the simulator's own pod list; the step erases that pod.
  CHECK(sim.EvictPod(sim.world().pods.back().name).ok());
  (void)sim.SetPodGroupPhase("Inqueue");  // the restart killed the rest; the controller recreates them
  REQUIRE_FALSE(sim.world().pods.empty());
  CHECK(sim.SetPodPhase(sim.world().pods.front().name, "Failed", 137).ok());
}

TEST_CASE("huge times and timeouts saturate instead of overflowing") {
  JobSimulator sim(JobFrom(kThreePods), INT64_MAX - 10);
  sim.Sync();
  (void)sim.SetPodGroupPhase("Inqueue");
  REQUIRE(sim.SetPodPhase("j-w-0", "Pending").ok());  // the 5-minute PodPending timeout
  REQUIRE(sim.delayed().size() == 1);
  CHECK(sim.delayed()[0].due == INT64_MAX);
  (void)sim.Advance(INT64_MAX);
  CHECK(sim.now() == INT64_MAX);
}

TEST_CASE("ttlSecondsAfterFinished") {
  VolcanoJob job = JobFrom(kThreePods);
  job.ttl_seconds_after_finished = 60;
  JobStatus s;
  s.phase = "Completed";
  s.last_transition_time = 1000;
  CHECK_FALSE(DueForTtlDeletion(job, s, 1059));
  CHECK(DueForTtlDeletion(job, s, 1060));
  s.phase = "Running";
  CHECK_FALSE(DueForTtlDeletion(job, s, 5000));
}

TEST_CASE("dependsOn: pods of a task wait for their dependencies") {
  const VolcanoJob job = JobFrom(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: d}
spec:
  tasks:
  - {name: a, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: b, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: c, replicas: 1, dependsOn: {name: [a, b], iteration: any}, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: e, replicas: 1, dependsOn: {name: [a, b]}, template: {spec: {containers: [{name: c, image: i}]}}}
)");
  CHECK(TasksReadyToCreate(job, {}) == std::vector<std::string>{"a", "b"});
  CHECK(TasksReadyToCreate(job, {{"a", 1}}) == std::vector<std::string>{"a", "b", "c"});
  CHECK(TasksReadyToCreate(job, {{"a", 1}, {"b", 1}}) == std::vector<std::string>{"a", "b", "c", "e"});
  JobSimulator sim(job, 0);
  sim.Sync();
  (void)sim.SetPodGroupPhase("Inqueue");
  CHECK(sim.world().pods.size() == 2);
  REQUIRE(sim.SetPodPhase("d-a-0", "Running").ok());
  CHECK(sim.world().pods.size() == 3);  // c starts once one of a, b is ready
}

}  // namespace
}  // namespace vcsched::lifecycle

namespace vcsched::lifecycle {
namespace {

TEST_CASE("the controller's vocabulary: names round-trip, unknown names are errors at the edge") {
  for (int i = 0; i <= static_cast<int>(JobEvent::kJobUnknown); ++i) {
    const JobEvent e = static_cast<JobEvent>(i);
    CHECK(ParseJobEvent(JobEventName(e)) == e);
  }
  for (int i = 0; i <= static_cast<int>(JobAction::kSyncJob); ++i) {
    const JobAction a = static_cast<JobAction>(i);
    CHECK(ParseJobAction(JobActionName(a)) == a);
  }
  CHECK_FALSE(ParseJobAction("RestrtJob").has_value());
  CHECK_FALSE(ParseJobEvent("podfailed").has_value());  // Volcano's spellings are case-sensitive
  CHECK(EventRequest("PodFailed", "w", "j-w-0")->event == JobEvent::kPodFailed);
  for (const char* bad : {"PodFail", "*", "CommandIssued", ""}) {
    INFO(bad);
    const absl::StatusOr<JobRequest> r = EventRequest(bad, "", "");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(std::string(r.status().message()), Catch::Contains("unknown event"));
  }
  JobSimulator sim(JobFrom(kThreePods), 0);
  const absl::StatusOr<SimulatorStep> typo = sim.Command("RestrtJob");
  REQUIRE_FALSE(typo.ok());
  CHECK_THAT(std::string(typo.status().message()), Catch::Contains("unknown command action \"RestrtJob\""));
}

}  // namespace
}  // namespace vcsched::lifecycle
