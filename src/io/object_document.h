// One object read as the loader reads a document (a watch event's object), without the
// per-source work of LoadObjects: from JSON text (a parser kept per thread), a Value, or
// a host's own objects.
#ifndef VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
#define VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "src/io/doc_node.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/io/scenario.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// `where` names the object's place in messages ("events.json: event 3"). The forms
// with `out` fill it (emptied first), so that a caller reading objects one after another
// reuses its containers.
absl::StatusOr<ScenarioObjects> ReadJsonObject(absl::string_view json, const std::string& where,
                                               const LoadOptions& options);
absl::Status ReadJsonObject(absl::string_view json, const std::string& where, const LoadOptions& options,
                            ScenarioObjects& out);
// The same for an object held as a Value tree (whose size and depth its maker bounded).
absl::StatusOr<ScenarioObjects> ReadValueObject(const Value& object, const std::string& where);
// Any tree's node (a Value's, say) into `out`, read in full: for an object that
// ReadPlainPod (below) has not taken.
absl::Status ReadNodeObject(const DocNode& object, const std::string& where, ScenarioObjects& out);
// The same for an object in a host's tree, read in place (ReadHostPlainPod has not
// taken it); a problem the tree reports after the walk refuses it.
absl::Status ReadHostObject(const HostTree& tree, HostTree::Node object, const std::string& where,
                            ScenarioObjects& out);

// A Pod with nothing to report (no warning, no error), read into `pod` (a default
// PodSpec made there first): the bulk of a watch stream, read without the tables every
// document goes through. False when the object is anything else or has something to
// report: the general reading (above) then reads it and says what.
bool ReadPlainPod(const DocNode& object, const std::string& where, std::optional<PodSpec>& pod);
// The same for an object in a host's tree; false too when the tree reports a problem.
bool ReadHostPlainPod(const HostTree& tree, HostTree::Node object, const std::string& where,
                      std::optional<PodSpec>& pod);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
