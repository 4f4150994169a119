// Node choice for tasks whose answers depend on where other pods are: a placement
// scorer's (network topology: the tier a pod would share with its sub-group's placed
// pods; pod affinity and spread scores) or a split predicate's placement part (pod
// affinity and spread filters).
//
// Such a task's answers change with other pods' placements, but its node-local
// feasibility and scores depend only on its shape and each node's own state
// (Session::NodeLocalScoresReusable). Those are kept per shape and node, and refreshed
// from the session's node-change log, so a try over N nodes costs one look at the nodes
// that changed plus O(N) placement checks and additions per task, instead of N
// predicate and scoring passes. The placement and group scores are added anew, in the
// session's order (ScoreNodes), so the choice is exactly SelectBestNodeByGradient's
// over the feasible nodes.
#ifndef VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_
#define VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/actions/helpers.h"
#include "src/actions/node_tournament.h"
#include "src/actions/shape_entries.h"

namespace vcsched::internal {

class PlacementNodeChoice {
 public:
  explicit PlacementNodeChoice(const Session& ssn);

  // Looks at `nodes` (ascending) for `t`; false when none is feasible (the caller's full
  // pass then records why). REQUIRES: ssn.NodeLocalScoresReusable(t).
  bool Rank(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes);
  // Rank over every node of the cluster, its node-local ranks kept as lists per shape
  // and updated from the node-change log: a try costs the nodes that changed and the
  // placement checks, not a look at every node's cache.
  bool RankAll(const Session& ssn, TaskIndex t);
  // For a task whose whole node choice is reusable (Session::NodeChoiceReusable) in a
  // session without group scorers: the best node by the same kept ranks and scores
  // (idle fit first, then score, then lower index), or kNone when none is feasible.
  NodeIndex ChooseReusable(const Session& ssn, TaskIndex t);
  // After a true Rank for `t`: Volcano's gradient (nodes whose idle resources fit, else
  // those whose future idle fits), then the highest score, then the lower index.
  NodeIndex Best(const Session& ssn, TaskIndex t);

 private:
  // A node label's domains, for bounds that name one (PlacementBound::domain_key): each
  // node's group (the nodes without the label are the last group; with no key, every
  // node is in that one), its slot among the group's members, and each group's members,
  // ascending.
  struct Domains {
    std::vector<int32_t> group_of, slot_of;
    std::vector<std::vector<NodeIndex>> members;
  };
  struct Entry {
    std::vector<uint8_t> known;  // per node: 1 while rank and local are current
    std::vector<uint8_t> rank;   // 2 fits idle, 1 fits only future idle, 0 infeasible
    std::vector<double> local;   // ScoreNodesNodeLocal
    size_t log_pos = 0;          // position in the session's node-change log when synced
    // RankAll's entries only: the nodes of rank 2 and of rank 1, ascending, and whether
    // they were made; tournaments by (rank, local, lower index) over each group of the
    // domain keys asked so far (the empty key: one over every node).
    std::vector<NodeIndex> idle, future;
    bool listed = false;
    struct KeyGroups {
      const Domains* domains;
      std::vector<NodeTournament> groups;
    };
    std::vector<KeyGroups> by_key;
  };
  void Sync(const Session& ssn, Entry& e) const;
  // Works out node n's rank and node-local score for the shape of `t`.
  static void Look(const Session& ssn, TaskIndex t, NodeIndex n, Entry& e);
  // The best gradient's nodes of `idle` (else `future`) that the placement checks keep,
  // into pool_; false when there are none.
  bool Pool(const Session& ssn, TaskIndex t, const Entry& e, const std::vector<NodeIndex>& idle,
            const std::vector<NodeIndex>& future);
  // RankAll's refresh of e from the node-change log (or from scratch).
  void SyncAll(const Session& ssn, TaskIndex t, Entry& e);
  // RankAll when the placement parts bound where they answer differently (bound_): the
  // nodes listed, and the best of the others in each group they are answered alike in
  // (all of them, or each domain of the bound's key), stand for the whole cluster.
  bool RankBounded(const Session& ssn, TaskIndex t, Entry& e);
  // The groups of `key` in e's tournaments, made on first use.
  Entry::KeyGroups& GroupsOf(const Session& ssn, Entry& e, const std::string& key);
  const Domains& DomainsOf(const Session& ssn, const std::string& key);
  // Replays node n's matches in e's tournaments after its rank or score changed.
  static void Replay(Entry& e, NodeIndex n);

  size_t num_nodes_;
  ShapeEntries<Entry> entries_;      // Rank's, filled lazily over the nodes asked
  ShapeEntries<Entry> all_entries_;  // RankAll's, with their lists and tournaments
  std::map<std::string, Domains, std::less<>> domains_;  // by label key, for this session
  std::vector<NodeIndex> pool_;  // Rank's nodes of the best gradient, ascending
  std::vector<NodeIndex> idle_, future_;  // scratch: Rank's nodes of rank 2 and 1
  PlacementBound bound_;                  // scratch: Session::PlacementBoundNodes
  std::vector<uint32_t> stamp_;           // per node: stamp_now_ while in bound_.nodes
  uint32_t stamp_now_ = 0;
  std::vector<size_t> heap_;              // scratch: NodeTournament::BestExcept
  std::vector<double> scores_;   // scratch for Best
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_
