// How a bind is written for a host: the Binding manifest (with the annotations the API
// server copies onto the pod) and the annotations as JSON. Shared by -o yaml and -o kubectl.
#ifndef VCSCHED_SRC_IO_BINDING_TEXT_H_
#define VCSCHED_SRC_IO_BINDING_TEXT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "vcsched/decisions.h"

namespace vcsched::internal {

std::string AnnotationsJson(const std::vector<PodAnnotation>& annotations);
std::string BindingManifest(absl::string_view ns, absl::string_view name, const Bind& b);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_IO_BINDING_TEXT_H_
