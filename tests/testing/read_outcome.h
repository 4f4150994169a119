// What a reading of objects comes to, as text to compare two readings by: the cluster
// state the objects make, after their warnings, or the error (of the reading or of the
// cluster's puts).
#ifndef VCSCHED_TESTS_TESTING_READ_OUTCOME_H_
#define VCSCHED_TESTS_TESTING_READ_OUTCOME_H_

#include <string>

#include "absl/status/statusor.h"
#include "vcsched/io/scenario.h"

namespace vcsched::testing {

// "error: ...", or "warning: ..." lines, then "refused: ..." or the cluster's YAML.
// `unplaced`: messages without the places YAML gives (", line 12:5"), to compare with a
// reading of a tree that has none.
std::string ReadOutcome(absl::StatusOr<ScenarioObjects> objects, bool unplaced = false);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_READ_OUTCOME_H_
