#include "vcsched/session.h"

#include <algorithm>
#include <array>

#include "absl/container/flat_hash_set.h"
#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "src/framework/session_explain.h"
#include "src/framework/session_state.h"
#include "src/snapshot/role_checks.h"
#include "vcsched/statement.h"

namespace vcsched {

// ---------------------------------------------------------------- State helpers

// The node sums of a task holding node n in status st: added (kSign 1) or taken away
// (-1). The sign is a template argument: this runs for every placed task of a session.
template <int kSign>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Session::State::CountOnNode(NodeIndex n, TaskStatus st,
                                                                     absl::Span<const int64_t> r) {
  const auto add = [](int64_t a, int64_t b) { return kSign > 0 ? SaturatingAdd(a, b) : SaturatingSub(a, b); };
  const auto take = [](int64_t a, int64_t b) { return kSign > 0 ? SaturatingSub(a, b) : SaturatingAdd(a, b); };
  if (st == TaskStatus::kPipelined) {
    auto p = MutableRow(pipelined, n);
    for (int d = 0; d < dims; ++d) p[d] = add(p[d], r[d]);
    return;
  }
  auto idle_row = MutableRow(idle, n);
  auto used_row = MutableRow(used, n);
  for (int d = 0; d < dims; ++d) {
    idle_row[d] = take(idle_row[d], r[d]);
    used_row[d] = add(used_row[d], r[d]);
  }
  if (st == TaskStatus::kReleasing) {
    auto rel = MutableRow(releasing, n);
    for (int d = 0; d < dims; ++d) rel[d] = add(rel[d], r[d]);
  }
}

void Session::State::MoveTask(TaskIndex t, TaskStatus new_status, NodeIndex new_node) {
  const size_t ti = static_cast<size_t>(t);
  const TaskStatus old_status = status[ti];
  const NodeIndex old_node = node[ti];
  const absl::Span<const int64_t> r = req(t);
  if (old_node != kNone && HoldsNode(old_status)) {
    CountOnNode<-1>(old_node, old_status, r);
    if (node_tasks_listed) {  // swap-remove from the node's list
      auto& list = node_tasks[static_cast<size_t>(old_node)];
      const int32_t slot = node_slot[ti];
      const TaskIndex moved = list.back();
      list[static_cast<size_t>(slot)] = moved;
      node_slot[static_cast<size_t>(moved)] = slot;
      list.pop_back();
      node_slot[ti] = -1;
    }
  }
  if (old_node != kNone) node_changes.push_back(old_node);
  if (new_node != kNone && new_node != old_node) node_changes.push_back(new_node);
  const JobIndex job = task_job[ti];
  if (job != kNone) {
    ++job_moves[static_cast<size_t>(job)];
    auto& counts = job_counts[static_cast<size_t>(job)];
    --counts[static_cast<size_t>(old_status)];
    ++counts[static_cast<size_t>(new_status)];
    if (IsAllocatedStatus(old_status) != IsAllocatedStatus(new_status)) {
      auto a = MutableRow(job_allocated, job);
      const int64_t sign = IsAllocatedStatus(new_status) ? 1 : -1;
      for (int d = 0; d < dims; ++d) a[d] = sign > 0 ? SaturatingAdd(a[d], r[d]) : SaturatingSub(a[d], r[d]);
    }
    if (task_flags[ti] & kTaskBestEffort) {
      job_pending_best_effort[static_cast<size_t>(job)] +=
          (new_status == TaskStatus::kPending) - (old_status == TaskStatus::kPending);
    }
  }
  status[ti] = new_status;
  node[ti] = new_node;
  if (new_node != kNone && HoldsNode(new_status)) {
    CountOnNode<1>(new_node, new_status, r);
    if (node_tasks_listed) {
      auto& list = node_tasks[static_cast<size_t>(new_node)];
      node_slot[ti] = static_cast<int32_t>(list.size());
      list.push_back(t);
    }
  }
}

// MoveTask from where every task starts (Pending, off any node) to where the snapshot
// has it, for the nodes' sums alone (the jobs' are the snapshot's opening facts): what a
// session does when the snapshot's node sums are not exact.
void Session::State::PlaceAtOpening(TaskIndex t) {
  const size_t ti = static_cast<size_t>(t);
  if (node[ti] != kNone) CountOnNode<1>(node[ti], status[ti], req(t));
}

void Session::State::ListNodeTasks() {
  node_tasks_listed = true;
  node_tasks.assign(static_cast<size_t>(allocatable.rows()), {});
  std::vector<int32_t> per_node(node_tasks.size(), 0);  // each list sized once
  for (size_t t = 0; t < status.size(); ++t) {
    if (node[t] != kNone && HoldsNode(status[t])) ++per_node[static_cast<size_t>(node[t])];
  }
  for (size_t n = 0; n < node_tasks.size(); ++n) node_tasks[n].reserve(static_cast<size_t>(per_node[n]));
  for (size_t t = 0; t < status.size(); ++t) {
    if (node[t] == kNone || !HoldsNode(status[t])) continue;
    auto& list = node_tasks[static_cast<size_t>(node[t])];
    node_slot[t] = static_cast<int32_t>(list.size());
    list.push_back(static_cast<TaskIndex>(t));
  }
}

void Session::State::AddBind(TaskIndex t) {
  const absl::string_view key = facts->task_key[static_cast<size_t>(t)];
  Bind& bind = decisions.binds.emplace_back();  // filled in place: no temporary to move
  bind.task = Name(key);
  bind.node = Name(node_info(node[static_cast<size_t>(t)]).spec.name);
  if (!pod_annotations.empty()) {
    auto it = pod_annotations.find(t);
    if (it != pod_annotations.end()) {
      const Labels& own = task(t).pod->annotations;
      for (const PodAnnotation& a : it->second) {
        auto same = own.find(a.key);
        if (same == own.end() || same->second != a.value) bind.annotations.push_back(a);
      }
      std::sort(bind.annotations.begin(), bind.annotations.end(),
                [](const PodAnnotation& x, const PodAnnotation& y) { return x.key < y.key; });
    }
  }
  binds_in_index_order &= last_bind < t;  // kNone (-1) is below every task
  last_bind = t;
}

void Session::State::FireAllocate(TaskIndex t) {
  for (const EventHandler& h : handlers) {
    if (h.on_allocate) h.on_allocate(t);
  }
}

void Session::State::FireDeallocate(TaskIndex t) {
  for (const EventHandler& h : handlers) {
    if (h.on_deallocate) h.on_deallocate(t);
  }
}

absl::Span<const NodeIndex> Session::node_change_log() const { return s_->node_changes; }

// ---------------------------------------------------------------- construction

Session::Session(const Snapshot& snapshot, const SchedulerConfig& config, int64_t now_seconds,
                 std::string session_id)
    : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.snapshot = &snapshot;
  s.tasks = snapshot.tasks();
  s.jobs = snapshot.jobs();
  s.nodes = snapshot.nodes();
  s.queues = snapshot.queues();
  s.config = &config;
  s.now = now_seconds;
  s.session_id = std::move(session_id);
  s.dims = snapshot.dims();
  s.total = snapshot.total_allocatable();
  const auto nodes = snapshot.nodes();
  const auto tasks = snapshot.tasks();
  const auto jobs = snapshot.jobs();
  const Eigen::Index n = static_cast<Eigen::Index>(nodes.size());
  s.allocatable = ResourceMatrix::Zero(n, s.dims);
  for (const NodeInfo& info : nodes) {
    for (int d = 0; d < s.dims; ++d) s.allocatable(info.index, d) = info.allocatable[d];
  }
  s.idle = s.allocatable;
  s.used = ResourceMatrix::Zero(n, s.dims);
  s.releasing = ResourceMatrix::Zero(n, s.dims);
  s.pipelined = ResourceMatrix::Zero(n, s.dims);
  s.node_slot.assign(tasks.size(), -1);
  s.last_txn_node.assign(tasks.size(), kNone);
  s.last_txn_status.assign(tasks.size(), TaskStatus::kPending);
  s.eviction_occurred.assign(tasks.size(), false);
  s.fit_slot.assign(tasks.size(), -1);
  // Facts that do not change in a session are the snapshot's; the rest start from them.
  const DenseFacts& f = SnapshotInternals::Of(snapshot).dense;
  s.task_flags = f.task_flags;
  s.task_job = f.task_job;
  s.facts = &f;
  s.job_queue = f.job_queue;
  s.job_min_member = f.job_min_member;
  s.job_checks_roles = f.job_checks_roles;
  s.job_priority = f.job_priority;
  s.job_creation_time = f.job_creation_time;
  s.job_phase.resize(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) s.job_phase[j] = &f.PhaseOf(j);
  // The jobs as the snapshot has their tasks: a task counts as moved once for leaving
  // Pending (every task starts there), and the minTaskMember answers hold until the next move.
  s.job_pending_best_effort = f.job_opening_best_effort_pending;
  s.job_counts = f.job_opening_counts;
  s.job_allocated = f.job_opening_allocated;
  s.job_moves.resize(jobs.size());
  s.role_checks.resize(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    s.job_moves[j] = f.job_task_begin[j + 1] - f.job_task_begin[j] - f.job_opening_counts[j][static_cast<size_t>(TaskStatus::kPending)];
    s.role_checks[j] = s.job_moves[j] * 8 + f.job_opening_roles[j];
  }
  s.job_status_slot.assign(jobs.size(), -1);
  s.names = SharedText::Owner(SnapshotInternals::Shared(snapshot));
  s.transition_id = s.decisions.Keep(s.session_id);
  s.decisions.pod_groups.reserve(
      jobs.size() - static_cast<size_t>(std::count(f.job_queue.begin(), f.job_queue.end(), kNone)));
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (f.job_queue[j] == kNone) continue;
    s.job_status_slot[j] = static_cast<int32_t>(s.decisions.pod_groups.size());
    PodGroupStatus& st = s.decisions.pod_groups.emplace_back();
    st.job = s.Name(f.job_key[j]);
    st.old_phase = internal::PhaseText(f.PhaseOf(j), [&](absl::string_view p) { return s.Name(p); });
  }
  // Finished pods never hold a node (docs/reference/scheduler.md §2.2). The initial
  // placement is the baseline, not a change: it is not logged. The snapshot has each
  // task's status and node and, unless a sum could saturate, each node's sums.
  s.status = f.task_status;
  s.node = f.task_node;
  if (f.node_sums_exact && f.node_used.rows() == n && f.node_used.cols() == s.dims) {
    s.used = f.node_used;
    s.releasing = f.node_releasing;
    s.pipelined = f.node_pipelined;
    for (Eigen::Index i = 0; i < n; ++i) {
      for (int d = 0; d < s.dims; ++d) s.idle(i, d) = SaturatingSub(s.allocatable(i, d), s.used(i, d));
    }
  } else {
    for (const TaskIndex t : f.placed_tasks) s.PlaceAtOpening(t);
  }
  internal::RecoverAllocatedHyperNodes(s);

  v_.num_tasks = static_cast<int32_t>(tasks.size());
  v_.num_jobs = static_cast<int32_t>(jobs.size());
  v_.num_nodes = static_cast<int32_t>(nodes.size());
  v_.num_queues = static_cast<int32_t>(snapshot.queues().size());
  v_.dims = s.dims;
  v_.snapshot = &snapshot;
  v_.config = &config;
  v_.total = &s.total;
  v_.now = s.now;
  v_.tasks = tasks.data();
  v_.jobs = jobs.data();
  v_.nodes = nodes.data();
  v_.queues = snapshot.queues().data();
  v_.task_job = f.task_job.data();
  v_.task_flags = f.task_flags.data();
  v_.task_shape = f.task_shape.data();
  v_.task_req = f.task_req.data();
  v_.task_nonzero_cpu = f.task_nonzero_cpu.data();
  v_.task_nonzero_memory = f.task_nonzero_memory.data();
  v_.job_queue = f.job_queue.data();
  v_.job_min_member = f.job_min_member.data();
  v_.job_priority = f.job_priority.data();
  v_.job_creation_time = f.job_creation_time.data();
  v_.job_checks_roles = f.job_checks_roles.data();
  v_.job_has_min_resources = f.job_has_min_resources.data();
  v_.job_min_resources = f.job_min_resources.data();
  v_.job_task_begin = f.job_task_begin.data();
  v_.job_task_list = f.job_task_list.data();
  v_.status = s.status.data();  // sized once: never reallocated
  v_.node = s.node.data();
  v_.allocatable = s.allocatable.data();
  v_.idle = s.idle.data();
  v_.used = s.used.data();
  v_.releasing = s.releasing.data();
  v_.pipelined = s.pipelined.data();
}

Session::~Session() = default;

// ---------------------------------------------------------------- reads

const std::string& Session::session_id() const { return s_->session_id; }
SchedulerMemory& Session::memory() { return s_->memory; }

Resource Session::node_future_idle(NodeIndex n) const {
  Resource r = Resource::FromSpan(node_idle(n));
  r += node_releasing(n);
  r -= node_pipelined(n);
  return r;
}

std::vector<TaskIndex> Session::node_tasks(NodeIndex n) const {
  if (!s_->node_tasks_listed) s_->ListNodeTasks();
  std::vector<TaskIndex> out = s_->node_tasks[static_cast<size_t>(n)];
  std::sort(out.begin(), out.end());
  return out;
}

int32_t Session::job_count(JobIndex j, TaskStatus st) const {
  return s_->job_counts[static_cast<size_t>(j)][static_cast<size_t>(st)];
}
absl::Span<const int64_t> Session::job_allocated(JobIndex j) const { return Row(s_->job_allocated, j); }

bool Session::request_sums_exact() const {
  if (s_->request_sums_exact < 0) {
    constexpr int64_t kExactDouble = int64_t{1} << 53;
    const int64_t limit = kExactDouble / std::max<int64_t>(1, v_.num_tasks);
    // The snapshot's bound answers without a walk of every request when it is low enough.
    bool exact = true;
    if (s_->facts->task_req_bound >= limit) {
      const size_t count = static_cast<size_t>(v_.num_tasks) * static_cast<size_t>(v_.dims);
      for (size_t i = 0; i < count; ++i) exact &= v_.task_req[i] > -limit && v_.task_req[i] < limit;
    }
    s_->request_sums_exact = exact ? 1 : 0;
  }
  return s_->request_sums_exact > 0;
}

int32_t Session::JobReadyTaskNum(JobIndex j) const {
  return job_count(j, TaskStatus::kBound) + job_count(j, TaskStatus::kBinding) +
         job_count(j, TaskStatus::kRunning) + job_count(j, TaskStatus::kAllocated) +
         job_count(j, TaskStatus::kSucceeded);
}
int32_t Session::JobWaitingTaskNum(JobIndex j) const { return job_count(j, TaskStatus::kPipelined); }
int32_t Session::JobPendingBestEffortNum(JobIndex j) const {
  return s_->job_pending_best_effort[static_cast<size_t>(j)];
}
int32_t Session::JobValidTaskNum(JobIndex j) const {
  return job_count(j, TaskStatus::kBound) + job_count(j, TaskStatus::kBinding) +
         job_count(j, TaskStatus::kRunning) + job_count(j, TaskStatus::kAllocated) +
         job_count(j, TaskStatus::kSucceeded) + job_count(j, TaskStatus::kPipelined) +
         job_count(j, TaskStatus::kPending);
}
int32_t Session::JobReleasingOnNodeNum(JobIndex j) const {
  if (job_count(j, TaskStatus::kReleasing) == 0) return 0;
  int32_t n = 0;
  for (TaskIndex t : s_->job(j).tasks) {
    n += s_->status[static_cast<size_t>(t)] == TaskStatus::kReleasing && s_->node[static_cast<size_t>(t)] != kNone;
  }
  return n;
}
bool Session::JobIsReady(JobIndex j) const {
  return JobReadyTaskNum(j) + JobPendingBestEffortNum(j) >= job_min_member(j);
}
bool Session::JobIsPipelined(JobIndex j) const {
  return JobWaitingTaskNum(j) + JobReadyTaskNum(j) + JobPendingBestEffortNum(j) >= job_min_member(j);
}
bool Session::JobIsStarving(JobIndex j) const {
  return JobWaitingTaskNum(j) + JobReadyTaskNum(j) < s_->job_min_member[static_cast<size_t>(j)];
}

namespace {
// The minTaskMember checks, asked again only after one of the job's tasks moved (the
// snapshot's answers hold until then): actions and gang ask every job several times a
// session, and most jobs do not change in between.
bool CheckRoles(Session::State& s, JobIndex j, RoleCheck kind) {
  const auto at = static_cast<size_t>(j);
  if (!s.job_checks_roles[at]) return true;
  int64_t& cached = s.role_checks[at];  // job_moves * 8 + the answers' bits
  if (cached / 8 != s.job_moves[at]) {
    const DenseFacts& f = *s.facts;
    const auto begin = static_cast<size_t>(f.job_task_begin[at]), end = static_cast<size_t>(f.job_task_begin[at + 1]);
    const int answers = RoleAnswers(s.job(j).pod_group.min_task_member,
                                    absl::MakeConstSpan(f.job_task_list).subspan(begin, end - begin), f.task_role_slot,
                                    f.task_flags, [&](TaskIndex t) { return s.status[static_cast<size_t>(t)]; });
    cached = s.job_moves[at] * 8 + answers;
  }
  return (cached >> static_cast<int>(kind)) & 1;
}
}  // namespace

bool Session::JobCheckTaskValid(JobIndex j) const { return CheckRoles(*s_, j, RoleCheck::kValid); }
bool Session::JobCheckTaskReady(JobIndex j) const { return CheckRoles(*s_, j, RoleCheck::kReady); }
bool Session::JobCheckTaskPipelined(JobIndex j) const {
  return CheckRoles(*s_, j, RoleCheck::kPipelined);
}
const std::string& Session::job_phase(JobIndex j) const { return *s_->job_phase[static_cast<size_t>(j)]; }
void Session::SetJobPhase(JobIndex j, std::string phase) {
  auto it = s_->set_phases.find(phase);
  if (it == s_->set_phases.end()) it = s_->set_phases.insert(std::move(phase)).first;
  s_->job_phase[static_cast<size_t>(j)] = &*it;
}
bool Session::JobIsPending(JobIndex j) const {
  const std::string& p = job_phase(j);
  return p.empty() || absl::string_view(p) == "Pending";  // sizes first, no strlen
}

// ---------------------------------------------------------------- registration

namespace {
std::string PluginName(const Session::State& s) { return s.current_plugin != nullptr ? s.current_plugin->name : ""; }
template <typename F>
void AddIf(Session::State& s, Switch sw, std::vector<Registered<F>>& list, F fn) {
  if (s.current_plugin != nullptr && !s.current_plugin->Enabled(sw)) return;
  list.push_back({s.current_tier, std::move(fn), true, PluginName(s)});
}
template <typename F>
void AddAlways(Session::State& s, std::vector<Registered<F>>& list, F fn) {
  list.push_back({s.current_tier, std::move(fn), true, PluginName(s)});
}
}  // namespace

void Session::AddJobOrderFn(JobOrderFn fn) {
  const size_t before = s_->job_order.size();
  AddIf(*s_, Switch::kJobOrder, s_->job_order, std::move(fn));
  if (s_->job_order.size() != before) s_->job_order_keys.emplace_back();
}
void Session::AddJobOrderKeyFn(JobOrderKeyFn key) {
  const size_t before = s_->job_order.size();
  AddIf(*s_, Switch::kJobOrder, s_->job_order, JobOrderFn([key](JobIndex l, JobIndex r) {
          const double a = key(l), b = key(r);
          return a < b ? -1 : (a > b ? 1 : 0);
        }));
  if (s_->job_order.size() != before) s_->job_order_keys.push_back(std::move(key));
}
void Session::AddTaskOrderFn(TaskOrderFn fn) { AddIf(*s_, Switch::kTaskOrder, s_->task_order, std::move(fn)); }
void Session::AddQueueOrderFn(QueueOrderFn fn) { AddIf(*s_, Switch::kQueueOrder, s_->queue_order, std::move(fn)); }
void Session::AddVictimQueueOrderFn(VictimQueueOrderFn fn) { AddAlways(*s_, s_->victim_queue_order, std::move(fn)); }
void Session::AddJobValidFn(JobValidFn fn) { AddAlways(*s_, s_->job_valid, std::move(fn)); }
void Session::AddJobReadyFn(JobBoolFn fn) { AddIf(*s_, Switch::kJobReady, s_->job_ready, std::move(fn)); }
void Session::AddJobPipelinedFn(JobVoteFn fn) { AddIf(*s_, Switch::kJobPipelined, s_->job_pipelined, std::move(fn)); }
void Session::AddJobStarvingFn(JobBoolFn fn) { AddIf(*s_, Switch::kJobStarving, s_->job_starving, std::move(fn)); }
void Session::AddJobEnqueueableFn(JobVoteFn fn) { AddIf(*s_, Switch::kJobEnqueued, s_->job_enqueueable, std::move(fn)); }
void Session::AddJobEnqueuedFn(JobNotifyFn fn) { AddIf(*s_, Switch::kJobEnqueued, s_->job_enqueued, std::move(fn)); }
void Session::AddAllocatableFn(QueueTaskFn fn) { AddIf(*s_, Switch::kAllocatable, s_->allocatable_fns, std::move(fn)); }
void Session::AddOverusedFn(QueueFn fn) { AddIf(*s_, Switch::kOverused, s_->overused, std::move(fn)); }
void Session::AddPreemptiveFn(PreemptiveFn fn) { AddIf(*s_, Switch::kPreemptive, s_->preemptive, std::move(fn)); }
void Session::AddPrePredicateFn(PrePredicateFn fn) { AddIf(*s_, Switch::kPredicate, s_->pre_predicate, std::move(fn)); }
void Session::AddPredicateFn(PredicateFn fn) {
  AddIf(*s_, Switch::kPredicate, s_->predicate, std::move(fn));
  s_->predicate_parts.resize(s_->predicate.size());
}
void Session::AddSplitPredicateFn(PredicateFn whole, PredicateFn node_local, std::function<bool(TaskIndex)> applies,
                                  PlacementFilterFn placement, PlacementBoundFn bound) {
  const size_t before = s_->predicate.size();
  AddIf(*s_, Switch::kPredicate, s_->predicate, std::move(whole));
  if (s_->predicate.size() == before) return;
  s_->predicate_parts.push_back({std::move(node_local), std::move(applies), std::move(placement), std::move(bound)});
}
void Session::AddNodeOrderFn(NodeOrderFn fn) { AddIf(*s_, Switch::kNodeOrder, s_->node_order, std::move(fn)); }
void Session::AddBatchNodeOrderFn(BatchNodeOrderFn fn) { AddIf(*s_, Switch::kNodeOrder, s_->batch_node_order, std::move(fn)); }
void Session::AddPlacementNodeOrderFn(std::function<bool(TaskIndex)> applies, BatchNodeOrderFn fn,
                                      PlacementBoundFn bound) {
  if (s_->current_plugin != nullptr && !s_->current_plugin->Enabled(Switch::kNodeOrder)) return;
  s_->placement_node_order.push_back({std::move(applies), std::move(fn), PluginName(*s_), std::move(bound)});
}
void Session::AddGroupNodeOrderFn(std::vector<int32_t> group_of, int32_t num_groups, GroupNodeOrderFn fn) {
  if (s_->current_plugin != nullptr && !s_->current_plugin->Enabled(Switch::kNodeOrder)) return;
  std::vector<std::vector<NodeIndex>> nodes(static_cast<size_t>(std::max(num_groups, 0)));
  for (size_t n = 0; n < group_of.size(); ++n) nodes[static_cast<size_t>(group_of[n])].push_back(static_cast<NodeIndex>(n));
  s_->group_node_order.push_back({std::move(group_of), num_groups, std::move(fn), std::move(nodes), PluginName(*s_)});
}
void Session::AddPreemptableFn(EvictableFn fn) { AddIf(*s_, Switch::kPreemptable, s_->preemptable, std::move(fn)); }
void Session::AddReclaimableFn(EvictableFn fn) { AddIf(*s_, Switch::kReclaimable, s_->reclaimable, std::move(fn)); }
void Session::AddVictimTasksFn(VictimTasksFn fn) { AddIf(*s_, Switch::kVictim, s_->victim_tasks, std::move(fn)); }
void Session::AddEventHandler(EventHandler handler) { s_->handlers.push_back(std::move(handler)); }
void Session::AddHyperNodeGradientFn(HyperNodeGradientFn fn) {
  AddIf(*s_, Switch::kHyperNodeGradient, s_->hyper_node_gradient, std::move(fn));
}
void Session::AddHyperNodeOrderFn(HyperNodeOrderFn fn) {
  AddIf(*s_, Switch::kHyperNodeOrder, s_->hyper_node_order, std::move(fn));
}
void Session::AddSubJobReadyFn(SubJobBoolFn fn) { AddIf(*s_, Switch::kSubJobReady, s_->sub_job_ready, std::move(fn)); }
void Session::AddSubJobPipelinedFn(SubJobVoteFn fn) {
  AddIf(*s_, Switch::kSubJobPipelined, s_->sub_job_pipelined, std::move(fn));
}
void Session::AddSubJobOrderFn(SubJobOrderFn fn) { AddIf(*s_, Switch::kSubJobOrder, s_->sub_job_order, std::move(fn)); }
void Session::AddUnifiedEvictableFn(UnifiedEvictableFn fn) { AddAlways(*s_, s_->unified_evictable, std::move(fn)); }

namespace {
bool SimulatesRemoval(const Session::State& s) {
  return s.current_plugin == nullptr || s.current_plugin->Enabled(Switch::kPreemptable) ||
         s.current_plugin->Enabled(Switch::kAllocatable);
}
}  // namespace

void Session::AddSimulateAllocatableFn(SimulateAllocatableFn fn) {
  if (s_->current_plugin != nullptr && !s_->current_plugin->Enabled(Switch::kAllocatable)) return;
  s_->simulate_allocatable.push_back({s_->current_tier, std::move(fn), SimulatesRemoval(*s_), PluginName(*s_)});
}

void Session::AddSimulatePredicateFn(SimulatePredicateFn fn) {
  if (s_->current_plugin != nullptr && !s_->current_plugin->Enabled(Switch::kPredicate)) return;
  s_->simulate_predicate.push_back({s_->current_tier, std::move(fn), SimulatesRemoval(*s_), PluginName(*s_)});
}

bool Session::SimulateAllocatable(QueueIndex q, TaskIndex t, absl::Span<const TaskIndex> removed) const {
  for (const auto& reg : s_->simulate_allocatable) {
    if (!reg.fn(q, t, reg.simulates_removal ? removed : absl::Span<const TaskIndex>())) return false;
  }
  return true;
}

FitResult Session::SimulatePredicate(TaskIndex t, NodeIndex n, absl::Span<const TaskIndex> removed) const {
  for (const auto& reg : s_->simulate_predicate) {
    FitResult r = reg.fn(t, n, reg.simulates_removal ? removed : absl::Span<const TaskIndex>());
    if (!r.ok()) return r;
  }
  return FitResult::Success();
}
void Session::AddNodeChoiceVetoFn(std::function<bool(TaskIndex)> fn) { s_->node_choice_vetoes.push_back(std::move(fn)); }

const std::vector<JobOrderKeyFn>& Session::job_order_keys() const { return s_->job_order_keys; }

absl::Status Session::Unpipeline(TaskIndex t) {
  if (task_status(t) != TaskStatus::kPipelined) {
    return absl::FailedPreconditionError(absl::StrCat("task ", task(t).key, " is not pipelined"));
  }
  s_->MoveTask(t, TaskStatus::kPending, kNone);
  s_->FireDeallocate(t);
  return absl::OkStatus();
}

ShardingMode Session::sharding_mode() const { return s_->sharding_mode; }
bool Session::NodeInShard(NodeIndex n) const {
  return s_->sharding_mode == ShardingMode::kOff || s_->node_in_shard[static_cast<size_t>(n)] != 0;
}

bool Session::NodeChoiceReusable(TaskIndex t) const {
  if (!NodeLocalScoresReusable(t)) return false;
  for (const auto& reg : s_->placement_node_order) {
    if (reg.applies(t)) return false;
  }
  return !PlacementPredicatesApply(t);
}

bool Session::NodeLocalScoresReusable(TaskIndex t) const {
  if (!s_->node_choice_cache || !(task_flags(t) & (kTaskShapeOnly | kTaskPodTermsOnly))) return false;
  for (const auto& veto : s_->node_choice_vetoes) {
    if (veto(t)) return false;
  }
  return true;
}

std::shared_ptr<void>& Session::SharedSlot(const char* type_name) const { return s_->shared[type_name]; }

const PluginOption& Session::current_plugin() const {
  static const PluginOption* const kNoPlugin = new PluginOption();
  return s_->current_plugin != nullptr ? *s_->current_plugin : *kNoPlugin;
}

// ---------------------------------------------------------------- combined questions

int Session::JobOrderCompare(JobIndex l, JobIndex r) const {
  for (const auto& reg : s_->job_order) {
    const int c = reg.fn(l, r);
    if (c != 0) return c;
  }
  return 0;
}

bool Session::JobOrderLess(JobIndex l, JobIndex r) const {
  const int c = JobOrderCompare(l, r);
  if (c != 0) return c < 0;
  const int64_t lt = s_->job_creation_time[static_cast<size_t>(l)];
  const int64_t rt = s_->job_creation_time[static_cast<size_t>(r)];
  if (lt != rt) return lt < rt;
  return l < r;  // jobs are indexed in "namespace/name" order
}

bool Session::TaskOrderLess(TaskIndex l, TaskIndex r) const {
  for (const auto& reg : s_->task_order) {
    const int c = reg.fn(l, r);
    if (c != 0) return c < 0;
  }
  const TaskInfo& a = s_->task(l);
  const TaskInfo& b = s_->task(r);
  if (a.pod_index >= 0 && b.pod_index >= 0 && a.pod_index != b.pod_index) {
    return a.pod_index < b.pod_index;
  }
  if (a.pod->creation_time != b.pod->creation_time) return a.pod->creation_time < b.pod->creation_time;
  if (a.uid != b.uid) return a.uid < b.uid;
  return l < r;
}

bool Session::QueueOrderLess(QueueIndex l, QueueIndex r) const {
  for (const auto& reg : s_->queue_order) {
    const int c = reg.fn(l, r);
    if (c != 0) return c < 0;
  }
  const int64_t lt = s_->queue(l).spec.creation_time, rt = s_->queue(r).spec.creation_time;
  if (lt != rt) return lt < rt;
  return l < r;
}

bool Session::VictimQueueOrderLess(QueueIndex l, QueueIndex r, QueueIndex pq) const {
  for (const auto& reg : s_->victim_queue_order) {
    const int c = reg.fn(l, r, pq);
    if (c != 0) return c < 0;
  }
  return !QueueOrderLess(l, r);
}

std::optional<std::pair<std::string, std::string>> Session::JobValid(JobIndex j) const {
  for (const auto& reg : s_->job_valid) {
    auto r = reg.fn(j);
    if (r) {
      if (s_->explain != nullptr) internal::NoteInvalidJob(*this, j, reg.plugin, *r);
      return r;
    }
  }
  return std::nullopt;
}

bool Session::JobReady(JobIndex j) const {
  for (const auto& reg : s_->job_ready) {
    if (!reg.fn(j)) return false;
  }
  return true;
}

namespace internal {
bool TierVote(const std::vector<Registered<JobVoteFn>>& regs, JobIndex j, size_t* rejecter) {
  size_t i = 0;
  while (i < regs.size()) {
    const int tier = regs[i].tier;
    bool permit = false;
    for (; i < regs.size() && regs[i].tier == tier; ++i) {
      const Vote v = regs[i].fn(j);
      if (v == Vote::kReject) {
        if (rejecter != nullptr) *rejecter = i;
        return false;
      }
      if (v == Vote::kPermit) permit = true;
    }
    if (permit) return true;
  }
  return true;
}
}  // namespace internal

bool Session::JobPipelined(JobIndex j) const { return internal::TierVote(s_->job_pipelined, j); }
bool Session::JobEnqueueable(JobIndex j) const {
  if (s_->explain != nullptr) return internal::ExplainedEnqueueable(*this, j);
  return internal::TierVote(s_->job_enqueueable, j);
}

bool Session::JobStarving(JobIndex j) const {
  const auto& regs = s_->job_starving;
  if (regs.empty()) return false;
  const int tier = regs.front().tier;
  for (const auto& reg : regs) {
    if (reg.tier != tier) break;
    if (!reg.fn(j)) return false;
  }
  return true;
}

void Session::JobEnqueued(JobIndex j) {
  for (const auto& reg : s_->job_enqueued) reg.fn(j);
}

bool Session::Allocatable(QueueIndex q, TaskIndex t) const {
  if (s_->explain != nullptr) return internal::ExplainedAllocatable(*this, q, t);
  for (const auto& reg : s_->allocatable_fns) {
    if (!reg.fn(q, t)) return false;
  }
  return true;
}

bool Session::Overused(QueueIndex q) const {
  for (const auto& reg : s_->overused) {
    if (reg.fn(q)) {
      if (s_->explain != nullptr) internal::NoteOverusedQueue(*this, q, reg.plugin);
      return true;
    }
  }
  return false;
}

bool Session::Preemptive(QueueIndex q, absl::Span<const TaskIndex> tasks) const {
  for (const auto& reg : s_->preemptive) {
    if (!reg.fn(q, tasks)) return false;
  }
  return true;
}

FitResult Session::PrePredicate(TaskIndex t) const {
  for (const auto& reg : s_->pre_predicate) {
    FitResult r = reg.fn(t);
    if (!r.ok()) return r;
  }
  return FitResult::Success();
}

FitResult Session::Predicate(TaskIndex t, NodeIndex n) const {
  for (const auto& reg : s_->predicate) {
    FitResult r = reg.fn(t, n);
    if (!r.ok()) return r;
  }
  return FitResult::Success();
}

bool Session::PredicateNodeLocalOk(TaskIndex t, NodeIndex n) const {
  for (size_t i = 0; i < s_->predicate.size(); ++i) {
    const State::PredicateParts& parts = s_->predicate_parts[i];
    if (!(parts.node_local ? parts.node_local(t, n) : s_->predicate[i].fn(t, n)).ok()) return false;
  }
  return true;
}

void Session::KeepPlacementFeasible(TaskIndex t, std::vector<NodeIndex>& nodes) const {
  for (const State::PredicateParts& parts : s_->predicate_parts) {
    if (nodes.empty()) return;
    if (parts.applies && parts.applies(t)) parts.placement(t, nodes);
  }
}

bool Session::PlacementPredicatesApply(TaskIndex t) const {
  for (const State::PredicateParts& parts : s_->predicate_parts) {
    if (parts.applies && parts.applies(t)) return true;
  }
  return false;
}

bool Session::PlacementBoundNodes(TaskIndex t, PlacementBound& bound) const {
  bound.nodes.clear();
  bound.domain_key.clear();
  std::string key;  // the key the parts named so far
  const auto add = [&](const PlacementBoundFn& fn) {
    if (!fn) return false;
    bound.domain_key.clear();
    if (!fn(t, bound)) return false;
    if (bound.domain_key.empty()) return true;
    if (!key.empty() && key != bound.domain_key) return false;
    key = bound.domain_key;
    return true;
  };
  for (const State::PredicateParts& parts : s_->predicate_parts) {
    if (parts.applies && parts.applies(t) && !add(parts.bound)) return false;
  }
  for (const auto& reg : s_->placement_node_order) {
    if (reg.applies(t) && !add(reg.bound)) return false;
  }
  bound.domain_key = std::move(key);
  std::sort(bound.nodes.begin(), bound.nodes.end());
  bound.nodes.erase(std::unique(bound.nodes.begin(), bound.nodes.end()), bound.nodes.end());
  return true;
}

bool Session::HasNodeOrderFns() const {
  return !s_->node_order.empty() || !s_->batch_node_order.empty() || !s_->placement_node_order.empty() ||
         !s_->group_node_order.empty();
}

void Session::ScoreNodes(TaskIndex t, absl::Span<const NodeIndex> nodes,
                         absl::Span<double> scores) const {
  ScoreNodesUngrouped(t, nodes, scores);
  AddGroupScores(t, nodes, scores);
}

void Session::ScoreNodesUngrouped(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
  ScoreNodesNodeLocal(t, nodes, scores);
  AddPlacementScores(t, nodes, scores);
}

void Session::ScoreNodesNodeLocal(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
  std::fill(scores.begin(), scores.end(), 0.0);
  for (const auto& reg : s_->node_order) {
    for (size_t i = 0; i < nodes.size(); ++i) scores[i] += reg.fn(t, nodes[i]);
  }
  for (const auto& reg : s_->batch_node_order) reg.fn(t, nodes, scores);
}

void Session::AddPlacementScores(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
  for (const auto& reg : s_->placement_node_order) {
    if (reg.applies(t)) reg.fn(t, nodes, scores);
  }
}

void Session::AddGroupScores(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
  std::vector<double> by_group;
  for (size_t k = 0; k < s_->group_node_order.size(); ++k) {
    ScoreGroups(t, k, &by_group);
    const std::vector<int32_t>& group_of = s_->group_node_order[k].group_of;
    for (size_t i = 0; i < nodes.size(); ++i) {
      scores[i] += by_group[static_cast<size_t>(group_of[static_cast<size_t>(nodes[i])])];
    }
  }
}

size_t Session::num_group_node_order_fns() const { return s_->group_node_order.size(); }
int32_t Session::node_group(size_t k, NodeIndex n) const {
  return s_->group_node_order[k].group_of[static_cast<size_t>(n)];
}
absl::Span<const NodeIndex> Session::group_nodes(size_t k, int32_t group) const {
  return s_->group_node_order[k].nodes[static_cast<size_t>(group)];
}
void Session::ScoreGroups(TaskIndex t, size_t k, std::vector<double>* scores) const {
  const State::GroupScorer& g = s_->group_node_order[k];
  // 0, 1, 2, ...: grown, never rewritten, and shared by every scorer.
  thread_local std::vector<int32_t> ids;
  const size_t n = static_cast<size_t>(g.num_groups);
  while (ids.size() < n) ids.push_back(static_cast<int32_t>(ids.size()));
  scores->assign(n, 0.0);
  g.fn(t, absl::MakeConstSpan(ids.data(), n), absl::MakeSpan(*scores));
}

bool Session::HasGroupNodeOrderFns() const { return !s_->group_node_order.empty(); }

namespace {
template <typename F, typename Call>
std::vector<TaskIndex> IntersectVictims(const std::vector<Registered<F>>& regs, Call call) {
  size_t i = 0;
  while (i < regs.size()) {
    const int tier = regs[i].tier;
    std::optional<std::vector<TaskIndex>> victims;
    for (; i < regs.size() && regs[i].tier == tier; ++i) {
      auto [cand, vote] = call(regs[i].fn);
      if (vote == Vote::kAbstain) continue;
      if (cand.empty()) {
        victims.reset();
        while (i < regs.size() && regs[i].tier == tier) ++i;  // abandon this tier
        break;
      }
      if (!victims) {
        victims = std::move(cand);
      } else {
        std::vector<TaskIndex> kept;
        for (TaskIndex v : *victims) {
          if (std::find(cand.begin(), cand.end(), v) != cand.end()) kept.push_back(v);
        }
        if (kept.empty()) victims.reset();
        else victims = std::move(kept);
      }
    }
    if (victims) return *victims;
  }
  return {};
}
}  // namespace

std::vector<TaskIndex> Session::Preemptable(TaskIndex preemptor,
                                            absl::Span<const TaskIndex> candidates) const {
  return IntersectVictims(s_->preemptable, [&](const EvictableFn& f) { return f(preemptor, candidates); });
}

std::vector<TaskIndex> Session::Reclaimable(TaskIndex reclaimer,
                                            absl::Span<const TaskIndex> candidates) const {
  return IntersectVictims(s_->reclaimable, [&](const EvictableFn& f) { return f(reclaimer, candidates); });
}

std::vector<TaskIndex> Session::UnifiedEvictable(EvictionKind kind, JobIndex preemptor,
                                                 absl::Span<const TaskIndex> candidates) const {
  return IntersectVictims(s_->unified_evictable,
                          [&](const UnifiedEvictableFn& f) { return f(kind, preemptor, candidates); });
}

std::vector<TaskIndex> Session::VictimTasks(absl::Span<const TaskIndex> candidates) const {
  const auto& regs = s_->victim_tasks;
  size_t i = 0;
  while (i < regs.size()) {
    const int tier = regs[i].tier;
    std::vector<TaskIndex> all;
    absl::flat_hash_set<TaskIndex> seen;  // a victim named twice counts once; order kept
    for (; i < regs.size() && regs[i].tier == tier; ++i) {
      for (TaskIndex t : regs[i].fn(candidates)) {
        if (seen.insert(t).second) all.push_back(t);
      }
    }
    if (!all.empty()) return all;
  }
  return {};
}

// ---------------------------------------------------------------- direct changes

namespace internal {
bool CacheTakesBind(Session::State& s, TaskIndex t) {
  const NodeIndex n = s.node[static_cast<size_t>(t)];
  if (n == kNone) return false;
  const absl::Span<const int64_t> req = s.req(t);
  const absl::Span<const int64_t> idle = Row(s.idle, n);
  // The cache compares cpu and memory always, other resources where the task asks for
  // them. The session's idle already counts every allocated task on the node, `t`
  // included; the cache's counts those not yet bound as free. So the bind fits unless
  // the session's idle is negative in a compared resource by more than the other
  // unbound allocations on the node give back (worked out only then: rare).
  const auto compared = [&](int d) { return d == kCpu || d == kMemory || req[static_cast<size_t>(d)] > 0; };
  bool short_somewhere = false;
  for (int d = 0; d < s.dims; ++d) short_somewhere |= compared(d) && idle[static_cast<size_t>(d)] < 0;
  if (!short_somewhere) return true;
  if (!s.node_tasks_listed) s.ListNodeTasks();
  std::vector<int64_t> have(idle.begin(), idle.end());
  for (TaskIndex other : s.node_tasks[static_cast<size_t>(n)]) {
    if (other == t || s.status[static_cast<size_t>(other)] != TaskStatus::kAllocated) continue;
    const absl::Span<const int64_t> r = s.req(other);
    for (int d = 0; d < s.dims; ++d) have[static_cast<size_t>(d)] = SaturatingAdd(have[static_cast<size_t>(d)], r[static_cast<size_t>(d)]);
  }
  for (int d = 0; d < s.dims; ++d) {
    if (compared(d) && have[static_cast<size_t>(d)] < 0) return false;
  }
  return true;
}
}  // namespace internal

absl::Status Session::Allocate(TaskIndex t, NodeIndex n) {
  State& s = *s_;
  if (s.status[static_cast<size_t>(t)] != TaskStatus::kPending) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(t).key, " is not pending"));
  }
  s.MoveTask(t, TaskStatus::kAllocated, n);
  s.FireAllocate(t);
  const JobIndex j = s.job_of(t);
  if (j != kNone && JobReady(j)) {
    for (TaskIndex other : s.job(j).tasks) {
      if (s.status[static_cast<size_t>(other)] != TaskStatus::kAllocated) continue;
      // A bind the cache refuses stops the job's dispatch; its tasks stay allocated
      // (Volcano's Session.Allocate returns the dispatch error).
      if (!internal::CacheTakesBind(s, other)) break;
      s.MoveTask(other, TaskStatus::kBinding, s.node[static_cast<size_t>(other)]);
      s.AddBind(other);
    }
  }
  return absl::OkStatus();
}

absl::Status Session::Evict(TaskIndex t, absl::string_view action, absl::string_view reason) {
  State& s = *s_;
  const TaskStatus st = s.status[static_cast<size_t>(t)];
  if (st != TaskStatus::kRunning && st != TaskStatus::kBound) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(t).key, " is not running"));
  }
  if (s.node[static_cast<size_t>(t)] == kNone) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(t).key, " is on no node of the snapshot"));
  }
  s.MoveTask(t, TaskStatus::kReleasing, s.node[static_cast<size_t>(t)]);
  s.FireDeallocate(t);
  s.decisions.evictions.push_back({s.Name(s.task(t).key), s.decisions.Keep(action), SharedText(), s.decisions.Keep(reason)});
  return absl::OkStatus();
}

// ---------------------------------------------------------------- reasons

ReasonId Session::InternReason(absl::string_view text) {
  auto it = s_->reason_ids.find(text);
  if (it != s_->reason_ids.end()) return it->second;
  const ReasonId id = static_cast<ReasonId>(s_->reasons.size());
  s_->reasons.emplace_back(text);
  s_->reason_ids.emplace(std::string(text), id);
  return id;
}

const std::string& Session::ReasonText(ReasonId id) const { return s_->reasons[static_cast<size_t>(id)]; }

void Session::RecordFitError(TaskIndex t, const FitResult& result) {
  TaskFitErrors& f = s_->MutableFit(t);
  ++f.nodes;
  for (ReasonId r : result.reasons) {
    auto it = std::find_if(f.reason_counts.begin(), f.reason_counts.end(), [r](const auto& e) { return e.first == r; });
    if (it == f.reason_counts.end()) f.reason_counts.emplace_back(r, 1);
    else ++it->second;
  }
}

void Session::RecordTaskError(TaskIndex t, absl::string_view message) {
  s_->MutableFit(t).messages.emplace_back(message);
}

void Session::ResetTaskFitErrors(TaskIndex t) {
  if (s_->fit_slot[static_cast<size_t>(t)] < 0) return;
  TaskFitErrors& f = s_->MutableFit(t);
  if (f.empty() && f.hyper_node == kNone) return;  // tries reset often: most have nothing
  f.reason_counts.clear();
  f.nodes = 0;
  f.messages.clear();
  f.hyper_node = kNone;
}

void Session::SetTaskFitErrorsHyperNode(TaskIndex t, HyperNodeIndex h) { s_->MutableFit(t).hyper_node = h; }

void Session::RecordQueueRefusal(TaskIndex t, QueueIndex q) { s_->MutableFit(t).refused_by_queue = q; }

bool Session::TaskHasFitErrors(TaskIndex t) const { return !s_->Fit(t).empty(); }

void Session::SetJobCondition(JobIndex j, SharedText type, SharedText reason, SharedText message) {
  const int32_t slot = s_->job_status_slot[static_cast<size_t>(j)];
  if (slot < 0) return;  // not in the session: no status is returned
  Decisions& d = s_->decisions;
  PodGroupStatus::Conditions& conds = d.pod_groups[static_cast<size_t>(slot)].conditions;
  // A job's first condition of its type (the usual case) is made in place.
  PodGroupCondition* c = nullptr;
  for (PodGroupCondition& old : conds) {
    if (old.type == type) {
      c = &old;
      break;
    }
  }
  if (c == nullptr) {
    conds.push_back(PodGroupCondition{std::move(type), SharedText::Literal("True"), std::move(reason),
                                      std::move(message), s_->transition_id});
    return;
  }
  *c = PodGroupCondition{std::move(type), SharedText::Literal("True"), std::move(reason), std::move(message),
                         s_->transition_id};
  for (PodGroupCondition& old : conds) {
    if (&old != c && old.type == c->type) old = *c;  // every later one of the type too
  }
}

void Session::AddWarning(std::string warning) { s_->decisions.warnings.push_back(std::move(warning)); }

void Session::AddVolumeBinding(VolumeBinding binding) {
  s_->decisions.volume_bindings.push_back(std::move(binding));
}

void Session::SetPodAnnotation(TaskIndex t, std::string key, std::string value) {
  std::vector<PodAnnotation>& list = s_->pod_annotations[t];
  for (PodAnnotation& a : list) {
    if (a.key == key) {
      a.value = std::move(value);
      return;
    }
  }
  list.push_back({std::move(key), std::move(value)});
}

void Session::RemovePodAnnotations(TaskIndex t) { s_->pod_annotations.erase(t); }

const std::vector<PodAnnotation>* Session::pod_annotations(TaskIndex t) const {
  auto it = s_->pod_annotations.find(t);
  return it == s_->pod_annotations.end() ? nullptr : &it->second;
}

}  // namespace vcsched
