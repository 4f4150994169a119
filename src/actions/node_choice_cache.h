// Allocate's node choice for a run of identical tasks (same shape) in a session with
// group scorers (without them, PlacementNodeChoice::ChooseReusable serves).
//
// For built-in predicates and scores, a task's feasibility and score on a node depend
// only on its shape and that node's state, so after a placement on node n only n needs
// another look: the first task of a shape pays for the whole cluster, later tasks of the
// same shape (in any job) replay the session's log of changed nodes and scan cached
// scores. A tournament tree over the nodes keeps the best one at its root, so a placement
// costs O(changed nodes x log nodes), not a scan. With one group scorer (HyperNode fill)
// the nodes are ranked within their group and the groups' bests against each other, so
// a group whose score moved is re-ranked among the groups, not node by node. Decisions
// are exactly those of the full pass.
#ifndef VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
#define VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_

#include <cstdint>
#include <vector>

#include "src/actions/helpers.h"
#include "src/actions/node_tournament.h"
#include "src/actions/shape_entries.h"

namespace vcsched::internal {

class NodeChoiceCache {
 public:
  // Whether `t` may use the cache: built-in node callbacks only, no pod (anti-)affinity
  // or spread anywhere it could matter, no PreferNoSchedule taints, no nominated node.
  static bool Usable(Session& ssn, TaskIndex t);

  // The best node for `t` (Volcano's gradients: idle fit first, then future idle), or
  // kNone when no node is feasible. REQUIRES: Usable(ssn, t), ssn.HasGroupNodeOrderFns().
  NodeIndex Choose(Session& ssn, TaskIndex t);

 private:
  struct Entry {
    // Per node: 2 fits idle resources, 1 fits only future idle, 0 infeasible.
    std::vector<uint8_t> rank;
    std::vector<double> score;
    // With group scorers (Session::AddGroupNodeOrderFn): each node's other scores; the
    // groups' are added anew whenever anything changed, since a placement anywhere may
    // change any group's score.
    std::vector<double> ungrouped;
    std::vector<std::vector<double>> group_scores;  // per group scorer, per group, as last added
    // Tournament tree: leaves at [leaves, 2*leaves) hold node indices (kNone past the
    // last node); each inner slot holds the better of its two children.
    std::vector<NodeIndex> tree;
    size_t leaves = 0;
    size_t log_pos = 0;  // position in the session's node-change log when last synced
    // With exactly one group scorer: a tournament tree per group over its members, and
    // `tree` over the groups (each leaf the best node of its group); `score` holds each
    // node's total, its ungrouped score plus its group's.
    bool by_group = false;
    std::vector<std::vector<NodeIndex>> group_trees;
    std::vector<double> next_group_scores;  // scratch: the groups' scores now
    std::vector<uint8_t> moved;             // scratch: per group, all 0 between calls
    std::vector<size_t> touched;            // scratch: groups whose best may have changed
    std::vector<std::pair<int32_t, size_t>> within;  // scratch: changed nodes by group
  };
  void Fill(Session& ssn, TaskIndex t, Entry& e);
  void Refresh(Session& ssn, TaskIndex t, NodeIndex n, Entry& e);
  // Totals from the ungrouped scores and the groups' scores now: the nodes in
  // `changed` (their ungrouped scores were refreshed) and those of groups whose score
  // moved get new totals and tree slots; `rebuild` recomputes every node.
  static void Regroup(const Session& ssn, TaskIndex t, Entry& e, const std::vector<NodeIndex>& changed, bool rebuild);
  // Volcano's order: idle fit before future fit, then higher score, then lower index.
  static NodeIndex Better(const Entry& e, NodeIndex a, NodeIndex b);
  static void BuildTree(Entry& e);
  // Replays the matches above the leaves of `nodes`.
  static void UpdateTreeAt(Entry& e, std::vector<NodeIndex> nodes);

  // The one-scorer layout: ranking within groups, then across them.
  static double Total(const Session& ssn, const Entry& e, NodeIndex n);
  // Better's order on `score` holding totals, ties to the lower index in any tree.
  static NodeIndex BetterByTotal(const Entry& e, NodeIndex a, NodeIndex b);
  static void BuildGroupTree(const Session& ssn, Entry& e, int32_t g);
  static void BuildGroupsTree(Entry& e);
  static void RegroupByGroup(const Session& ssn, TaskIndex t, Entry& e, const std::vector<NodeIndex>& changed,
                             bool rebuild);

  ShapeEntries<Entry> entries_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
