// A Pod's watch event made only of plain Python objects, read straight into a PodSpec:
// the bulk of a host's events, read without the document tree the general reader walks.
#ifndef VCSCHED_BINDINGS_PYTHON_PLAIN_POD_EVENT_H_
#define VCSCHED_BINDINGS_PYTHON_PLAIN_POD_EVENT_H_

#include <Python.h>

#include "vcsched/io/watch.h"
#include "vcsched/objects.h"

namespace vcsched::python {

// Reads `event`, {"type": "ADDED"|"MODIFIED"|"DELETED", "object": <a v1 Pod>}, into
// `*type` and `*pod` (which must be a default PodSpec), as the general reader would read
// it. Declines (false; `*pod` is then to be discarded) whatever it does not read exactly
// so: any object but a dict, list, tuple, str, int, float, bool or None of Python's own
// types, a field of another shape than the usual one, a field the general reader warns
// about, affinity and spread constraints, a pod ObjectProblems refuses, a tree deeper or
// larger than a pod usually is. The general reader then reads and reports it. No Python
// code runs: only objects of Python's own types are looked into.
bool ReadPlainPodEvent(PyObject* event, WatchEvent::Type* type, PodSpec* pod);

}  // namespace vcsched::python

#endif  // VCSCHED_BINDINGS_PYTHON_PLAIN_POD_EVENT_H_
