// Library statuses as Python exceptions, shared by the extension's source files.
#ifndef VCSCHED_BINDINGS_PYTHON_STATUS_ERRORS_H_
#define VCSCHED_BINDINGS_PYTHON_STATUS_ERRORS_H_

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "absl/status/statusor.h"

namespace vcsched::python {

// Bad input (kInvalidArgument and friends) -> vcsched.Error, a ValueError.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void Raise(const absl::Status& s) {
  const std::string msg(s.message());
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      throw InputError(msg);
    case absl::StatusCode::kNotFound:
      throw NotFound(msg);
    default:
      throw std::runtime_error(msg);
  }
}

template <typename T>
T Unwrap(absl::StatusOr<T> v) {
  if (!v.ok()) Raise(v.status());
  return *std::move(v);
}

// The lifecycle part of the module (admission, expansion, the job simulator, cron).
void RegisterLifecycle(pybind11::module_& m);
// The Cluster (_cluster.cc).
void RegisterCluster(pybind11::module_& m);
void RegisterSimulate(pybind11::module_& m);
void RegisterEta(pybind11::module_& m);

}  // namespace vcsched::python

#endif  // VCSCHED_BINDINGS_PYTHON_STATUS_ERRORS_H_
