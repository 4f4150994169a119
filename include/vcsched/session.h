// The scheduling session: the mutable view of one snapshot that actions change and
// plugins observe, plus the extension points and their tier-combining rules.
//
// A plugin registers callbacks from Plugin::OnSessionOpen through the Add* methods; a
// callback is kept only when the plugin's switch for that kind is on (config.h), so
// plugins never test switches themselves. Actions ask the combined question through
// the methods below; each states how tiers combine, as Volcano's session does.
//
// Thread safety: a Session is used by one thread.
#ifndef VCSCHED_SESSION_H_
#define VCSCHED_SESSION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/explain_records.h"
#include "vcsched/fit.h"
#include "vcsched/scheduler_memory.h"
#include "vcsched/snapshot.h"

namespace vcsched {

// Callback signatures. Order functions return <0 when l goes first, >0 when r does,
// 0 when the plugin has no opinion.
using JobOrderFn = std::function<int(JobIndex l, JobIndex r)>;
// A job-order opinion given as a per-job key: the job with the lower key goes first;
// equal keys give no opinion. The key may depend only on that job's own state, so a
// container of waiting jobs may read it once per stay (allocate's job heaps do).
using JobOrderKeyFn = std::function<double(JobIndex j)>;
using TaskOrderFn = std::function<int(TaskIndex l, TaskIndex r)>;
using QueueOrderFn = std::function<int(QueueIndex l, QueueIndex r)>;
using VictimQueueOrderFn =
    std::function<int(QueueIndex l, QueueIndex r, QueueIndex preemptor_queue)>;
using JobBoolFn = std::function<bool(JobIndex)>;
using JobVoteFn = std::function<Vote(JobIndex)>;
using JobNotifyFn = std::function<void(JobIndex)>;
// Returns nullopt when the job is valid, else {reason, message}.
using JobValidFn =
    std::function<std::optional<std::pair<std::string, std::string>>(JobIndex)>;
using QueueTaskFn = std::function<bool(QueueIndex, TaskIndex)>;
using QueueFn = std::function<bool(QueueIndex)>;
using PreemptiveFn = std::function<bool(QueueIndex, absl::Span<const TaskIndex>)>;
using PrePredicateFn = std::function<FitResult(TaskIndex)>;
using PredicateFn = std::function<FitResult(TaskIndex, NodeIndex)>;
// Keeps, in order, the nodes of `nodes` where a predicate's placement part is ok.
using PlacementFilterFn = std::function<void(TaskIndex, std::vector<NodeIndex>& nodes)>;
// Where a placement part's answers for a task can differ (PlacementBoundFn): on the
// nodes listed, and else only between the domains of `domain_key` (a node label; the
// nodes without it are one more domain), the nodes of a domain being answered alike.
// Without a key every other node is answered alike. For a scorer, the scores of a node
// set depend only on its listed members and on whether it holds another node.
struct PlacementBound {
  std::vector<NodeIndex> nodes;
  std::string domain_key;  // empty: none
};
// Adds to `bound` where a placement part may answer differently for a task; false when
// it cannot bound that so (a bound may name one domain key).
using PlacementBoundFn = std::function<bool(TaskIndex, PlacementBound& bound)>;
using NodeOrderFn = std::function<double(TaskIndex, NodeIndex)>;
// Adds a score for each of `nodes` into `scores` (same length).
using BatchNodeOrderFn = std::function<void(TaskIndex, absl::Span<const NodeIndex> nodes,
                                            absl::Span<double> scores)>;
// Scores shared by every node of a group (a HyperNode's fill, say): adds the score of
// each of `groups` to `scores` (same length, zero on entry). The session asks for every
// group at once, in order: `groups` is 0, 1, ..., num_groups - 1.
using GroupNodeOrderFn = std::function<void(TaskIndex, absl::Span<const int32_t> groups, absl::Span<double> scores)>;
// Victim filter: the subset of `candidates` (in their order) that may be evicted for
// `preemptor`, and the plugin's vote (abstain: no opinion).
using EvictableFn = std::function<std::pair<std::vector<TaskIndex>, Vote>(
    TaskIndex preemptor, absl::Span<const TaskIndex> candidates)>;
// What a gang-aware eviction (gangpreempt, gangreclaim) is for.
enum class EvictionKind { kGangPreempt, kGangReclaim };
// UnifiedEvictable: the subset of `candidates` that may be evicted for job `preemptor`.
using UnifiedEvictableFn = std::function<std::pair<std::vector<TaskIndex>, Vote>(
    EvictionKind kind, JobIndex preemptor, absl::Span<const TaskIndex> candidates)>;
using VictimTasksFn = std::function<std::vector<TaskIndex>(absl::Span<const TaskIndex>)>;

// Dry-run hooks for topology-aware preemption: the same question as Allocatable /
// Predicate, asked as if `removed` (victims on the node) were gone. A plugin whose
// enablePreemptable and enabledAllocatable are both off does not simulate removals
// and is handed an empty list (Volcano gates SimulateRemoveTask so).
using SimulateAllocatableFn =
    std::function<bool(QueueIndex, TaskIndex, absl::Span<const TaskIndex> removed)>;
using SimulatePredicateFn =
    std::function<FitResult(TaskIndex, NodeIndex, absl::Span<const TaskIndex> removed)>;

// Network topology (docs/FORMAT-hypernode.md). A sub-group is named by its job and its
// index in JobInfo::sub_jobs; kNone as that index means the job as a whole.
// The candidate HyperNodes under `within` for the job or sub-group, grouped into
// gradients tried in order (Volcano's HyperNodeGradientForJobFn / ForSubJobFn). For
// eviction (gangpreempt, gangreclaim) the candidates are the domains victims may be
// taken from: the network-topology-aware plugin gives the widest first and caps them.
enum class SearchPurpose { kAllocate, kEvict };
using HyperNodeGradientFn = std::function<std::vector<std::vector<HyperNodeIndex>>(
    JobIndex j, int32_t sub_job, HyperNodeIndex within, SearchPurpose purpose)>;
// Adds a score for each of `candidates` into `scores` (same length).
using HyperNodeOrderFn = std::function<void(JobIndex j, int32_t sub_job, absl::Span<const HyperNodeIndex> candidates,
                                            absl::Span<double> scores)>;
using SubJobBoolFn = std::function<bool(JobIndex j, int32_t sub_job)>;
using SubJobVoteFn = std::function<Vote(JobIndex j, int32_t sub_job)>;
// <0 when sub-group l goes first, >0 when r does, 0: no opinion.
using SubJobOrderFn = std::function<int(JobIndex j, int32_t l, int32_t r)>;

struct EventHandler {
  std::function<void(TaskIndex)> on_allocate;    // allocated, pipelined, eviction undone
  std::function<void(TaskIndex)> on_deallocate;  // evicted, allocation undone
};

class Statement;

class Session {
 public:
  Session(const Snapshot& snapshot, const SchedulerConfig& config, int64_t now_seconds,
          std::string session_id);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // ---- the snapshot and the current state ----
  const Snapshot& snapshot() const { return *v_.snapshot; }
  const SchedulerConfig& config() const { return *v_.config; }
  int dims() const { return v_.dims; }
  int64_t now_seconds() const { return v_.now; }  // the clock, from RunOptions
  int64_t now_ms() const {  // the same in milliseconds (saturating)
    constexpr int64_t kLimit = INT64_MAX / 1000;
    return v_.now > kLimit ? INT64_MAX : v_.now < -kLimit ? -INT64_MAX : v_.now * 1000;
  }
  const std::string& session_id() const;
  // What the scheduler remembers across sessions (RunOptions::memory), with started_ms
  // set; plugins that run periodic work read and update it.
  SchedulerMemory& memory();
  const Resource& total_resource() const { return *v_.total; }  // sum of node allocatable

  // The snapshot's records and its dense per-task and per-job facts. Inline: built-in
  // actions and plugins read them in their innermost loops.
  int32_t num_tasks() const { return v_.num_tasks; }
  int32_t num_jobs() const { return v_.num_jobs; }
  int32_t num_nodes() const { return v_.num_nodes; }
  int32_t num_queues() const { return v_.num_queues; }
  const TaskInfo& task(TaskIndex t) const { return v_.tasks[t]; }
  const JobInfo& job(JobIndex j) const { return v_.jobs[j]; }
  const NodeInfo& node_info(NodeIndex n) const { return v_.nodes[n]; }
  const QueueInfo& queue(QueueIndex q) const { return v_.queues[q]; }
  JobIndex job_of(TaskIndex t) const { return v_.task_job[t]; }  // TaskInfo::job
  QueueIndex queue_of(JobIndex j) const { return v_.job_queue[j]; }  // JobInfo::queue
  int32_t job_min_member(JobIndex j) const { return v_.job_min_member[j]; }
  int32_t job_priority(JobIndex j) const { return v_.job_priority[j]; }
  int64_t job_creation_time(JobIndex j) const { return v_.job_creation_time[j]; }
  bool job_checks_roles(JobIndex j) const { return v_.job_checks_roles[j] != 0; }  // minTaskMember applies
  // The PodGroup's minResources, when it sets them (JobInfo::min_resources).
  bool job_has_min_resources(JobIndex j) const { return v_.job_has_min_resources[j] != 0; }
  absl::Span<const int64_t> job_min_resources(JobIndex j) const {
    return absl::Span<const int64_t>(v_.job_min_resources + static_cast<ptrdiff_t>(j) * v_.dims,
                                     static_cast<size_t>(v_.dims));
  }
  absl::Span<const TaskIndex> job_tasks(JobIndex j) const {  // JobInfo::tasks
    return absl::Span<const TaskIndex>(v_.job_task_list + v_.job_task_begin[j],
                                       static_cast<size_t>(v_.job_task_begin[j + 1] - v_.job_task_begin[j]));
  }
  uint8_t task_flags(TaskIndex t) const { return v_.task_flags[t]; }  // TaskFlag bits
  int32_t task_shape(TaskIndex t) const { return v_.task_shape[t]; }  // TaskInfo::shape
  // Kubernetes' non-zero requests (a default for a container that requests nothing).
  int64_t task_nonzero_cpu(TaskIndex t) const { return v_.task_nonzero_cpu[t]; }
  int64_t task_nonzero_memory(TaskIndex t) const { return v_.task_nonzero_memory[t]; }
  absl::Span<const int64_t> task_resreq(TaskIndex t) const {
    return absl::Span<const int64_t>(v_.task_req + static_cast<ptrdiff_t>(t) * v_.dims, static_cast<size_t>(v_.dims));
  }
  // The task's status and node in this session.
  TaskStatus task_status(TaskIndex t) const { return v_.status[t]; }
  NodeIndex task_node(TaskIndex t) const { return v_.node[t]; }
  absl::Span<const int64_t> node_allocatable(NodeIndex n) const { return NodeRow(v_.allocatable, n); }
  absl::Span<const int64_t> node_idle(NodeIndex n) const { return NodeRow(v_.idle, n); }
  absl::Span<const int64_t> node_used(NodeIndex n) const { return NodeRow(v_.used, n); }
  absl::Span<const int64_t> node_releasing(NodeIndex n) const { return NodeRow(v_.releasing, n); }
  absl::Span<const int64_t> node_pipelined(NodeIndex n) const { return NodeRow(v_.pipelined, n); }
  // Idle + Releasing - Pipelined.
  Resource node_future_idle(NodeIndex n) const;
  // Tasks occupying the node (every status that holds a node), in task index order.
  std::vector<TaskIndex> node_tasks(NodeIndex n) const;
  // The scheduler's sharding (vc-scheduler's --scheduler-sharding-mode, from the
  // configuration's scheduler_args) and whether node n is in its shard (vcsched/policy.h
  // NodesInShard); every node is without sharding.
  ShardingMode sharding_mode() const;
  bool NodeInShard(NodeIndex n) const;
  // Soft sharding: whether n is a node of another shard, which every ranking of nodes
  // takes only after the scheduler's own.
  bool NodeInOtherShard(NodeIndex n) const { return sharding_mode() == ShardingMode::kSoft && !NodeInShard(n); }
  // Whether `req` fits the node's idle resources (every dimension), or its future idle
  // ones (idle + releasing - pipelined; a dimension past cpu and memory that `req` does
  // not request is not checked, as Volcano's LessEqual with zero defaults).
  bool NodeFitsIdle(absl::Span<const int64_t> req, NodeIndex n) const {
    const int64_t* idle = v_.idle + static_cast<ptrdiff_t>(n) * v_.dims;
    for (int d = 0; d < v_.dims; ++d) {
      const int64_t r = req[static_cast<size_t>(d)];
      if (d >= kFixedDims && r <= 0) continue;  // not requested (LessEqual)
      if (r > idle[d]) return false;
    }
    return true;
  }
  bool NodeFitsFutureIdle(absl::Span<const int64_t> req, NodeIndex n) const {
    const ptrdiff_t row = static_cast<ptrdiff_t>(n) * v_.dims;
    for (int d = 0; d < v_.dims; ++d) {
      const int64_t r = req[static_cast<size_t>(d)];
      if (d >= kFixedDims && r <= 0) continue;
      if (r > v_.idle[row + d] + v_.releasing[row + d] - v_.pipelined[row + d]) return false;
    }
    return true;
  }
  // Every node whose accounting changed since the session opened, in order (a node
  // may appear many times): a cache of per-node answers replays it from where it last
  // read.
  absl::Span<const NodeIndex> node_change_log() const;
  // Number of the job's tasks in `status`.
  int32_t job_count(JobIndex j, TaskStatus status) const;
  // Sum of the Resreq of the job's allocated-class tasks.
  absl::Span<const int64_t> job_allocated(JobIndex j) const;
  // Whether every request of every task, times the number of tasks, stays below 2^53 in
  // magnitude: then any sum of task requests, taken in any order and as doubles, is the
  // same exact integer (per-job totals may stand for their tasks' requests).
  bool request_sums_exact() const;
  // Volcano's job counters (docs/reference/scheduler.md §2.3).
  int32_t JobReadyTaskNum(JobIndex j) const;   // allocated class + Succeeded
  int32_t JobWaitingTaskNum(JobIndex j) const; // Pipelined
  int32_t JobPendingBestEffortNum(JobIndex j) const;
  int32_t JobValidTaskNum(JobIndex j) const;
  int32_t JobReleasingOnNodeNum(JobIndex j) const;  // Releasing tasks still on a node
  bool JobIsReady(JobIndex j) const;      // Ready + PendingBE >= MinAvailable
  bool JobIsPipelined(JobIndex j) const;  // + Waiting
  bool JobIsStarving(JobIndex j) const;   // Waiting + Ready < MinAvailable
  // Per-role checks; pass when MinAvailable < sum(minTaskMember).
  bool JobCheckTaskValid(JobIndex j) const;
  bool JobCheckTaskReady(JobIndex j) const;
  bool JobCheckTaskPipelined(JobIndex j) const;
  // The job's PodGroup phase in this session.
  const std::string& job_phase(JobIndex j) const;
  void SetJobPhase(JobIndex j, std::string phase);
  bool JobIsPending(JobIndex j) const;  // phase Pending or empty

  // ---- sub-groups and network topology ----
  // Volcano's sub-group counters (as the job's, over the sub-group's tasks).
  int32_t SubJobReadyTaskNum(JobIndex j, int32_t k) const;
  int32_t SubJobWaitingTaskNum(JobIndex j, int32_t k) const;
  int32_t SubJobPendingBestEffortNum(JobIndex j, int32_t k) const;
  int32_t SubJobAllocatedTaskNum(JobIndex j, int32_t k) const;
  bool SubJobIsReady(JobIndex j, int32_t k) const;      // Ready + PendingBE >= its min
  bool SubJobIsPipelined(JobIndex j, int32_t k) const;  // + Waiting
  // Whether the PodGroup has subGroupPolicy entries.
  bool JobHasSubGroupPolicy(JobIndex j) const { return !job(j).pod_group.sub_group_policy.empty(); }
  // The HyperNode the job (or sub-group) already occupies: recovered at session open
  // from its placed pods (rule 9), then widened as allocate places more; kNone: none.
  HyperNodeIndex job_allocated_hyper_node(JobIndex j) const;
  HyperNodeIndex sub_job_allocated_hyper_node(JobIndex j, int32_t k) const;
  void SetJobAllocatedHyperNode(JobIndex j, HyperNodeIndex h);
  void SetSubJobAllocatedHyperNode(JobIndex j, int32_t k, HyperNodeIndex h);
  // The sub-group's allocated HyperNode as allocate saw it when it chose a node for t
  // (Volcano's TaskInfo.JobAllocatedHyperNode, which node scoring reads).
  HyperNodeIndex task_job_allocated_hyper_node(TaskIndex t) const;
  void SetTaskJobAllocatedHyperNode(TaskIndex t, HyperNodeIndex h);
  // The HyperNode gangpreempt or gangreclaim made room in for a sub-group, set when its
  // statement commits; a later allocate of this session places the sub-group's pending
  // tasks on their nominated nodes there first, and clears it (kNone: none).
  HyperNodeIndex sub_job_nominated_hyper_node(JobIndex j, int32_t k) const;
  void SetSubJobNominatedHyperNode(JobIndex j, int32_t k, HyperNodeIndex h);

  // ---- registration (from Plugin::OnSessionOpen) ----
  // Each keeps the callback only when the current plugin's switch for it is on.
  void AddJobOrderFn(JobOrderFn fn);
  void AddJobOrderKeyFn(JobOrderKeyFn key);  // a JobOrderFn comparing keys (see above)
  void AddTaskOrderFn(TaskOrderFn fn);
  void AddQueueOrderFn(QueueOrderFn fn);
  void AddVictimQueueOrderFn(VictimQueueOrderFn fn);  // not gated
  void AddJobValidFn(JobValidFn fn);                  // not gated
  void AddJobReadyFn(JobBoolFn fn);
  void AddJobPipelinedFn(JobVoteFn fn);
  void AddJobStarvingFn(JobBoolFn fn);
  void AddJobEnqueueableFn(JobVoteFn fn);
  void AddJobEnqueuedFn(JobNotifyFn fn);
  void AddAllocatableFn(QueueTaskFn fn);
  void AddOverusedFn(QueueFn fn);
  void AddPreemptiveFn(PreemptiveFn fn);
  void AddPrePredicateFn(PrePredicateFn fn);
  void AddPredicateFn(PredicateFn fn);
  // A predicate whose answer may depend on where other pods are (pod affinity, spread),
  // given whole and in parts: `whole` is what Predicate asks (its reasons); for the
  // tasks `applies` names it must be ok on a node exactly when `node_local` is and
  // `placement` keeps the node, and for other tasks exactly when `node_local` is.
  // `node_local` may depend only on the task's shape and the node's own state.
  // Node-choice caches then keep node_local per shape and node and ask `placement` per
  // task over the nodes left. Gated by enablePredicate, as AddPredicateFn.
  // `bound`, when given, says where `placement` may answer differently (PlacementBoundFn).
  void AddSplitPredicateFn(PredicateFn whole, PredicateFn node_local, std::function<bool(TaskIndex)> applies,
                           PlacementFilterFn placement, PlacementBoundFn bound = nullptr);
  void AddNodeOrderFn(NodeOrderFn fn);
  void AddBatchNodeOrderFn(BatchNodeOrderFn fn);
  // Node scores by group: `group_of[n]` (0 <= id < num_groups) is node n's group, and
  // `fn` scores groups. Node-choice reuse stays possible: a cache keeps each node's other
  // scores and adds the groups' anew when anything changed. Gated by enableNodeOrder.
  void AddGroupNodeOrderFn(std::vector<int32_t> group_of, int32_t num_groups, GroupNodeOrderFn fn);
  // Node scores that depend on where the task's own job or sub-group already is (network
  // topology), for the tasks `applies` names: added after the per-node and batch
  // scorers, before the group scorers. Those tasks' whole node choice is never reused
  // (NodeChoiceReusable), their other scores may be (NodeLocalScoresReusable). Gated by
  // enableNodeOrder.
  // `bound`, when given, says where `fn` may score differently (PlacementBoundFn).
  void AddPlacementNodeOrderFn(std::function<bool(TaskIndex)> applies, BatchNodeOrderFn fn,
                               PlacementBoundFn bound = nullptr);
  void AddPreemptableFn(EvictableFn fn);
  void AddReclaimableFn(EvictableFn fn);
  void AddVictimTasksFn(VictimTasksFn fn);
  void AddUnifiedEvictableFn(UnifiedEvictableFn fn);  // not gated
  void AddSimulateAllocatableFn(SimulateAllocatableFn fn);  // gated by enabledAllocatable
  void AddSimulatePredicateFn(SimulatePredicateFn fn);      // gated by enablePredicate
  void AddEventHandler(EventHandler handler);  // not gated
  void AddHyperNodeGradientFn(HyperNodeGradientFn fn);  // gated by enabledHyperNodeGradient
  void AddHyperNodeOrderFn(HyperNodeOrderFn fn);        // gated by enabledHyperNodeOrder
  void AddSubJobReadyFn(SubJobBoolFn fn);
  void AddSubJobPipelinedFn(SubJobVoteFn fn);
  void AddSubJobOrderFn(SubJobOrderFn fn);
  // Says that the current plugin's node answers (predicates and scores) for `t` may
  // depend on more than the task's shape and each node's own state, when `fn(t)` is true
  // (for example, a placed pod's affinity term selects t). Allocate then scores every
  // node for t instead of reusing a node choice. Only plugins registered with
  // PluginTraits::node_local_answers need it; a plugin without that trait that registers
  // predicates or scores turns node-choice reuse off for the whole session.
  void AddNodeChoiceVetoFn(std::function<bool(TaskIndex)> fn);  // not gated
  // The plugin whose OnSessionOpen is running (its switches and arguments).
  const PluginOption& current_plugin() const;
  // Per-session data that several plugins share (for example one view of the pods on
  // each node for both predicates and scores): the first call makes a T with
  // T(const Session&), later calls return the same one; it lives as long as the
  // session. Callable on a const Session: the data is the plugins', not the session's.
  template <typename T>
  T& Shared() const {
    std::shared_ptr<void>& slot = SharedSlot(typeid(T).name());
    if (slot == nullptr) slot = std::make_shared<T>(*this);
    return *static_cast<T*>(slot.get());
  }

  // ---- combined questions (tier rules in docs/reference/scheduler.md §5) ----
  // First non-zero opinion wins; then PodGroup creation time, then "namespace/name".
  bool JobOrderLess(JobIndex l, JobIndex r) const;
  // Plugins only (0 when none decides).
  int JobOrderCompare(JobIndex l, JobIndex r) const;
  // The job-order opinions in tier order, each as its key when it was given as one
  // (AddJobOrderKeyFn) and empty when it was a comparison: when all are keys, a
  // container of waiting jobs may read them once per stay.
  const std::vector<JobOrderKeyFn>& job_order_keys() const;
  // First non-zero wins; then pod index, creation time, uid.
  bool TaskOrderLess(TaskIndex l, TaskIndex r) const;
  // First non-zero wins; then queue creation time, then name.
  bool QueueOrderLess(QueueIndex l, QueueIndex r) const;
  // First non-zero wins; default: the queue QueueOrder ranks later goes first.
  bool VictimQueueOrderLess(QueueIndex l, QueueIndex r, QueueIndex preemptor_queue) const;
  // The first plugin that fails the job; nullopt when valid.
  std::optional<std::pair<std::string, std::string>> JobValid(JobIndex j) const;
  bool JobReady(JobIndex j) const;       // AND; true when none registered
  bool JobPipelined(JobIndex j) const;   // votes per tier; true when all abstain
  bool JobStarving(JobIndex j) const;    // the first tier with a registrant decides (AND)
  bool JobEnqueueable(JobIndex j) const; // votes per tier; true when all abstain
  void JobEnqueued(JobIndex j);          // notifies all
  bool Allocatable(QueueIndex q, TaskIndex t) const;  // AND
  bool Overused(QueueIndex q) const;                  // OR
  bool Preemptive(QueueIndex q, absl::Span<const TaskIndex> tasks) const;  // AND
  FitResult PrePredicate(TaskIndex t) const;       // first failure
  FitResult Predicate(TaskIndex t, NodeIndex n) const;  // first failure
  // Predicate's two parts (AddSplitPredicateFn): its answer on a node is ok exactly
  // when the node-local part is and the placement part keeps the node. The node-local
  // part asks every whole predicate and each split one's node_local; the placement part
  // each split predicate's `placement` for the tasks it applies to.
  bool PredicateNodeLocalOk(TaskIndex t, NodeIndex n) const;
  void KeepPlacementFeasible(TaskIndex t, std::vector<NodeIndex>& nodes) const;
  bool PlacementPredicatesApply(TaskIndex t) const;  // whether any placement part is asked for t
  // Where the placement parts that apply to `t` (split predicates' and placement
  // scorers') may answer differently, into `bound` (its nodes ascending and unique);
  // false when one of them cannot bound that, or two name different domain keys.
  bool PlacementBoundNodes(TaskIndex t, PlacementBound& bound) const;
  bool SimulateAllocatable(QueueIndex q, TaskIndex t, absl::Span<const TaskIndex> removed) const;  // AND
  FitResult SimulatePredicate(TaskIndex t, NodeIndex n, absl::Span<const TaskIndex> removed) const;
  bool HasNodeOrderFns() const;
  // Whether `t`'s node answers depend only on its shape and each node's own state, so
  // that one node choice serves every task of its shape: NodeLocalScoresReusable, and
  // no placement scorer or split predicate's placement part applies to `t`.
  bool NodeChoiceReusable(TaskIndex t) const;
  // Whether `t`'s node-local answers (PredicateNodeLocalOk, ScoreNodesNodeLocal) depend
  // only on its shape and each node's own state: a task whose shape is shared
  // (kTaskShapeOnly or kTaskPodTermsOnly), every plugin with node answers declared
  // node-local (PluginTraits), no veto for `t`, and RunOptions::node_choice_cache on.
  bool NodeLocalScoresReusable(TaskIndex t) const;
  // Sum of every registered scorer for each node of `nodes`, written to `scores`: the
  // per-node scorers, then the batch scorers, then the placement scorers, then the group
  // scorers, each in registration order.
  void ScoreNodes(TaskIndex t, absl::Span<const NodeIndex> nodes,
                  absl::Span<double> scores) const;
  // The same in steps, for caches of node scores. ScoreNodesUngrouped writes every
  // scorer but the group scorers to `scores`: ScoreNodesNodeLocal (per-node, then batch)
  // and then AddPlacementScores. AddGroupScores adds the rest.
  void ScoreNodesUngrouped(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const;
  void ScoreNodesNodeLocal(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const;
  void AddPlacementScores(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const;
  void AddGroupScores(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const;
  bool HasGroupNodeOrderFns() const;
  // The group scorers one by one: how many, node n's group under scorer k, and the
  // score of each of scorer k's groups for t (AddGroupScores adds these, k ascending).
  size_t num_group_node_order_fns() const;
  int32_t node_group(size_t k, NodeIndex n) const;
  absl::Span<const NodeIndex> group_nodes(size_t k, int32_t group) const;  // ascending
  void ScoreGroups(TaskIndex t, size_t k, std::vector<double>* scores) const;
  // Per-tier intersection of victim filters (§5.2).
  std::vector<TaskIndex> Preemptable(TaskIndex preemptor,
                                     absl::Span<const TaskIndex> candidates) const;
  std::vector<TaskIndex> Reclaimable(TaskIndex reclaimer,
                                     absl::Span<const TaskIndex> candidates) const;
  // Per-tier intersection, as Preemptable.
  std::vector<TaskIndex> UnifiedEvictable(EvictionKind kind, JobIndex preemptor,
                                          absl::Span<const TaskIndex> candidates) const;
  // First tier with a non-empty union.
  std::vector<TaskIndex> VictimTasks(absl::Span<const TaskIndex> candidates) const;
  // The first registrant decides; none: {{within}}.
  std::vector<std::vector<HyperNodeIndex>> HyperNodeGradient(JobIndex j, int32_t sub_job, HyperNodeIndex within,
                                                             SearchPurpose purpose = SearchPurpose::kAllocate) const;
  // Sum of every registered HyperNode scorer for each candidate, written to `scores`.
  void ScoreHyperNodes(JobIndex j, int32_t sub_job, absl::Span<const HyperNodeIndex> candidates,
                       absl::Span<double> scores) const;
  // Without subGroupPolicy: JobReady / JobPipelined. With one: AND / votes per tier.
  bool SubJobReady(JobIndex j, int32_t k) const;
  bool SubJobPipelined(JobIndex j, int32_t k) const;
  // First non-zero wins; then match index, then id.
  bool SubJobOrderLess(JobIndex j, int32_t l, int32_t r) const;

  // ---- direct changes (backfill, shuffle); others go through Statement ----
  // Allocates now; once the job is JobReady, binds every Allocated task of the job.
  absl::Status Allocate(TaskIndex t, NodeIndex n);
  // Moves a Pipelined task back to Pending, off its node (backfill places pipelined
  // best-effort tasks again).
  absl::Status Unpipeline(TaskIndex t);
  // Evicts now (shuffle): the task becomes Releasing and an Eviction is recorded.
  absl::Status Evict(TaskIndex t, absl::string_view action, absl::string_view reason);

  // ---- reasons ----
  ReasonId InternReason(absl::string_view text);
  const std::string& ReasonText(ReasonId id) const;
  // Records that `t` does not fit on one more node, for `result`'s reasons (fit
  // errors, rendered at close as counts per reason, as Volcano's message does).
  void RecordFitError(TaskIndex t, const FitResult& result);
  // Records a reason that applies to the whole task (e.g. a pre-predicate failure).
  void RecordTaskError(TaskIndex t, absl::string_view message);
  // Forgets what RecordFitError and RecordTaskError recorded for `t` (a queue refusal
  // stays): Volcano replaces a task's fit errors on each failure and clears a job's or
  // sub-group's before each HyperNode it is tried in.
  void ResetTaskFitErrors(TaskIndex t);
  // The HyperNode whose nodes `t` was last tried on (kNone: the whole cluster); its
  // fit-error text then starts "In hyperNode <name>: ", as Volcano's does.
  void SetTaskFitErrorsHyperNode(TaskIndex t, HyperNodeIndex h);
  // Records that queue `q` refused `t` before any node was tried (its quota): the
  // task's reason says so; the gang's condition message does not (as Volcano's).
  void RecordQueueRefusal(TaskIndex t, QueueIndex q);
  bool TaskHasFitErrors(TaskIndex t) const;
  // Volcano's texts for why a task or a gang did not schedule
  // (docs/reference/scheduler.md §11.2): "0/3 nodes are unavailable: 3 Insufficient
  // cpu." or the task's own message, empty when it recorded nothing; "pod group is not
  // ready, 2 Pending, 2 minAvailable; Pending: 2 Unschedulable. Origin reason is p1: ...".
  std::string TaskFitErrorText(TaskIndex t) const;
  std::string JobFitErrorText(JobIndex j) const;
  // The job's Pending tasks whose placement was undone (its gang fell short): gang
  // counts them as schedulable.
  int32_t JobPendingOnceAllocatedNum(JobIndex j) const;
  void AddWarning(std::string warning);
  // A claim the binder must bind with a pod's bind (VolumeBinding's reservations).
  void AddVolumeBinding(VolumeBinding binding);
  // Annotations a plugin writes on a pod it placed (Volcano's TaskInfo.PodAnnotations,
  // e.g. deviceshare's card index): kept while the task is placed in this session and
  // carried by its Bind. Setting a key again replaces its value.
  void SetPodAnnotation(TaskIndex t, std::string key, std::string value);
  void RemovePodAnnotations(TaskIndex t);  // all of the task's
  const std::vector<PodAnnotation>* pod_annotations(TaskIndex t) const;  // null: none

  // ---- explanations (vcsched/explain.h, docs/EXPLAIN.md) ----
  // Whether the session keeps explanations (Explain asked for them). Plugins and actions
  // record the checks that refused work only then: a session not explaining pays nothing.
  bool explaining() const { return v_.explaining; }
  // Records that job j was held by a check: a reason code (reason_code::*), a message and
  // the check's numbers, in the running action's stage. A combined question whose answer
  // lets the job through (JobEnqueueable, Allocatable) drops what its plugins recorded
  // while it was asked.
  void ExplainJob(JobIndex j, absl::string_view code, std::string message, CheckNumbers numbers) const;
  // Records that queue q was held as a whole (Overused): its jobs left unvisited get it.
  void ExplainQueue(QueueIndex q, absl::string_view code, std::string message, CheckNumbers numbers) const;
  // The nodes task t did not fit, each with its result: kept as counts by exact cause
  // (the taint, the resource with its request and the most any node has free).
  void ExplainNodeVerdicts(TaskIndex t, absl::Span<const std::pair<NodeIndex, FitResult>> failures) const;
  // A plugin's exact account of a refusal its predicate gave (`reason`, the text it
  // returned) for task t on node n, asked while the session explains the node verdicts:
  // the first non-empty answer replaces explain's own (e.g. each GPU card's free memory).
  using FitCauseFn = std::function<std::string(TaskIndex, NodeIndex, absl::string_view)>;
  void AddFitCauseFn(FitCauseFn fn);  // not gated
  // A fair-share plugin's view of a queue, given at close; the last one given wins.
  void DescribeQueue(QueueView view) const;

  // ---- the PodGroup statuses the session returns ----
  // Sets the job's condition of `type` (every one of that type, as Volcano's status
  // update does, or a new one), with status "True" and this session's id as its
  // transition id. Jobs outside the session (no queue) have none. A literal passed as
  // SharedText::Literal is not copied.
  void SetJobCondition(JobIndex j, SharedText type, SharedText reason, SharedText message);

  // The framework's own state (src/framework/session_state.h): not part of the API.
  struct State;

 private:
  friend struct SessionInternals;
  // Views of the dense arrays the inline accessors read; set once by the constructor.
  struct Views {
    int32_t num_tasks = 0, num_jobs = 0, num_nodes = 0, num_queues = 0;
    int dims = 0;
    const Snapshot* snapshot = nullptr;
    const SchedulerConfig* config = nullptr;
    const Resource* total = nullptr;
    int64_t now = 0;
    const TaskInfo* tasks = nullptr;
    const JobInfo* jobs = nullptr;
    const NodeInfo* nodes = nullptr;
    const QueueInfo* queues = nullptr;
    const JobIndex* task_job = nullptr;
    const uint8_t* task_flags = nullptr;
    const int32_t* task_shape = nullptr;
    const int64_t* task_req = nullptr;
    const int64_t* task_nonzero_cpu = nullptr;
    const int64_t* task_nonzero_memory = nullptr;
    const QueueIndex* job_queue = nullptr;
    const int32_t* job_min_member = nullptr;
    const int32_t* job_priority = nullptr;
    const int64_t* job_creation_time = nullptr;
    const uint8_t* job_checks_roles = nullptr;
    const uint8_t* job_has_min_resources = nullptr;
    const int64_t* job_min_resources = nullptr;
    const int32_t* job_task_begin = nullptr;
    const TaskIndex* job_task_list = nullptr;
    const TaskStatus* status = nullptr;
    const NodeIndex* node = nullptr;
    // Node rows (nodes x dims, row-major): sized once, never reallocated.
    const int64_t* allocatable = nullptr;
    const int64_t* idle = nullptr;
    const int64_t* used = nullptr;
    const int64_t* releasing = nullptr;
    const int64_t* pipelined = nullptr;
    bool explaining = false;  // the session keeps an explain log
  };
  absl::Span<const int64_t> NodeRow(const int64_t* rows, NodeIndex n) const {
    return absl::Span<const int64_t>(rows + static_cast<ptrdiff_t>(n) * v_.dims, static_cast<size_t>(v_.dims));
  }
  std::shared_ptr<void>& SharedSlot(const char* type_name) const;

  std::unique_ptr<State> s_;
  Views v_;
};

}  // namespace vcsched

#endif  // VCSCHED_SESSION_H_
