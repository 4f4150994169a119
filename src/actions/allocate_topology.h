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

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "src/actions/helpers.h"
#include "src/actions/hyper_node_room.h"
#include "src/actions/placement_node_choice.h"
#include "vcsched/statement.h"

namespace vcsched::internal {

class TopologyAllocator {
 public:
  TopologyAllocator(Session& ssn, bool error_cache, const ResourceReasons& reasons)
      : ssn_(ssn), error_cache_(error_cache), reasons_(reasons) {}

  // Whether job j takes this path: it or a sub-group has network topology, or its
  // PodGroup has subGroupPolicy.
  static bool Uses(const Session& ssn, JobIndex j);

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
    std::vector<TaskIndex> tasks;  // in reverse task order: the next to try is last
  };
  struct JobSheet {
    std::vector<int32_t> order;    // sub-groups with tasks left, a heap by sub-group order
    std::map<int32_t, SubSheet> subs;
    std::shared_ptr<const std::set<int32_t>> required;  // the sub-groups minSubGroups needs
  };

  // One dry run of job j in HyperNode hn: its placements, what is left of the sheet and
  // the sum of its sub-groups' scores, or nullopt when the job ends neither ready nor
  // pipelined. Nothing stays applied.
  struct JobTry {
    HyperNodeIndex hn;
    Placements placements;
    JobSheet rest;
    double score;
    int rounds;  // sub-group placements made
    // With `keep`, a one-round success is left applied here instead of undone: the
    // caller takes it as it is, where it would make the same placements again.
    std::optional<Statement> applied;
  };
  absl::StatusOr<std::optional<JobTry>> TryJobIn(JobIndex j, const JobSheet& sheet, HyperNodeIndex hn,
                                                 const std::vector<HyperNodeIndex>& saved, bool keep = false);
  // Per resource, the least the gang's still-needed tasks request together (the
  // smallest requests), or nullopt when no minimum is left to place.
  std::optional<std::vector<int64_t>> LeastNeeded(JobIndex j, const JobSheet& sheet) const;
  // Whether hn's room (idle + releasing - pipelined, summed) is short of `least` in some
  // resource: a try there must fail.
  bool CannotHold(const std::vector<int64_t>& least, HyperNodeIndex hn);
  // The score each candidate's try would have, when it is known beforehand (one
  // sub-group, searched in the candidate alone).
  bool KnownScores(JobIndex j, const JobSheet& sheet, const std::vector<HyperNodeIndex>& candidates,
                   std::vector<double>* scores) const;
  bool HardOrPolicy(JobIndex j) const;
  // Whether no try of job j can place a task: its queue refuses each of its pending
  // tasks now, and a try that places nothing leaves the session as it found it, so every
  // try sees the same refusals. Not while explaining (each try's verdicts are recorded)
  // nor with a nomination to redeem (a try drops it).
  bool QueueRefusesAll(JobIndex j, const JobSheet& sheet) const;
  // A job with a hard limit that found no HyperNode: each pending task without fit
  // errors says which tier bound it and which HyperNode came closest (by free room).
  void ExplainRefusal(JobIndex j, const JobSheet& sheet);
  absl::StatusOr<std::optional<Statement>> AllocateForJob(JobIndex j, JobSheet& sheet, HyperNodeIndex within);
  absl::StatusOr<std::optional<Statement>> AllocateForSubJob(JobIndex j, int32_t k, SubSheet& sheet,
                                                             HyperNodeIndex for_job, double* score);
  absl::StatusOr<std::optional<Statement>> AllocateTasksIn(JobIndex j, int32_t k, SubSheet& sheet, HyperNodeIndex hn);
  absl::StatusOr<Statement> Replay(const Placements& placements);
  bool NeedContinue(JobIndex j, int32_t k) const;
  // Clears the fit errors of job j's tasks (k == kNone) or of sub-group k's.
  void ResetFitErrors(JobIndex j, int32_t k);

  // Heap steps over a JobSheet's sub-groups and a SubSheet's tasks.
  bool SubJobBefore(JobIndex j, const JobSheet& sheet, int32_t a, int32_t b) const;
  void PushSubJob(JobIndex j, JobSheet& sheet, int32_t k) const;
  int32_t PopSubJob(JobIndex j, JobSheet& sheet) const;
  TaskIndex PopTask(SubSheet& sheet) const;

  Session& ssn_;
  bool error_cache_;
  const ResourceReasons& reasons_;
  HyperNodeRoom room_{ssn_};
  PlacementNodeChoice placement_choice_{ssn_};
  std::map<JobIndex, JobSheet> sheets_;
  // Roles that found no node, per job and sub-group, since the last reset (a try in a
  // new HyperNode starts clean, as Volcano resets the job's fit errors).
  std::map<std::pair<JobIndex, int32_t>, std::set<std::string>> failed_roles_;
  // The HyperNode chosen for a job in its last visit, and its sub-groups' HyperNodes
  // under each HyperNode the job was tried in (Volcano's Recorder).
  std::map<JobIndex, HyperNodeIndex> job_decision_;
  HyperNodeIndex last_try_ = kNone;  // the HyperNode of the last job try run
  // Sub-groups whose tasks recorded fit errors since their last reset.
  absl::flat_hash_set<std::pair<JobIndex, int32_t>> with_errors_;
  std::map<JobIndex, std::map<HyperNodeIndex, std::map<int32_t, HyperNodeIndex>>> sub_decisions_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_ALLOCATE_TOPOLOGY_H_
