// Compares two snapshots field by field (what sessions read from them), for tests of
// snapshots made in different ways (built, patched) from the same objects.
#ifndef VCSCHED_TESTS_TESTING_SNAPSHOT_COMPARE_H_
#define VCSCHED_TESTS_TESTING_SNAPSHOT_COMPARE_H_

#include <string>

#include "vcsched/snapshot.h"

namespace vcsched::testing {

// The first difference found, as a line naming the object and field; empty when none.
std::string SnapshotDifference(const Snapshot& a, const Snapshot& b);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_SNAPSHOT_COMPARE_H_
