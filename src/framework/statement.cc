// Statement: tentative session changes, kept or undone as a whole (vcsched/statement.h).
#include "vcsched/statement.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/framework/session_state.h"

namespace vcsched {

absl::Status Statement::Allocate(TaskIndex t, NodeIndex n) {
  Session::State& s = SessionInternals::Of(*ssn_);
  const TaskStatus prev = s.status[static_cast<size_t>(t)];
  if (prev != TaskStatus::kPending) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(t).key, " is not pending"));
  }
  s.MoveTask(t, TaskStatus::kAllocated, n);
  s.FireAllocate(t);
  ops_.push_back({OpKind::kAllocate, t, n, prev, kNone});
  return absl::OkStatus();
}

absl::Status Statement::Pipeline(TaskIndex t, NodeIndex n, bool eviction_occurred) {
  Session::State& s = SessionInternals::Of(*ssn_);
  const TaskStatus prev = s.status[static_cast<size_t>(t)];
  if (prev != TaskStatus::kPending) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(t).key, " is not pending"));
  }
  s.MoveTask(t, TaskStatus::kPipelined, n);
  s.eviction_occurred[static_cast<size_t>(t)] = eviction_occurred;
  s.FireAllocate(t);
  if (s.explain != nullptr) s.explain->pipelined_by[static_cast<size_t>(t)] = s.explain->stage;
  ops_.push_back({OpKind::kPipeline, t, n, prev, kNone});
  return absl::OkStatus();
}

absl::Status Statement::Evict(TaskIndex victim, absl::string_view action, TaskIndex preemptor,
                              absl::string_view reason) {
  Session::State& s = SessionInternals::Of(*ssn_);
  const TaskStatus prev = s.status[static_cast<size_t>(victim)];
  if (prev != TaskStatus::kRunning && prev != TaskStatus::kBound) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(victim).key, " is not running"));
  }
  const NodeIndex n = s.node[static_cast<size_t>(victim)];
  if (n == kNone) {
    return absl::FailedPreconditionError(absl::StrCat("task ", s.task(victim).key, " is on no node of the snapshot"));
  }
  s.MoveTask(victim, TaskStatus::kReleasing, n);
  s.FireDeallocate(victim);
  texts_.emplace_back(std::string(action), std::string(reason));
  ops_.push_back({OpKind::kEvict, victim, n, prev, preemptor, static_cast<int32_t>(texts_.size() - 1)});
  return absl::OkStatus();
}

void Statement::Merge(Statement& other) {
  for (Op op : other.ops_) {
    if (op.text >= 0) {
      texts_.push_back(std::move(other.texts_[static_cast<size_t>(op.text)]));
      op.text = static_cast<int32_t>(texts_.size() - 1);
    }
    ops_.push_back(op);
  }
  other.ops_.clear();
  other.texts_.clear();
}

void Statement::Commit() {
  Session::State& s = SessionInternals::Of(*ssn_);
  for (const Op& op : ops_) {
    switch (op.kind) {
      case OpKind::kAllocate:
        if (s.status[static_cast<size_t>(op.task)] != TaskStatus::kAllocated) break;
        if (!internal::CacheTakesBind(s, op.task)) {
          // Volcano's Statement.Commit undoes an allocation whose bind the cache refused.
          s.MoveTask(op.task, TaskStatus::kPending, kNone);
          s.FireDeallocate(op.task);
          break;
        }
        s.MoveTask(op.task, TaskStatus::kBinding, op.node);
        s.AddBind(op.task);
        break;
      case OpKind::kPipeline:
        break;
      case OpKind::kEvict: {
        auto& [action, reason] = texts_[static_cast<size_t>(op.text)];
        s.decisions.evictions.push_back({s.Name(s.task(op.task).key), s.decisions.Keep(action),
                                         op.preemptor == kNone ? SharedText() : s.Name(s.task(op.preemptor).key),
                                         s.decisions.Keep(reason)});
        break;
      }
    }
  }
  ops_.clear();
  texts_.clear();
}

void Statement::Discard() {
  Session::State& s = SessionInternals::Of(*ssn_);
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
    const Op& op = *it;
    const size_t ti = static_cast<size_t>(op.task);
    s.last_txn_node[ti] = s.node[ti];
    s.last_txn_status[ti] = s.status[ti];
    switch (op.kind) {
      case OpKind::kEvict:
        s.MoveTask(op.task, TaskStatus::kRunning, op.node);
        s.FireAllocate(op.task);
        break;
      case OpKind::kAllocate:
      case OpKind::kPipeline:
        s.MoveTask(op.task, TaskStatus::kPending, kNone);
        s.FireDeallocate(op.task);
        break;
    }
  }
  ops_.clear();
  texts_.clear();
}

std::vector<Statement::Placement> Statement::Placements() const {
  std::vector<Placement> out;
  for (const Op& op : ops_) {
    if (op.kind != OpKind::kEvict) out.push_back({op.task, op.node, op.kind == OpKind::kPipeline});
  }
  return out;
}

}  // namespace vcsched
