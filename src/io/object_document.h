// One object's JSON text read as the loader reads a document (a watch event's object),
// without the per-source work of LoadObjects: a parser kept per thread, one document.
#ifndef VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
#define VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/io/scenario.h"

namespace vcsched::io_internal {

// `where` names the object's place in messages ("events.json: event 3").
absl::StatusOr<ScenarioObjects> ReadJsonObject(absl::string_view json, const std::string& where,
                                               const LoadOptions& options);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_OBJECT_DOCUMENT_H_
