// A HostTree over Value trees, as a C++ host would write one over its own objects: the
// tests and the watch fuzzer read events through it and compare with the Value path.
#ifndef VCSCHED_TESTS_TESTING_VALUE_HOST_TREE_H_
#define VCSCHED_TESTS_TESTING_VALUE_HOST_TREE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/value.h"

namespace vcsched::testing {

// A node equal to `unreadable` stands for something YAML cannot hold; `problem_text` is
// reported as a host reports a key that is not text.
class ValueHostTree final : public HostTree {
 public:
  const Value* unreadable = nullptr;
  std::string problem_text;

  Kind kind(Node n) const override;
  absl::string_view scalar(Node n, std::string* scratch) const override;
  bool quoted(Node n) const override;
  size_t size(Node n) const override;
  bool next_entry(Node map, size_t* cursor, absl::string_view* key, Node* value) const override;
  Node item(Node list, size_t i) const override;
  std::string describe(Node) const override { return "a test object"; }
  std::string problem() const override { return problem_text; }
};

// JSON text as a Value, its scalars spelled as the JSON reader spells them (a number in
// its shortest exact form, booleans plain, strings quoted). Fails on invalid JSON.
absl::StatusOr<Value> JsonToValue(absl::string_view json);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_VALUE_HOST_TREE_H_
