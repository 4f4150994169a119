// A Statement: tentative placements and evictions, applied to the session at once and
// undoable as a unit (Volcano framework/statement.go).
//
// Each operation changes the session immediately (node accounting, task status, plugin
// event handlers). Commit() turns the log into decisions (binds and evictions; pipelined
// tasks stay in the session). Discard() walks the log back in reverse: a placed task
// becomes Pending again, off any node, and an evicted task becomes Running on its node
// again, whatever its status was before (Bound included), as Volcano's unevict does. A
// Statement destroyed without either leaves its operations applied and uncommitted,
// which is how allocate keeps a pipelined gang's reservation.
#ifndef VCSCHED_STATEMENT_H_
#define VCSCHED_STATEMENT_H_

#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "vcsched/session.h"

namespace vcsched {

class Statement {
 public:
  explicit Statement(Session& session) : ssn_(&session) {}
  Statement(Statement&&) = default;
  Statement& operator=(Statement&&) = default;

  // Pending -> Allocated on `n` (takes Idle). kFailedPrecondition if not Pending.
  absl::Status Allocate(TaskIndex t, NodeIndex n);
  // Pending -> Pipelined on `n` (waits for releasing resources). `eviction_occurred`:
  // the room comes from evictions this action made for it, so `n` becomes the pod's
  // nominated node (Decisions' Pipelined::eviction_occurred).
  absl::Status Pipeline(TaskIndex t, NodeIndex n, bool eviction_occurred = false);
  // Bound/Running -> Releasing, recorded as an eviction by `action` for `preemptor`.
  absl::Status Evict(TaskIndex victim, absl::string_view action, TaskIndex preemptor,
                     absl::string_view reason);
  // Appends `other`'s operations to this statement; `other` is left empty.
  void Merge(Statement& other);
  // Allocations become binds (Binding), evictions become Evictions.
  void Commit();
  // Undoes every operation, last first (see above: an evicted task returns as Running).
  void Discard();
  // The placements made so far (allocations and pipelines), in order: a dry run can be
  // discarded and made again later (Volcano's SaveOperations / RecoverOperations).
  struct Placement {
    TaskIndex task;
    NodeIndex node;
    bool pipelined;
  };
  std::vector<Placement> Placements() const;
  bool empty() const { return ops_.empty(); }
  size_t size() const { return ops_.size(); }

 private:
  enum class OpKind { kAllocate, kPipeline, kEvict };
  struct Op {
    OpKind kind;
    TaskIndex task;
    NodeIndex node;
    TaskStatus previous;
    TaskIndex preemptor;
    int32_t text = -1;  // an eviction's {action, reason} in texts_
  };
  Session* ssn_;
  absl::InlinedVector<Op, 2> ops_;  // most job visits place one or two tasks
  std::vector<std::pair<std::string, std::string>> texts_;
};

}  // namespace vcsched

#endif  // VCSCHED_STATEMENT_H_
