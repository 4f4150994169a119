// Invariants every session must keep, checked after the fact from the snapshot and the
// decisions alone (property tests and the session fuzzer share them).
#ifndef VCSCHED_TESTS_TESTING_INVARIANTS_H_
#define VCSCHED_TESTS_TESTING_INVARIANTS_H_

#include <string>
#include <vector>

#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/snapshot.h"

namespace vcsched::testing {

// Returns one line per violated invariant (empty when all hold). A plugin counts only
// with the switch of the extension point it acts through (enablePredicate,
// enabledJobReady, enabledAllocatable), as in Volcano:
//  - binds go to existing nodes, only for pending pods, and at most once per pod;
//  - per node, pods holding it before, less evicted ones, plus binds fit allocatable,
//    where the node fitted before the session (best-effort binds count against pod
//    slots only under predicates: backfill itself tests no resources);
//  - a bind's node passes nodeSelector / required node affinity / NoSchedule taints /
//    unschedulable (when predicates is on);
//  - no pod bound now shares a topology domain with a placed pod when either one's
//    required pod anti-affinity keeps the other out (predicates with pod affinity on);
//  - with gang's job readiness on, a job that got binds holds at least minMember
//    afterwards (pending best-effort pods count, as Volcano's readiness does);
//  - a queue with a capability, within it before, is within it after (when capacity's or
//    proportion's allocatable check is on);
//  - an evicted pod was Running or Bound and is not also bound or pipelined;
//  - with network-topology-aware's gradients on, a job or sub-group with a hard limit that
//    got pods holds them all within one HyperNode of at most that tier (best-effort pods
//    aside: backfill places them without topology, as Volcano's does; and pipelines when
//    reclaim runs, which places without topology too).
std::vector<std::string> CheckInvariants(const Snapshot& snap, const SchedulerConfig& config, const Decisions& d);

// A digest of the snapshot's visible state, to show a session did not change it.
std::string SnapshotDigest(const Snapshot& snap);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_INVARIANTS_H_
