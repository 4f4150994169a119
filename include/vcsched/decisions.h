// What a session decided: binds, evictions, pipelined tasks, PodGroup statuses and the
// reasons behind them. Every list is sorted, and ToString() is stable for diffs.
//
// Names and texts are SharedText values: each owns a share of the storage it points
// into (the snapshot's names, or a text store of the session's), so a session copies no
// string per placement and every value stays valid wherever it is copied, on its own,
// after the Decisions it came from are gone. Filled by hand (a test's expected outcome),
// a field takes a std::string or a literal and keeps its own copy.
#ifndef VCSCHED_DECISIONS_H_
#define VCSCHED_DECISIONS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "vcsched/shared_text.h"

namespace vcsched {

// A pod annotation the binder writes with a bind: the Binding's metadata.annotations,
// which the API server copies onto the pod (deviceshare's volcano.sh/gpu-index).
struct PodAnnotation {
  std::string key;
  std::string value;
  bool operator==(const PodAnnotation& o) const { return key == o.key && value == o.value; }
};

struct Bind {
  SharedText task;  // "namespace/name" of the pod
  SharedText node;
  // What a plugin wrote for the pod while placing it and the pod does not already carry
  // with that value, by key; usually none.
  std::vector<PodAnnotation> annotations;
};

struct Eviction {
  SharedText task;       // the victim, "namespace/name"
  SharedText action;     // preempt, reclaim, shuffle, ...
  SharedText preemptor;  // the task the eviction makes room for; empty for shuffle
  SharedText reason;
};

struct Pipelined {
  SharedText task;
  SharedText node;  // the node the task waits on
  // Evictions made the room (preempt, reclaim, gangpreempt, gangreclaim): Volcano then
  // writes `node` as the pod's status.nominatedNodeName; allocate's pipelines do not.
  bool eviction_occurred = false;
};

struct PodGroupCondition {
  SharedText type;    // Scheduled or Unschedulable
  SharedText status;  // "True"
  SharedText reason;  // e.g. NotEnoughResources
  SharedText message;
  SharedText transition_id;
};

struct PodGroupStatus {
  SharedText job;  // "namespace/name" of the PodGroup
  SharedText old_phase;
  SharedText phase;
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  // Written by this session; inline because a session writes one (Scheduled or
  // Unschedulable) for almost every PodGroup.
  using Conditions = absl::InlinedVector<PodGroupCondition, 1>;
  Conditions conditions;
};

// A claim of a bound pod that the binder must bind first (VolumeBinding's PreBind): to
// the PersistentVolume the session matched it to, or, with `volume` empty, to a volume
// provisioned for `node` (the claim gets volume.kubernetes.io/selected-node).
struct VolumeBinding {
  std::string task;   // the pod, "namespace/name"
  std::string claim;  // "namespace/name"
  std::string volume;
  std::string node;
};

// Why a pending task was left unplaced.
struct TaskReason {
  SharedText task;
  SharedText reason;  // Unschedulable or Schedulable (placed, but the gang was not)
  SharedText message;
};

struct Decisions {
  std::vector<Bind> binds;
  std::vector<Eviction> evictions;
  std::vector<Pipelined> pipelined;
  std::vector<PodGroupStatus> pod_groups;
  std::vector<TaskReason> task_reasons;
  std::vector<VolumeBinding> volume_bindings;  // by claim
  std::vector<std::string> warnings;

  // A copy of `text` in a text store shared by every text kept this way: cheaper than
  // a SharedText of its own when a session writes thousands of messages. Not safe to
  // call on two copies of one Decisions from different threads at once.
  SharedText Keep(absl::string_view text);

  // Sorts every list by its key (task or job); RunSession returns sorted Decisions.
  void Sort();
  // One line per item: "bind ns/p -> n1", "evict ...", "podgroup ns/pg Inqueue -> Running".
  std::string ToString() const;

 private:
  struct TextStore;
  std::shared_ptr<TextStore> texts_;
  SharedText::Owner texts_owner_;  // a share of texts_, for the texts kept there
};

}  // namespace vcsched

#endif  // VCSCHED_DECISIONS_H_
