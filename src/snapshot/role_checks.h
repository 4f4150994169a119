// The minTaskMember checks (Volcano's CheckTaskValid, CheckTaskReady and
// CheckTaskPipelined) over a job's tasks. A snapshot answers them for its tasks as they
// are (a session's opening); a session asks again after a task of the job moved.
#ifndef VCSCHED_SRC_SNAPSHOT_ROLE_CHECKS_H_
#define VCSCHED_SRC_SNAPSHOT_ROLE_CHECKS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "vcsched/snapshot.h"

namespace vcsched {

enum class RoleCheck { kValid, kReady, kPipelined };
inline constexpr int kAllRoleChecks = 0b111;

// Per status: whether a task counts towards each check's minimum (2: only when it is
// best-effort).
inline const std::array<std::array<uint8_t, 3>, kTaskStatusCount>& RoleCountTable() {
  static const std::array<std::array<uint8_t, 3>, kTaskStatusCount> table = [] {
    std::array<std::array<uint8_t, 3>, kTaskStatusCount> t{};
    for (int i = 0; i < kTaskStatusCount; ++i) {
      const auto st = static_cast<TaskStatus>(i);
      const bool held = IsAllocatedStatus(st) || st == TaskStatus::kSucceeded;
      t[i][static_cast<size_t>(RoleCheck::kValid)] = held || st == TaskStatus::kPipelined || st == TaskStatus::kPending;
      t[i][static_cast<size_t>(RoleCheck::kReady)] = held ? 1 : st == TaskStatus::kPending ? 2 : 0;
      t[i][static_cast<size_t>(RoleCheck::kPipelined)] = held || st == TaskStatus::kPipelined ? 1 : st == TaskStatus::kPending ? 2 : 0;
    }
    return t;
  }();
  return table;
}

// The three checks' answers for a job whose minimums are `mins`, over its `tasks` (bit k:
// check k holds), in one walk. `role_slot` and `flags` are per task (DenseFacts);
// `status_of(t)` is task t's status.
template <typename StatusOf>
int RoleAnswers(const std::map<std::string, int32_t>& mins, absl::Span<const TaskIndex> tasks,
                absl::Span<const int32_t> role_slot, absl::Span<const uint8_t> flags, StatusOf status_of) {
  const auto& table = RoleCountTable();
  absl::InlinedVector<std::array<int32_t, 3>, 4> counts(mins.size(), {0, 0, 0});
  for (const TaskIndex task : tasks) {
    const auto t = static_cast<size_t>(task);
    const int32_t slot = role_slot[t];
    if (slot < 0) continue;
    const std::array<uint8_t, 3>& counts_if = table[static_cast<size_t>(status_of(task))];
    const bool best_effort = (flags[t] & kTaskBestEffort) != 0;
    std::array<int32_t, 3>& c = counts[static_cast<size_t>(slot)];
    for (size_t check = 0; check < 3; ++check) c[check] += counts_if[check] == 1 || (counts_if[check] == 2 && best_effort);
  }
  int answers = kAllRoleChecks;
  size_t i = 0;
  for (const auto& [role, min] : mins) {
    for (size_t check = 0; check < 3; ++check) {
      if (min > 0 && counts[i][check] < min) answers &= ~(1 << check);
    }
    ++i;
  }
  return answers;
}

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_ROLE_CHECKS_H_
