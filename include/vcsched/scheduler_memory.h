// What a scheduler process carries from one session to the next. Volcano keeps it in
// package variables that live as long as the scheduler: when rescheduling's strategies
// last ran, when tdm last evicted. A host that runs sessions one after another (over a
// Cluster, the simulator, replay) passes one SchedulerMemory to each session through
// RunOptions::memory; a session without one is the first of a scheduler started at its
// clock.
#ifndef VCSCHED_SCHEDULER_MEMORY_H_
#define VCSCHED_SCHEDULER_MEMORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vcsched {

// CPUs numa-aware gave a pod that the node's Numatopology does not list yet
// (spec.podAllocations): Volcano's UnassignedNumaPods.
struct NumaClaim {
  std::string uid;
  std::string namespace_;
  std::string name;
  std::map<std::string, std::vector<int32_t>> sets;  // resource name -> CPU ids
  friend bool operator==(const NumaClaim& a, const NumaClaim& b) {
    return a.uid == b.uid && a.namespace_ == b.namespace_ && a.name == b.name && a.sets == b.sets;
  }
};

struct SchedulerMemory {
  // The clock of the first session that used this memory (milliseconds since the epoch):
  // when the scheduler started.
  std::optional<int64_t> started_ms;
  // When periodic plugin work last ran, by what it is ("rescheduling", "tdm.evict").
  std::map<std::string, int64_t> last_run_ms;
  // When periodic work is next due (milliseconds, by the same keys): a host that runs
  // sessions only after changes (the simulator) wakes one then.
  std::map<std::string, int64_t> due_ms;
  // numa-aware: by node name, the claims a Numatopology has not caught up with.
  std::map<std::string, std::vector<NumaClaim>> numa_claims;

  friend bool operator==(const SchedulerMemory& a, const SchedulerMemory& b) {
    return a.started_ms == b.started_ms && a.last_run_ms == b.last_run_ms && a.due_ms == b.due_ms &&
           a.numa_claims == b.numa_claims;
  }
};

}  // namespace vcsched

#endif  // VCSCHED_SCHEDULER_MEMORY_H_
