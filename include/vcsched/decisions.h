// What a session decided: binds, evictions, pipelined tasks, PodGroup statuses and the
// reasons behind them. Every list is sorted, and ToString() is stable for diffs.
//
// Names and texts are views, so that a session makes no string per placement: names
// point into the snapshot's storage, which the Decisions keep alive, and composed texts
// (messages, reasons) into the Decisions' own text store. Both are shared by copies, so
// a view stays valid while any copy of the Decisions it came from lives.
// Filling one by hand (a test's expected outcome): literals may be used as they are;
// a composed string goes through Keep(), since a view of a temporary dangles.
#ifndef VCSCHED_DECISIONS_H_
#define VCSCHED_DECISIONS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"

namespace vcsched {

struct Bind {
  absl::string_view task;  // "namespace/name" of the pod
  absl::string_view node;
};

struct Eviction {
  absl::string_view task;       // the victim, "namespace/name"
  absl::string_view action;     // preempt, reclaim, shuffle, ...
  absl::string_view preemptor;  // the task the eviction makes room for; empty for shuffle
  absl::string_view reason;
};

struct Pipelined {
  absl::string_view task;
  absl::string_view node;  // the node the task waits on (its nominated node)
};

struct PodGroupCondition {
  absl::string_view type;    // Scheduled or Unschedulable
  absl::string_view status;  // "True"
  absl::string_view reason;  // e.g. NotEnoughResources
  absl::string_view message;
  absl::string_view transition_id;
};

struct PodGroupStatus {
  absl::string_view job;  // "namespace/name" of the PodGroup
  absl::string_view old_phase;
  absl::string_view phase;
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  // Written by this session; inline because a session writes one (Scheduled or
  // Unschedulable) for almost every PodGroup.
  using Conditions = absl::InlinedVector<PodGroupCondition, 1>;
  Conditions conditions;
};

// Why a pending task was left unplaced.
struct TaskReason {
  absl::string_view task;
  absl::string_view reason;  // Unschedulable or Schedulable (placed, but the gang was not)
  absl::string_view message;
};

struct Decisions {
  std::vector<Bind> binds;
  std::vector<Eviction> evictions;
  std::vector<Pipelined> pipelined;
  std::vector<PodGroupStatus> pod_groups;
  std::vector<TaskReason> task_reasons;
  std::vector<std::string> warnings;

  // A view of a copy of `text` in this Decisions' text store (shared by its copies;
  // not safe to call on two copies from different threads at once).
  absl::string_view Keep(absl::string_view text);
  // Keeps `storage` alive as long as this Decisions or a copy of it lives: for views
  // into storage the Decisions do not own (a snapshot's names).
  void Share(std::shared_ptr<const void> storage);

  // Sorts every list by its key (task or job); RunSession returns sorted Decisions.
  void Sort();
  // One line per item: "bind ns/p -> n1", "evict ...", "podgroup ns/pg Inqueue -> Running".
  std::string ToString() const;

 private:
  struct TextStore;
  std::shared_ptr<TextStore> texts_;
  std::vector<std::shared_ptr<const void>> shared_;
};

}  // namespace vcsched

#endif  // VCSCHED_DECISIONS_H_
