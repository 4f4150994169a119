// The living cluster for Python: watch events in, snapshots out, decisions applied.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "absl/strings/str_cat.h"
#include "bindings/python/status_errors.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/watch.h"

namespace py = pybind11;

namespace vcsched::python {
namespace {

// A Python object as a Value, as YAML would hold it: str as a string, int, float and bool
// as plain scalars, None as null. Depth and size are bounded (a cyclic or absurd object
// is refused, not followed). CPython's own calls: this runs once per field of every
// object a host streams in.
std::string Text(PyObject* s) {
  Py_ssize_t n = 0;
  const char* data = PyUnicode_AsUTF8AndSize(s, &n);
  if (data == nullptr) throw py::error_already_set();
  return std::string(data, static_cast<size_t>(n));
}

Value ToValue(PyObject* o, const std::string& where, int depth, int64_t* budget) {
  if (depth > 200 || --*budget < 0) throw InputError(where + ": the object is nested too deep or too large");
  if (o == Py_None) return Value::Null();
  if (PyBool_Check(o)) return Value::Bool(o == Py_True);
  if (PyUnicode_Check(o)) return Value::String(Text(o));
  if (PyLong_Check(o) || PyFloat_Check(o)) {
    py::object text = py::reinterpret_steal<py::object>(PyLong_Check(o) ? PyObject_Str(o) : PyObject_Repr(o));
    if (!text) throw py::error_already_set();
    return Value::Plain(Text(text.ptr()));
  }
  if (PyDict_Check(o)) {
    Value m = Value::Map();
    m.entries().reserve(static_cast<size_t>(PyDict_Size(o)));
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) {
        throw InputError(where + ": a map key is not a string: " + py::repr(py::handle(key)).cast<std::string>());
      }
      m.entries().emplace_back(Text(key), ToValue(value, where, depth + 1, budget));
    }
    return m;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Value l = Value::List();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    l.items().reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) l.Push(ToValue(PySequence_Fast_GET_ITEM(o, i), where, depth + 1, budget));
    return l;
  }
  if (PyMapping_Check(o) && !PySequence_Check(o)) {  // another Mapping: through a dict
    py::dict d(py::reinterpret_borrow<py::object>(o));
    return ToValue(d.ptr(), where, depth, budget);
  }
  throw InputError(where + ": cannot read a " + std::string(Py_TYPE(o)->tp_name) + " as YAML");
}

// Applies dict events in order, converted to Values first (with the GIL), then applied
// without it; the first refused one raises, naming its position (the events before it
// stay applied). Returns the notes.
std::vector<std::string> ApplyEvents(Cluster& cluster, const py::iterable& events, const std::string& name) {
  std::vector<Value> values;
  std::vector<std::string> where;
  int64_t index = 0;
  for (py::handle e : events) {
    where.push_back(absl::StrCat(name, ": event ", ++index));
    int64_t budget = int64_t{1} << 22;
    values.push_back(ToValue(e.ptr(), where.back(), 0, &budget));
  }
  std::vector<std::string> notes;
  absl::Status failed;
  {
    py::gil_scoped_release release;
    for (size_t i = 0; i < values.size() && failed.ok(); ++i) {
      failed = ApplyWatchEvent(cluster, values[i], where[i], &notes);
    }
  }
  if (!failed.ok()) Raise(failed);
  return notes;
}

py::dict Report(const ApplyReport& r) {
  py::dict out;
  out["binds"] = r.binds;
  out["evictions"] = r.evictions;
  out["pipelined"] = r.pipelined;
  out["pod_group_phases"] = r.pod_group_phases;
  out["pod_group_statuses"] = r.pod_group_statuses;
  out["conflicts"] = r.conflicts;
  return out;
}

}  // namespace

void RegisterCluster(py::module_& m) {
  // A Volcano Job's manifest as a scenario held it, handed from load_scenario to a
  // Cluster without converting it to Python and back.
  py::class_<Value>(m, "_Manifest");
  py::class_<Cluster>(m, "Cluster")
      .def(py::init<>())
      .def_static("from_snapshot", &Cluster::FromSnapshot, py::arg("snapshot"))
      .def("apply_events", &ApplyEvents, py::arg("events"), py::arg("name"))
      .def("snapshot", [](const Cluster& c) { return Unwrap(c.Snapshot()); })
      .def("put_volcano_job", [](Cluster& c, const Value& manifest) {
             if (absl::Status s = c.PutVolcanoJob(manifest); !s.ok()) Raise(s);
           }, py::arg("manifest"))
      .def("apply_decisions", [](Cluster& c, const Decisions& d, int64_t now) { return Report(c.Apply(d, now)); },
           py::arg("decisions"), py::arg("now") = 0)
      .def("to_yaml", [](const Cluster& c, const SchedulerConfig& config) { return ClusterToYaml(c, &config); },
           py::arg("config"))
      .def_property_readonly("generation", &Cluster::generation)
      .def_property_readonly("counts", [](const Cluster& c) {
        py::dict out;
        out["nodes"] = c.nodes().size();
        out["pods"] = c.pods().size();
        out["pod_groups"] = c.pod_groups().size();
        out["queues"] = c.queues().size();
        out["priority_classes"] = c.priority_classes().size();
        out["namespaces"] = c.namespaces().size();
        out["volcano_jobs"] = c.volcano_jobs().size();
        return out;
      })
      .def_property_readonly("snapshot_counts", [](const Cluster& c) {
        py::dict out;
        out["built"] = c.snapshot_counts().built;
        out["patched"] = c.snapshot_counts().patched;
        return out;
      });
}

}  // namespace vcsched::python
