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

namespace vcsched {

struct SchedulerMemory {
  // The clock of the first session that used this memory (milliseconds since the epoch):
  // when the scheduler started.
  std::optional<int64_t> started_ms;
  // When periodic plugin work last ran, by what it is ("rescheduling", "tdm.evict").
  std::map<std::string, int64_t> last_run_ms;
  // When periodic work is next due (milliseconds, by the same keys): a host that runs
  // sessions only after changes (the simulator) wakes one then.
  std::map<std::string, int64_t> due_ms;

  friend bool operator==(const SchedulerMemory& a, const SchedulerMemory& b) {
    return a.started_ms == b.started_ms && a.last_run_ms == b.last_run_ms && a.due_ms == b.due_ms;
  }
};

}  // namespace vcsched

#endif  // VCSCHED_SCHEDULER_MEMORY_H_
