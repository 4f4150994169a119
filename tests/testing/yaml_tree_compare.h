// Parses a text with the block scanner and with libyaml alone and says how their trees
// differ (tests/io/yaml_block_scanner_test.cc and the yaml_fast_fuzz target).
#ifndef VCSCHED_TESTS_TESTING_YAML_TREE_COMPARE_H_
#define VCSCHED_TESTS_TESTING_YAML_TREE_COMPARE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace vcsched::testing {

struct ReaderComparison {
  bool fast = false;       // the block scanner read the text
  std::string difference;  // empty when both readers gave the same tree, failure and error
};

ReaderComparison CompareYamlReaders(absl::string_view text, int max_depth = 100);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_YAML_TREE_COMPARE_H_
