// One object read as the loader reads a document (a watch event's object), without the
// per-source work of LoadObjects: from JSON text (a parser kept per thread) or a Value.
#ifndef VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
#define VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/io/scenario.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// `where` names the object's place in messages ("events.json: event 3").
absl::StatusOr<ScenarioObjects> ReadJsonObject(absl::string_view json, const std::string& where,
                                               const LoadOptions& options);
// The same for an object held as a Value tree (whose size and depth its maker bounded).
absl::StatusOr<ScenarioObjects> ReadValueObject(const Value& object, const std::string& where);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
