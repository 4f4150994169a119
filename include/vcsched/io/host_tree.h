// A document tree held in a host's own objects (Python's dicts, lists and scalars), read
// in place by the object readers: an object streamed in by a host reaches the cluster
// without being copied into a Value tree first. The readers visit only the fields they
// read, so the tree is walked once, partly.
#ifndef VCSCHED_IO_HOST_TREE_H_
#define VCSCHED_IO_HOST_TREE_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace vcsched {

// Node handles are the host's own (e.g. PyObject*). The tree and its nodes must outlive
// a reading, and a reading runs on the thread the host allows to touch them (Python:
// with the GIL held).
class HostTree {
 public:
  using Node = const void*;
  enum class Kind : unsigned char {
    kNull,
    kScalar,  // text as YAML reads it: a string's characters, a number or boolean plain
    kMap,
    kList,
    kOther,  // nothing YAML can hold (a set, bytes, an object): a reader refuses it
  };

  virtual ~HostTree() = default;
  virtual Kind kind(Node n) const = 0;
  // The text of a scalar (empty for other kinds); `scratch` holds it when the node does
  // not keep it as UTF-8.
  virtual absl::string_view scalar(Node n, std::string* scratch) const = 0;
  // Whether a scalar is a string (printed quoted where YAML would read it otherwise),
  // not a number or boolean.
  virtual bool quoted(Node n) const = 0;
  // Entries of a map, items of a list; 0 otherwise.
  virtual size_t size(Node n) const = 0;
  // The next entry of a map after *cursor (start at 0), as PyDict_Next walks a dict;
  // false at the end. A map's keys are distinct (the readers take the first of a
  // repeated one; the loader refuses a document that repeats one). A key that is not text is a problem (see `problem`): it is
  // given as "" and the reading fails.
  virtual bool next_entry(Node map, size_t* cursor, absl::string_view* key, Node* value) const = 0;
  // Item i of a list (i < size).
  virtual Node item(Node list, size_t i) const = 0;
  // What the node is, for messages ("a set").
  virtual std::string describe(Node n) const = 0;
  // The first problem met while walking (a key that is not text, an object that could
  // not be read), empty when none: a reading that met one is refused with it.
  virtual std::string problem() const = 0;
};

}  // namespace vcsched

#endif  // VCSCHED_IO_HOST_TREE_H_
