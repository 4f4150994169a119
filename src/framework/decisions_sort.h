// Sorting a session's decisions when some lists are known to be in key order already.
#ifndef VCSCHED_SRC_FRAMEWORK_DECISIONS_SORT_H_
#define VCSCHED_SRC_FRAMEWORK_DECISIONS_SORT_H_

#include "vcsched/decisions.h"

namespace vcsched::internal {

// Lists the caller knows to be sorted by key (their string comparisons are skipped).
struct KnownSorted {
  bool binds = false;
  bool pod_groups = false;
};

// Decisions::Sort, trusting `known`.
void SortDecisions(Decisions& d, KnownSorted known);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_FRAMEWORK_DECISIONS_SORT_H_
