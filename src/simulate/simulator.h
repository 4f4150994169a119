// The discrete-event loop behind Simulate (docs/SIMULATE.md): the event queue, the
// cluster state, the Job controller of every job, and the accounting the output
// tables are made of. One Simulator runs one simulation.
#ifndef VCSCHED_SRC_SIMULATE_SIMULATOR_H_
#define VCSCHED_SRC_SIMULATE_SIMULATOR_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/model/revocable_window.h"
#include "src/simulate/random.h"
#include "vcsched/cluster.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/job_simulator.h"
#include "vcsched/lifecycle/jobflow.h"
#include "vcsched/scheduler_memory.h"
#include "vcsched/simulate.h"

namespace vcsched::simulate_internal {

enum class EventKind {
  kArrival,      // a: template, b: instance
  kCronTick,     // a: CronJob
  kNodeEvent,    // a: index into Workload::nodes
  kCreatePod,    // a: job, b: pod slot, c: the slot's incarnation
  kPodStart,     // a: job, b: pod slot, c: incarnation
  kPodFail,      // a: job, b: pod slot, c: incarnation
  kRelease,      // a: job, b: pod slot, c: incarnation (an evicted or deleted pod goes)
  kWorkDone,     // a: job, c: the job's progress epoch
  kControllerTimer,  // a: job (delayed policy actions, ttlSecondsAfterFinished)
  kWake,             // a: job: its sla waiting time is over, which a session must see (negative: Simulator::kTdmWake, kMemoryWake)
  kClusterPodStart,    // a: cluster pod (cluster_pods_), c: its incarnation
  kClusterPodEnd,      // a: cluster pod, c: incarnation (its runtime is over)
  kClusterPodRelease,  // a: cluster pod, c: incarnation (evicted or deleting: it goes)
};

struct Event {
  int64_t time_ms = 0;
  uint64_t seq = 0;  // insertion order breaks ties: the loop is deterministic
  EventKind kind = EventKind::kArrival;
  int64_t a = 0, b = 0, c = 0;
  bool operator>(const Event& o) const { return time_ms != o.time_ms ? time_ms > o.time_ms : seq > o.seq; }
};

// A pod of a job, as the simulator tracks it in the cluster.
struct PodSlot {
  std::string name;
  std::string key;             // namespace/name

  PodSpec spec;                // as the controller creates it (no node, Pending)
  std::vector<double> request;  // per result resource, as the session that bound it counted it
  int64_t incarnation = 0;     // bumped on every create and delete: stale events are dropped
  // kDone: Succeeded or Failed, kept as an object until the job finishes.
  enum class State { kAbsent, kScheduledCreate, kPending, kBound, kRunning, kReleasing, kDone } state = State::kAbsent;
  bool evicted = false;        // kReleasing by the scheduler or a node's removal: the job hears PodEvicted
  bool holds = false;          // counted in the allocated totals
};

struct SimJob {
  std::string key, name, namespace_, queue, pod_group_key;
  // On the heap: a retired job frees it, and its record (kept for the tables) stays small.
  std::unique_ptr<lifecycle::JobSimulator> controller;
  Value pod_group_manifest;
  std::vector<PodSlot> pods;
  absl::flat_hash_map<std::string, int> slot_of;  // pod name -> index into pods
  int64_t duration_ms = 0;
  int32_t barrier = 1;
  int32_t pod_count = 0;
  int queue_index = 0;        // into Simulator::queue_names_
  std::vector<double> held;   // what its pods hold, per result resource
  bool productive = false;    // counted in the goodput totals (at its barrier)
  int64_t pod_interval_ms = 0;
  std::optional<PodFailures> failures;
  int64_t next_create_ms = 0;
  int32_t running = 0;
  int64_t progress_ms = 0;
  int64_t at_barrier_since = -1;
  int64_t progress_epoch = 0;
  int32_t run_version = 0;
  bool work_done = false;
  bool finished = false;
  int64_t pod_runs = 0;  // failure draws are keyed by it
  int32_t retries_seen = 0;
  int64_t created_ms = 0, inqueue_ms = -1, running_ms = -1, finished_ms = -1;
  int cron = -1;  // the CronJob that made it
  int flow = -1;  // the JobFlow that made it
  std::string phase_seen;
  std::string phase_override;  // a job its CronJob deleted while it ran: Terminated
  bool deleted = false;        // by its CronJob (history or Replace)
  // A finished job whose pods are all released is retired: its controller and pods are
  // freed (a long run keeps only what the tables need), these are kept.
  bool retired = false;
  std::string final_phase;
  int32_t final_retries = 0;
  int64_t final_transition = 0;
};

// A pod of the cluster file when its runtime is followed (SimulationOptions::cluster_runtimes).
struct ClusterPod {
  std::string key, namespace_, name;
  int group = -1;             // into Simulator::cluster_groups(); -1: no job of this scheduler
  std::string node;
  int64_t runtime_ms = -1;    // -1: never ends
  int64_t incarnation = 0;    // bumped on each change of state: stale events are dropped
  enum class State { kPending, kStarting, kRunning, kReleasing, kDone } state = State::kPending;
};

// A job (PodGroup) of the cluster file.
struct ClusterGroup {
  std::string key, queue;
  int32_t min_member = 1;
  int32_t running = 0;
  bool tracked = false;      // it had not started at time 0: its start is recorded
  int64_t started_ms = -1;   // when its running pods first reached min_member
  std::vector<int> pods;     // into cluster_pods_
};

// What a cluster pod freed when it went (its runtime ended, or it was evicted).
struct ClusterRelease {
  int group = -1;
  int64_t at_ms = 0;
  std::string node;
  std::vector<double> freed;  // per result resource (cores, GiB, scalars)
  bool evicted = false;
};

// The quota controller (sim_quotas.cc): each ResourceQuota's status.used recounted from
// the snapshot's pods that have not ended; true when one changed (the snapshot is stale).
bool SyncQuotaUsage(const Snapshot& snapshot, Cluster& cluster);

class Simulator {
 public:
  Simulator(const Workload& workload, const SchedulerConfig& config, const SimulationOptions& options);
  absl::Status Init(const ScenarioObjects& cluster);
  absl::Status Run();
  SimulationResult TakeResult();

  // The cluster file's pods and jobs and what they freed (with cluster_runtimes), for
  // start-time estimates (eta.cc). Read them before TakeResult.
  const std::vector<ClusterPod>& cluster_pods() const { return cluster_pods_; }
  const std::vector<ClusterGroup>& cluster_groups() const { return cluster_groups_; }
  const std::vector<ClusterRelease>& cluster_releases() const { return cluster_releases_; }
  // The last verdict on a cluster job that has not started; nullptr when none saw it.
  const NeverStarted* ClusterGroupVerdict(const std::string& key) const;
  const std::vector<std::string>& resource_names() const { return resources_; }
  int64_t now_ms() const { return now_ms_; }
  // Stop as soon as every tracked cluster job has started (an estimate needs no more).
  void StopWhenClusterJobsStart() { stop_when_cluster_started_ = true; }
  // Sessions decide without records (no queue rows, no verdicts; the same decisions): an
  // estimate needs only the starts. ExplainUnstartedClusterJobs gives the verdicts after.
  void LeanSessions() { lean_sessions_ = true; }
  // One explaining session on the state at the end, for the cluster jobs not started.
  absl::Status ExplainUnstartedClusterJobs();

 private:
  // Events.
  void Push(int64_t time_ms, EventKind kind, int64_t a, int64_t b = 0, int64_t c = 0);
  absl::Status Handle(const Event& e);
  absl::Status RunSession();

  // Jobs (sim_jobs.cc).
  absl::Status CheckTemplates();
  int64_t ArrivalTime(int t, int64_t instance);
  absl::Status Arrive(int t, int64_t instance);
  absl::StatusOr<int> CreateJob(const Value& manifest, const std::string& name, int64_t duration_ms, std::optional<int32_t> barrier,
                                int64_t pod_interval_ms, std::optional<PodFailures> failures, const std::string& where);
  absl::Status Deliver(int j, absl::StatusOr<lifecycle::SimulatorStep> step);
  absl::Status ApplyCommands(int j, const lifecycle::JobStep& step);
  void CatchUpClock(int j);
  void ScheduleTimer(int j);
  void ScheduleSlaWake(int j, const PodGroupSpec& pod_group);
  // tdm's revocable zones open and close on the clock: a session must see each change.
  // The next one after now, while work remains (a wake whose `a` is -1).
  void ScheduleTdmWake();
  // Periodic plugin work (rescheduling's interval, tdm's evict period) that the scheduler's
  // memory says is due later: a session must run then, while pods run.
  void ScheduleMemoryWake();
  static constexpr int64_t kTdmWake = -1;     // a wake's `a` for tdm's window changes
  static constexpr int64_t kMemoryWake = -2;  // and for the memory's due work
  void CreatePod(int j, int slot);
  void DeletePod(int j, int slot, bool by_controller);
  void PodStarted(int j, int slot);
  void PodStopped(int j, int slot, bool was_running);
  void UpdateProgress(int j);
  absl::Status WorkDone(int j);
  absl::Status PodFailed(int j, int slot);
  absl::Status Released(int j, int slot);
  absl::Status AfterStep(int j);
  void FinishJob(int j);
  void Retire(int j);
  // The controller's status, or what was kept of it when the job retired.
  std::string PhaseOf(const SimJob& job) const;
  int32_t RetriesOf(const SimJob& job) const;
  int64_t TransitionOf(const SimJob& job) const;

  // Pods of the cluster file that end (sim_cluster_pods.cc).
  absl::Status InitClusterPods();
  void ClusterPodBound(int i, const std::string& node);
  void ClusterPodStarted(int i);
  void ClusterPodEnded(int i);
  void ClusterPodEvicted(int i);
  void ClusterPodReleased(int i);
  void RecordClusterRelease(const ClusterPod& pod, bool evicted);
  void AddClusterJobRecords();

  // CronJobs and JobFlows (sim_controllers.cc).
  absl::Status InitCronJobs();
  absl::Status CronTick(int c);
  absl::Status InitJobFlows();
  absl::Status SyncFlow(int f);

  // Nodes and accounting (sim_accounting.cc).
  absl::Status NodeEventAt(int i);
  absl::Status RemoveNode(const std::string& name);
  // What the node's pods hold now, per result resource.
  std::vector<double> HeldOn(const std::string& node) const;
  absl::Status SetupResources(const ScenarioObjects& cluster);
  // A pod's request as `snapshot` counts it (TaskInfo::resreq), per result resource.
  std::vector<double> RequestOf(const Snapshot& snapshot, absl::string_view pod_key) const;
  std::vector<double> CapacityOf(const NodeSpec& node) const;
  void Hold(int j, PodSlot& slot, bool hold);
  // Counts the job's holdings as goodput while it is at its barrier, and not otherwise.
  void SyncGoodput(int j);
  // The queue's index into queue_names_ and the per-queue totals, made on first use.
  int QueueIndex(const std::string& queue);
  // Pods of the cluster file on a node hold their request until they go.
  void HoldForeign(const Snapshot& snapshot, absl::string_view pod_key);
  void ReleaseForeign(absl::string_view pod_key);
  // Changes the cluster's copy of a slot's pod; false when it is gone or refused.
  bool UpdateClusterPod(const PodSlot& slot, const std::function<void(PodSpec&)>& change);
  void DeletePodGroupOf(const SimJob& job);
  void AddTimelineRow();
  void SampleCards();  // sim_cards.cc
  void Account(int64_t until_ms);

  int64_t NowSeconds() const { return SaturatingAdd(workload_.start_seconds, now_ms_ / 1000); }
  std::string Where() const;

  const Workload& workload_;
  const SchedulerConfig& config_;
  SimulationOptions options_;
  uint64_t seed_ = 0;
  Cluster cluster_;
  SchedulerMemory memory_;  // what the simulated scheduler carries between sessions
  int64_t memory_wake_ms_ = -1;  // the last wake pushed for it
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t seq_ = 0;
  int64_t now_ms_ = 0;
  bool dirty_ = false;            // a change since the last session
  // Shared GPU cards (sim_cards.cc): each card's last sampled (used memory, pods), by
  // node and card.
  std::map<std::pair<std::string, int64_t>, std::pair<int64_t, int32_t>> card_last_;
  int64_t dirty_since_ms_ = 0;
  int64_t last_session_ms_ = -1;
  std::vector<RandomStream> arrival_rng_, duration_rng_;
  std::deque<SimJob> jobs_;  // a deque: a job made while another is being handled moves none
  absl::flat_hash_map<std::string, int> job_of_;        // job key -> index
  absl::flat_hash_map<std::string, int> job_of_group_;  // PodGroup key -> index
  std::set<std::string> unstarted_groups_;  // PodGroup keys of the jobs not started yet
  absl::flat_hash_map<std::string, std::pair<int, int>> slot_of_pod_;  // pod key -> (job, slot)

  // CronJobs.
  struct CronState {
    lifecycle::VolcanoCronJob cron;
    lifecycle::CronJobStatus status;
    std::vector<int> children;
    RandomStream rng{0};
    int64_t created = 0;
  };
  std::vector<CronState> crons_;
  // JobFlows.
  struct FlowState {
    lifecycle::VolcanoJobFlow flow;
    std::map<std::string, Value> templates;
    std::string phase = "Pending";
    std::map<std::string, int> jobs;  // job name -> index
    RandomStream rng{0};
  };
  std::vector<FlowState> flows_;

  // Accounting.
  std::vector<std::string> resources_;  // result resource names (Kubernetes names)
  std::vector<double> scale_;           // stored unit -> output unit
  std::vector<double> allocated_, capacity_;
  std::vector<double> allocated_area_, capacity_area_;  // ∫ over time, for utilisation
  std::vector<double> goodput_, goodput_area_;
  // Per queue (queue_names_), per resource: held by its jobs' pods, and their goodput.
  std::vector<std::vector<double>> queue_held_, queue_goodput_, queue_held_area_, queue_goodput_area_;
  int64_t stalled_ms_ = -1;  // set when the loop ran out of events and sessions
  std::vector<internal::RevocableWindow> tdm_windows_;  // the configured tdm zones' windows
  size_t tdm_idle_wakes_ = 0;  // tdm wakes in a row with only pending pods left
  absl::flat_hash_map<std::string, std::vector<double>> foreign_held_;  // pod key -> its request
  int64_t accounted_ms_ = 0;
  int64_t pending_pods_ = 0, running_pods_ = 0;
  int64_t last_row_ms_ = -1;
  SimulationResult result_;
  // The time series as they grow, in flat columns: rows that each hold two vectors,
  // made by the million over a simulated week between the sessions' own allocations,
  // fragmented the heap and slowed every later session. Made into result_'s rows once,
  // at the end (MakeSeriesRows).
  struct SeriesColumns {
    std::vector<double> time_s;
    std::vector<int64_t> counts;  // timeline: pending, running; queues: the queue (queue_names_)
    // Per row, per resource: allocated, then capacity or deserved, then goodput.
    std::vector<double> amounts;
    std::vector<double> share;    // queues only
  };
  SeriesColumns timeline_, queue_series_;
  std::vector<std::string> queue_names_;
  absl::flat_hash_map<std::string, int64_t> queue_index_;
  absl::flat_hash_map<std::string, int32_t> queue_weights_;
  void MakeSeriesRows();
  // When the loop stopped with jobs unfinished: which of them hold resources idle.
  void RecordStall();
  std::vector<int> to_retire_;  // finished jobs to retire once the event at hand is done
  absl::flat_hash_map<std::string, NeverStarted> last_explanation_;  // job key -> its last verdict
  // The cluster file's pods when their runtimes are followed.
  std::vector<ClusterPod> cluster_pods_;
  absl::flat_hash_map<std::string, int> cluster_pod_of_;    // pod key -> index
  std::vector<ClusterGroup> cluster_groups_;
  absl::flat_hash_map<std::string, int> cluster_group_of_;  // job key -> index
  std::vector<ClusterRelease> cluster_releases_;
  absl::flat_hash_map<std::string, NeverStarted> cluster_verdicts_;  // cluster job key -> last verdict
  int64_t cluster_unstarted_ = 0;  // tracked cluster jobs not started yet
  bool stop_when_cluster_started_ = false;
  bool lean_sessions_ = false;
};

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_SIMULATOR_H_
