// The mutable state of a Session. Internal: built-in actions and plugins read it
// directly; host code goes through session.h.
#ifndef VCSCHED_SRC_FRAMEWORK_SESSION_STATE_H_
#define VCSCHED_SRC_FRAMEWORK_SESSION_STATE_H_

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "src/framework/explain_log.h"
#include "src/model/resource_matrix.h"
#include "src/snapshot/snapshot_impl.h"
#include "vcsched/session.h"

namespace vcsched {

template <typename F>
struct Registered {
  int tier;
  F fn;
  bool simulates_removal = true;  // simulate hooks: the plugin models removed victims
  std::string plugin;  // the plugin that registered it (explanations name it)
};

// Fit errors of one task: how many nodes reported each reason.
struct TaskFitErrors {
  // Few reasons per task, cleared on every try: a small vector, in first-seen order.
  absl::InlinedVector<std::pair<ReasonId, int32_t>, 4> reason_counts;
  int32_t nodes = 0;
  std::vector<std::string> messages;  // task-level reasons (pre-predicate, error cache)
  // The queue that refused the task before it was tried (quota), or kNone. Volcano
  // records nothing here; it is reported in the task's reason but kept out of the gang
  // condition message. An index, not text: over-subscribed sessions refuse most tasks.
  QueueIndex refused_by_queue = kNone;
  HyperNodeIndex hyper_node = kNone;  // where the nodes were tried, when not the cluster
  bool empty() const { return nodes == 0 && messages.empty(); }
};

struct Session::State {
  const Snapshot* snapshot = nullptr;
  const SchedulerConfig* config = nullptr;
  int64_t now = 0;
  std::string session_id;
  SchedulerMemory memory;  // a copy of RunOptions::memory, written back on success
  SharedText transition_id;  // session_id, for the conditions the session writes
  // The snapshot's storage, shared by every name the decisions hold (no copies).
  SharedText::Owner names;
  SharedText Name(absl::string_view in_snapshot) const { return SharedText(in_snapshot, names); }
  int dims = 0;
  Resource total;

  // Tasks.
  std::vector<TaskStatus> status;
  // The snapshot's dense facts: the hot paths read them instead of the large TaskInfo
  // and JobInfo records. The spans below are views of the ones read most.
  const DenseFacts* facts = nullptr;
  absl::Span<const uint8_t> task_flags;  // TaskFlag bits
  absl::Span<const JobIndex> task_job;
  std::vector<NodeIndex> node;
  std::vector<int32_t> node_slot;  // position in node_tasks[node] (once listed), else -1
  std::vector<NodeIndex> last_txn_node;  // placement undone by a Discard (gang message)
  std::vector<TaskStatus> last_txn_status;
  // Pipelined onto room evictions made (Volcano's EvictionOccurred): its node becomes the
  // pod's nominated node.
  std::vector<bool> eviction_occurred;
  // Fit errors by task, stored on first write: most tasks never get one.
  std::vector<int32_t> fit_slot;  // index into fit_store, or -1
  std::deque<TaskFitErrors> fit_store;
  const TaskFitErrors& Fit(TaskIndex t) const {
    static const TaskFitErrors kNoErrors;
    const int32_t i = fit_slot[static_cast<size_t>(t)];
    return i < 0 ? kNoErrors : fit_store[static_cast<size_t>(i)];
  }
  TaskFitErrors& MutableFit(TaskIndex t) {
    int32_t& i = fit_slot[static_cast<size_t>(t)];
    if (i < 0) {
      i = static_cast<int32_t>(fit_store.size());
      fit_store.emplace_back();
    }
    return fit_store[static_cast<size_t>(i)];
  }

  // Nodes.
  ResourceMatrix allocatable, idle, used, releasing, pipelined;
  // The tasks holding each node: listed on first use (ListNodeTasks; only eviction
  // actions ask), then kept by MoveTask.
  std::vector<std::vector<TaskIndex>> node_tasks;
  bool node_tasks_listed = false;
  void ListNodeTasks();

  // Jobs.
  std::vector<std::array<int32_t, kTaskStatusCount>> job_counts;
  int8_t request_sums_exact = -1;  // unknown until asked (Session::request_sums_exact)
  std::vector<int32_t> job_pending_best_effort;
  // Moves of the job's tasks so far (MoveTask): an answer that depends only on where its
  // tasks are holds while this is unchanged. role_checks[j] caches the three minTaskMember
  // checks (JobCheckTask*) as (moves at the time) * 8 + the answers' bits, bit k for
  // RoleCheck k; -1 when not asked yet.
  std::vector<int64_t> job_moves;
  std::vector<int64_t> role_checks;
  // Views of the snapshot's dense job facts (job-order comparisons, per-job passes).
  absl::Span<const QueueIndex> job_queue;
  absl::Span<const int32_t> job_min_member;
  absl::Span<const uint8_t> job_checks_roles;  // minTaskMember applies (JobCheckTask*)
  absl::Span<const int32_t> job_priority;
  absl::Span<const int64_t> job_creation_time;
  ResourceMatrix job_allocated;
  // Phases point at the snapshot's strings until set; a phase set in the session is
  // kept once in set_phases (a handful of values), so starting a session copies none.
  std::vector<const std::string*> job_phase;
  std::set<std::string, std::less<>> set_phases;
  // The PodGroupStatus each job in the session returns, made at the start in job order
  // (key and old phase) so that conditions are written where they are returned;
  // phases and counts are written at close. -1: the job is not in the session.
  std::vector<int32_t> job_status_slot;

  // Callbacks, with the tier they were registered in.
  std::vector<Registered<JobOrderFn>> job_order;
  // Parallel to job_order: the key of an entry added as a key, else empty.
  std::vector<JobOrderKeyFn> job_order_keys;
  std::vector<Registered<TaskOrderFn>> task_order;
  std::vector<Registered<QueueOrderFn>> queue_order;
  std::vector<Registered<VictimQueueOrderFn>> victim_queue_order;
  std::vector<Registered<JobValidFn>> job_valid;
  std::vector<Registered<JobBoolFn>> job_ready;
  std::vector<Registered<JobVoteFn>> job_pipelined;
  std::vector<Registered<JobBoolFn>> job_starving;
  std::vector<Registered<JobVoteFn>> job_enqueueable;
  std::vector<Registered<JobNotifyFn>> job_enqueued;
  std::vector<Registered<QueueTaskFn>> allocatable_fns;
  std::vector<Registered<QueueFn>> overused;
  std::vector<Registered<PreemptiveFn>> preemptive;
  std::vector<Registered<PrePredicateFn>> pre_predicate;
  std::vector<Registered<PredicateFn>> predicate;
  // Parallel to `predicate`: the parts of a split predicate (AddSplitPredicateFn), empty
  // functions for a whole one.
  struct PredicateParts {
    PredicateFn node_local;
    std::function<bool(TaskIndex)> applies;
    PlacementFilterFn placement;
    PlacementBoundFn bound;
  };
  std::vector<PredicateParts> predicate_parts;
  std::vector<Registered<NodeOrderFn>> node_order;
  std::vector<Registered<BatchNodeOrderFn>> batch_node_order;
  struct PlacementScorer {
    std::function<bool(TaskIndex)> applies;
    BatchNodeOrderFn fn;
    std::string plugin;
    PlacementBoundFn bound;
  };
  std::vector<PlacementScorer> placement_node_order;
  struct GroupScorer {
    std::vector<int32_t> group_of;  // per node
    int32_t num_groups = 0;
    GroupNodeOrderFn fn;
    std::vector<std::vector<NodeIndex>> nodes;  // per group
    std::string plugin;
  };
  std::vector<GroupScorer> group_node_order;
  std::vector<Registered<EvictableFn>> preemptable;
  std::vector<Registered<EvictableFn>> reclaimable;
  std::vector<Registered<VictimTasksFn>> victim_tasks;
  std::vector<Registered<UnifiedEvictableFn>> unified_evictable;
  std::vector<Registered<SimulateAllocatableFn>> simulate_allocatable;
  std::vector<Registered<SimulatePredicateFn>> simulate_predicate;
  std::vector<EventHandler> handlers;
  std::vector<Session::FitCauseFn> fit_causes;
  std::vector<Registered<HyperNodeGradientFn>> hyper_node_gradient;
  std::vector<Registered<HyperNodeOrderFn>> hyper_node_order;
  std::vector<Registered<SubJobBoolFn>> sub_job_ready;
  std::vector<Registered<SubJobVoteFn>> sub_job_pipelined;
  std::vector<Registered<SubJobOrderFn>> sub_job_order;
  // Allocated HyperNodes (session_topology.cc): per job, per job's sub-group, per task.
  // The sub-groups' are one array: job j's at [sub_job_begin[j], sub_job_begin[j + 1]).
  std::vector<HyperNodeIndex> job_allocated_hyper_node;
  std::vector<HyperNodeIndex> sub_job_allocated_hyper_node;
  std::vector<int32_t> sub_job_begin;
  std::vector<HyperNodeIndex> task_job_allocated_hyper_node;
  // Sub-groups' nominated HyperNodes (gangpreempt, gangreclaim): few, so a map.
  absl::flat_hash_map<std::pair<JobIndex, int32_t>, HyperNodeIndex> sub_job_nominated_hyper_node;
  const PluginOption* current_plugin = nullptr;
  int current_tier = 0;

  // Node-choice reuse (allocate): off when a plugin without PluginTraits::node_local_answers
  // registered predicates or scores, or by RunOptions::node_choice_cache; per task, off
  // when a veto says so.
  bool node_choice_cache = true;
  // Sharding (Session::sharding_mode); per node, 1 when in the scheduler's shard.
  ShardingMode sharding_mode = ShardingMode::kOff;
  std::vector<uint8_t> node_in_shard;
  std::string shard_name;      // --scheduler-sharding-name
  int64_t shard_nodes = 0;     // how many of the session's nodes are in the shard
  std::vector<std::function<bool(TaskIndex)>> node_choice_vetoes;
  // Every node whose accounting changed, in order (node-choice caches replay it).
  std::vector<NodeIndex> node_changes;
  // Session::Shared's objects, by type name.
  std::map<std::string, std::shared_ptr<void>, std::less<>> shared;

  // Explain's notes (explain_log.h); null when the session is not explaining.
  std::unique_ptr<ExplainLog> explain;

  // Reasons and results.
  std::vector<std::string> reasons;
  absl::flat_hash_map<std::string, ReasonId> reason_ids;
  Decisions decisions;

  // The snapshot's object tables, kept here so the hot paths index them inline.
  absl::Span<const TaskInfo> tasks;
  absl::Span<const JobInfo> jobs;
  absl::Span<const NodeInfo> nodes;
  absl::Span<const QueueInfo> queues;

  const TaskInfo& task(TaskIndex t) const { return tasks[static_cast<size_t>(t)]; }
  JobIndex job_of(TaskIndex t) const { return task_job[static_cast<size_t>(t)]; }  // TaskInfo::job, densely
  QueueIndex queue_of(JobIndex j) const { return job_queue[static_cast<size_t>(j)]; }  // JobInfo::queue, densely
  const JobInfo& job(JobIndex j) const { return jobs[static_cast<size_t>(j)]; }
  const NodeInfo& node_info(NodeIndex n) const { return nodes[static_cast<size_t>(n)]; }
  const QueueInfo& queue(QueueIndex q) const { return queues[static_cast<size_t>(q)]; }
  // JobInfo::tasks of job j, from the snapshot's one list of them.
  absl::Span<const TaskIndex> job_tasks(JobIndex j) const {
    const size_t b = static_cast<size_t>(facts->job_task_begin[static_cast<size_t>(j)]);
    const size_t e = static_cast<size_t>(facts->job_task_begin[static_cast<size_t>(j) + 1]);
    return absl::Span<const TaskIndex>(facts->job_task_list.data() + b, e - b);
  }
  absl::Span<const int64_t> req(TaskIndex t) const { return Row(facts->task_req, t); }

  // Annotations plugins set on placed tasks (Session::SetPodAnnotation): few, so a map.
  absl::flat_hash_map<TaskIndex, std::vector<PodAnnotation>> pod_annotations;
  // Records the bind of task t to its node.
  void AddBind(TaskIndex t);
  // Binds were added in task index order (see DenseFacts::task_keys_sorted).
  bool binds_in_index_order = true;
  TaskIndex last_bind = kNone;

  // Moves a task to a new status and node, keeping node, job and list accounting.
  void MoveTask(TaskIndex t, TaskStatus new_status, NodeIndex new_node);
  // MoveTask from Pending and off any node, as the session opens (not logged).
  void PlaceAtOpening(TaskIndex t);
  template <int kSign>
  void CountOnNode(NodeIndex n, TaskStatus st, absl::Span<const int64_t> r);
  void FireAllocate(TaskIndex t);
  void FireDeallocate(TaskIndex t);
};

namespace internal {
// Votes per tier: a reject ends it false, a tier with a permit ends it true, a tier of
// abstentions passes to the next; true when every tier abstained. `rejecter`, when
// given, receives the index of the registration that rejected.
bool TierVote(const std::vector<Registered<JobVoteFn>>& regs, JobIndex j, size_t* rejecter = nullptr);

// Whether Volcano's cache takes the bind of allocated task `t` (SchedulerCache.AddBindTask:
// the task must fit its node's idle resources as the cache counts them, which leaves out
// this session's allocations not yet bound). The session's own fit checks keep this true,
// except where backfill places a best-effort pod by the predicates' pod count alone and
// the Kubernetes node view undercounts the node's pods (docs/reference/scheduler.md §10.6):
// then the cache refuses the bind and the pod is not bound.
bool CacheTakesBind(Session::State& s, TaskIndex t);
}  // namespace internal

// The framework's way in (session.cc, the statement, the scheduler); built-in actions
// and plugins use the Session's public methods.
struct SessionInternals {
  static Session::State& Of(Session& ssn) { return *ssn.s_; }
  static void SetExplaining(Session& ssn) { ssn.v_.explaining = true; }
  static const Session::State& Of(const Session& ssn) { return *ssn.s_; }
};

namespace internal {
// Rule 9 of docs/FORMAT-hypernode.md: each job's and sub-group's allocated HyperNode from
// its placed tasks (session_topology.cc).
void RecoverAllocatedHyperNodes(Session::State& s);

// A PodGroup phase as a SharedText: the phases Volcano knows as literals (nothing to
// share), anything else through `other`.
template <typename Other>
SharedText PhaseText(absl::string_view phase, Other other) {
  if (phase == "Pending") return SharedText::Literal("Pending");
  if (phase == "Inqueue") return SharedText::Literal("Inqueue");
  if (phase == "Running") return SharedText::Literal("Running");
  if (phase == "Unknown") return SharedText::Literal("Unknown");
  if (phase == "Completed") return SharedText::Literal("Completed");
  return other(phase);
}
}  // namespace internal

}  // namespace vcsched

#endif  // VCSCHED_SRC_FRAMEWORK_SESSION_STATE_H_
