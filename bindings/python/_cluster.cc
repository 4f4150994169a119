// The living cluster for Python: watch events in, snapshots out, decisions applied.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "bindings/python/status_errors.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/io/watch.h"

namespace py = pybind11;

namespace vcsched::python {
namespace {

// Python objects read in place as a document tree: str as a string, int, float and bool
// as plain scalars, None as null, dicts as maps, lists and tuples as lists. Another
// Mapping is read through a dict made once and kept for the reading. Runs with the GIL
// held: the readers visit only the fields they read, so nothing is converted first.
class PyTree final : public HostTree {
 public:
  Kind kind(Node n) const override {
    PyObject* o = Obj(n);
    const unsigned long flags = Py_TYPE(o)->tp_flags;  // the type's flags first: no subtype walks
    if ((flags & (Py_TPFLAGS_UNICODE_SUBCLASS | Py_TPFLAGS_LONG_SUBCLASS)) != 0) return Kind::kScalar;  // bool is an int
    if ((flags & Py_TPFLAGS_DICT_SUBCLASS) != 0) return Kind::kMap;
    if ((flags & (Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS)) != 0) return Kind::kList;
    if (o == Py_None) return Kind::kNull;
    return PyFloat_Check(o) ? Kind::kScalar : Kind::kOther;
  }

  absl::string_view scalar(Node n, std::string* scratch) const override {
    PyObject* o = Obj(n);
    if (PyUnicode_Check(o)) return Utf8(o);
    if (PyBool_Check(o)) return o == Py_True ? "true" : "false";
    if (!PyLong_Check(o) && !PyFloat_Check(o)) return "";
    // A number's text as Python spells it (repr keeps a float's every digit).
    py::object text = py::reinterpret_steal<py::object>(PyLong_Check(o) ? PyObject_Str(o) : PyObject_Repr(o));
    if (!text) {
      Note(absl::StrCat("a number cannot be read: ", Fetched()));
      return "";
    }
    *scratch = std::string(Utf8(text.ptr()));
    return *scratch;
  }

  bool quoted(Node n) const override { return PyUnicode_Check(Obj(n)); }

  size_t size(Node n) const override {
    PyObject* o = Obj(n);
    if (PyDict_Check(o)) return static_cast<size_t>(PyDict_GET_SIZE(o));
    if (PyList_Check(o) || PyTuple_Check(o)) return static_cast<size_t>(PySequence_Fast_GET_SIZE(o));
    return 0;
  }

  bool next_entry(Node map, size_t* cursor, absl::string_view* key, Node* value) const override {
    PyObject* o = Obj(map);
    if (!PyDict_Check(o)) return false;
    Py_ssize_t pos = static_cast<Py_ssize_t>(*cursor);
    PyObject* k = nullptr;
    PyObject* v = nullptr;
    if (!PyDict_Next(o, &pos, &k, &v)) return false;
    *cursor = static_cast<size_t>(pos);
    if (PyUnicode_Check(k)) {
      *key = Utf8(k);
    } else {
      Note(absl::StrCat("a map key is not a string: ", Repr(k)));
      *key = "";
    }
    *value = AsNode(v);
    return true;
  }

  Node item(Node list, size_t i) const override {
    PyObject* o = Obj(list);
    if ((!PyList_Check(o) && !PyTuple_Check(o)) || i >= static_cast<size_t>(PySequence_Fast_GET_SIZE(o))) {
      return Py_None;
    }
    return AsNode(PySequence_Fast_GET_ITEM(o, static_cast<Py_ssize_t>(i)));
  }

  std::string describe(Node n) const override { return absl::StrCat("a ", Py_TYPE(Obj(n))->tp_name); }
  std::string problem() const override { return problem_; }

  // Made ready for the next event: its problems and dicts are its own.
  void Reset() {
    problem_.clear();
    made_.clear();
    kept_.clear();
  }
  // A root handed in by the host, read through a dict when it is another Mapping.
  Node Root(PyObject* o) const { return AsNode(o); }

  // Walks the whole tree once before it is read, as the loader's parsers bound a
  // document: nesting at most 200 deep, at most 4 million nodes, keys that are strings,
  // values YAML can hold. The first problem is kept (problem()). The walk also brings
  // the objects into the cache for the readers that follow.
  bool Check(Node root) const {
    int64_t budget = int64_t{1} << 22;
    return CheckNode(Obj(root), 0, &budget);
  }

 private:
  static PyObject* Obj(Node n) { return const_cast<PyObject*>(static_cast<const PyObject*>(n)); }

  // Inline for nearly every key and value, whose bytes are their UTF-8 (ASCII).
  __attribute__((always_inline)) absl::string_view Utf8(PyObject* s) const {
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
      return absl::string_view(static_cast<const char*>(PyUnicode_DATA(s)), static_cast<size_t>(PyUnicode_GET_LENGTH(s)));
    }
    return EncodedUtf8(s);
  }
  absl::string_view EncodedUtf8(PyObject* s) const {
    Py_ssize_t n = 0;
    const char* data = PyUnicode_AsUTF8AndSize(s, &n);  // kept in the str object: stable while it lives
    if (data == nullptr) {
      Note(absl::StrCat("a string cannot be read as UTF-8: ", Fetched()));
      return "";
    }
    return absl::string_view(data, static_cast<size_t>(n));
  }

  // A child as a node: another Mapping (not a dict, not a sequence) is read through a
  // dict made once per reading.
  Node AsNode(PyObject* o) const {
    constexpr unsigned long kReadable = Py_TPFLAGS_UNICODE_SUBCLASS | Py_TPFLAGS_DICT_SUBCLASS |
                                        Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_LONG_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS;
    if ((Py_TYPE(o)->tp_flags & kReadable) != 0 || o == Py_None) return o;
    return AsMapping(o);
  }

  bool CheckNode(PyObject* o, int depth, int64_t* budget) const {
    if (depth > 200 || --*budget < 0) {
      Note("the object is nested too deep or too large");
      return false;
    }
    switch (kind(o)) {
      case Kind::kNull:
      case Kind::kScalar: return true;
      case Kind::kMap: {
        // Entries are taken a batch at a time (one walk of the dict): a batch's keys and
        // values are asked for together, then checked. They are held while checked, as
        // reading a child that is another Mapping runs its code, which may change the dict.
        constexpr int kBatch = 16;
        PyObject* keys[kBatch];
        PyObject* values[kBatch];
        Py_ssize_t pos = 0;
        for (bool more = true; more;) {
          int n = 0;
          while (n < kBatch && (more = PyDict_Next(o, &pos, &keys[n], &values[n]))) {
            Prefetch(keys[n]);
            Prefetch(values[n]);
            Py_INCREF(keys[n]);
            Py_INCREF(values[n]);
            ++n;
          }
          bool ok = true;
          for (int i = 0; i < n && ok; ++i) {
            if (!PyUnicode_Check(keys[i])) {
              Note(absl::StrCat("a map key is not a string: ", Repr(keys[i])));
              ok = false;
            } else {
              ok = CheckNode(Obj(AsNode(values[i])), depth + 1, budget);
            }
          }
          for (int i = 0; i < n; ++i) {
            Py_DECREF(keys[i]);
            Py_DECREF(values[i]);
          }
          if (!ok) return false;
        }
        return true;
      }
      case Kind::kList: {
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n; ++i) Prefetch(PySequence_Fast_GET_ITEM(o, i));
        for (Py_ssize_t i = 0; i < n; ++i) {
          if (!CheckNode(Obj(AsNode(PySequence_Fast_GET_ITEM(o, i))), depth + 1, budget)) return false;
        }
        return true;
      }
      case Kind::kOther: break;
    }
    if (problem_.empty()) Note(absl::StrCat("cannot read a ", Py_TYPE(o)->tp_name, " as YAML"));
    return false;
  }

  // Asks for an object's first 64 bytes (a str's header and its first characters): a
  // dict's or list's children are asked for together, so that their cache misses overlap
  // instead of following one another, and the readers after the walk find them cached.
  static void Prefetch(const PyObject* o) {
    __builtin_prefetch(o);
    __builtin_prefetch(reinterpret_cast<const char*>(o) + 63);
  }

  Node AsMapping(PyObject* o) const {
    if (PyFloat_Check(o) || !PyMapping_Check(o) || PySequence_Check(o)) return o;
    if (auto it = made_.find(o); it != made_.end()) return it->second;
    py::object d = py::reinterpret_steal<py::object>(PyDict_New());
    if (!d || PyDict_Merge(d.ptr(), o, 1) != 0) {
      Note(absl::StrCat("cannot read a ", Py_TYPE(o)->tp_name, " as a map: ", Fetched()));
      return Py_None;
    }
    kept_.push_back(py::reinterpret_borrow<py::object>(o));  // its dict's key stays valid
    kept_.push_back(d);
    made_.emplace(o, d.ptr());
    return d.ptr();
  }

  std::string Repr(PyObject* o) const {
    py::object r = py::reinterpret_steal<py::object>(PyObject_Repr(o));
    if (!r) return Fetched();
    Py_ssize_t n = 0;
    const char* data = PyUnicode_AsUTF8AndSize(r.ptr(), &n);
    if (data == nullptr) return Fetched();
    return std::string(data, static_cast<size_t>(std::min<Py_ssize_t>(n, 200)));
  }

  // The pending Python error's message, cleared (the reading reports it instead).
  static std::string Fetched() {
    if (!PyErr_Occurred()) return "an unknown error";
    py::error_already_set e;
    return e.what();
  }

  void Note(std::string what) const {
    if (problem_.empty()) problem_ = std::move(what);
  }

  mutable std::string problem_;
  mutable absl::flat_hash_map<PyObject*, PyObject*> made_;
  mutable std::vector<py::object> kept_;
};

// Applies dict events in order, each read in place from its Python objects (the GIL
// stays held: the readers touch them); the first refused one raises, naming its
// position (the events before it stay applied). Returns the notes.
std::vector<std::string> ApplyEvents(Cluster& cluster, const py::iterable& events, const std::string& name) {
  std::vector<std::string> notes;
  PyTree tree;
  int64_t index = 0;
  std::string where;  // one buffer for every event's place
  for (py::handle e : events) {
    tree.Reset();
    where.assign(name);
    absl::StrAppend(&where, ": event ", ++index);
    const HostTree::Node root = tree.Root(e.ptr());
    if (!tree.Check(root)) Raise(absl::InvalidArgumentError(absl::StrCat(where, ": ", tree.problem())));
    if (absl::Status s = ApplyWatchEvent(cluster, tree, root, where, &notes); !s.ok()) Raise(s);
  }
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
