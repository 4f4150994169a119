// Allocate's path for jobs with network topology or sub-group policies (Volcano HEAD's
// allocateForJob / allocateForSubJob / allocateResourcesForTasks): a job is tried in
// each candidate HyperNode of a gradient, its sub-groups in each candidate HyperNode of
// theirs, every try a dry run; the best try is made again for real.
#ifndef VCSCHED_SRC_ACTIONS_ALLOCATE_TOPOLOGY_H_
#define VCSCHED_SRC_ACTIONS_ALLOCATE_TOPOLOGY_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/actions/helpers.h"
#include "vcsched/statement.h"

namespace vcsched::internal {

class TopologyAllocator {
 public:
  TopologyAllocator(Session& ssn, bool error_cache, const ResourceReasons& reasons)
      : ssn_(ssn), error_cache_(error_cache), reasons_(reasons) {}

  // Whether job j takes this path: it or a sub-group has network topology, or its
  // PodGroup has subGroupPolicy.
  static bool Uses(const Session& ssn, JobIndex j);
  static bool HasNetworkTopology(const JobInfo& job);

  // Collects the job's pending tasks by sub-group; false when there are none.
  bool Open(JobIndex j);
  bool Empty(JobIndex j) const;

  // One visit of job j. Returns the statement (its placements applied) when the job is
  // ready or pipelined, else nullopt with nothing applied.
  absl::StatusOr<std::optional<Statement>> Visit(JobIndex j);
  // After the visit's statement was committed: the job and its sub-groups widen their
  // allocated HyperNodes to what the chosen try placed.
  void CommitDecision(JobIndex j);

 private:
  using Placements = std::vector<Statement::Placement>;
  struct SubSheet {
    std::vector<TaskIndex> tasks;  // a heap by task order (pops the first)
  };
  struct JobSheet {
    std::vector<int32_t> order;    // sub-groups with tasks left, a heap by sub-group order
    std::map<int32_t, SubSheet> subs;
    std::shared_ptr<const std::set<int32_t>> required;  // the sub-groups minSubGroups needs
  };

  bool HardOrPolicy(JobIndex j) const;
  absl::StatusOr<std::optional<Statement>> AllocateForJob(JobIndex j, JobSheet& sheet, HyperNodeIndex within);
  absl::StatusOr<std::optional<Statement>> AllocateForSubJob(JobIndex j, int32_t k, SubSheet& sheet,
                                                             HyperNodeIndex for_job, double* score);
  absl::StatusOr<std::optional<Statement>> AllocateTasksIn(JobIndex j, int32_t k, SubSheet& sheet, HyperNodeIndex hn);
  absl::StatusOr<Statement> Replay(const Placements& placements);
  bool NeedContinue(JobIndex j, int32_t k) const;

  // Heap steps over a JobSheet's sub-groups and a SubSheet's tasks.
  bool SubJobBefore(JobIndex j, const JobSheet& sheet, int32_t a, int32_t b) const;
  void PushSubJob(JobIndex j, JobSheet& sheet, int32_t k) const;
  int32_t PopSubJob(JobIndex j, JobSheet& sheet) const;
  void PushTask(SubSheet& sheet, TaskIndex t) const;
  TaskIndex PopTask(SubSheet& sheet) const;

  Session& ssn_;
  bool error_cache_;
  const ResourceReasons& reasons_;
  std::map<JobIndex, JobSheet> sheets_;
  // Roles that found no node, per job and sub-group, since the last reset (a try in a
  // new HyperNode starts clean, as Volcano resets the job's fit errors).
  std::map<std::pair<JobIndex, int32_t>, std::set<std::string>> failed_roles_;
  // The HyperNode chosen for a job in its last visit, and its sub-groups' HyperNodes
  // under each HyperNode the job was tried in (Volcano's Recorder).
  std::map<JobIndex, HyperNodeIndex> job_decision_;
  std::map<JobIndex, std::map<HyperNodeIndex, std::map<int32_t, HyperNodeIndex>>> sub_decisions_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_ALLOCATE_TOPOLOGY_H_
