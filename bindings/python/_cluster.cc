// The living cluster for Python: watch events in, snapshots out, decisions applied.
#include <algorithm>
#include <optional>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "absl/strings/str_cat.h"
#include "bindings/python/plain_pod_event.h"
#include "bindings/python/status_errors.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/io/watch.h"

namespace py = pybind11;

namespace vcsched::python {
namespace {

// A Python object as PyTree walked it.
struct Record {
  PyObject* object = nullptr;  // held; for another Mapping, the dict made from it
  PyObject* key_object = nullptr;  // held: this entry's key, in a map
  PyTypeObject* type = nullptr;  // the object's own type, for messages
  const char* key = nullptr;
  const char* text = nullptr;  // a str's UTF-8
  uint32_t key_size = 0;
  uint32_t text_size = 0;
  uint32_t begin = 0;  // a map's entries or a list's items: records_[begin, begin + size)
  uint32_t size = 0;
  HostTree::Kind kind = HostTree::Kind::kNull;
  bool quoted = false;
};
const Record kNull{};  // an item past a list's end

// Python objects walked once into flat records, then read as a document tree: str as a
// string, int, float and bool as plain scalars, None as null, dicts as maps, lists and
// tuples as lists; another Mapping is read through a dict made from it. The walk bounds
// the tree as the loader's parsers bound a document (nesting at most 200 deep, at most
// 4 million nodes, keys that are strings, values YAML can hold): the readers then find a
// map's entries and a string's text in the records, not by asking Python again for
// every field they seek. A tree of plain dicts, lists, tuples, strs, ints, floats, bools
// and None is read without holding its objects: the event holds them, and no Python code
// runs until the next event (nothing here calls into a user's type). Any other object
// (a subclass, another Mapping) makes the walk start again, holding each object (a
// strong reference) until the next event, since reading it may run code that drops the
// others.
class PyTree final : public HostTree {
 public:
  PyTree() = default;
  PyTree(const PyTree&) = delete;
  PyTree& operator=(const PyTree&) = delete;
  ~PyTree() override { Reset(); }

  Kind kind(Node n) const override { return Rec(n).kind; }

  absl::string_view scalar(Node n, std::string* scratch) const override {
    const Record& r = Rec(n);
    if (r.kind != Kind::kScalar) return "";
    if (r.quoted) return absl::string_view(r.text, r.text_size);
    PyObject* o = r.object;
    if (PyBool_Check(o)) return o == Py_True ? "true" : "false";
    // A number's text as Python spells it (repr keeps a float's every digit).
    py::object text = py::reinterpret_steal<py::object>(PyLong_Check(o) ? PyObject_Str(o) : PyObject_Repr(o));
    absl::string_view view = text ? Utf8(text.ptr()) : absl::string_view();
    if (!text || (view.empty() && PyErr_Occurred())) {
      Note(absl::StrCat("a number cannot be read: ", Fetched()));
      return "";
    }
    *scratch = std::string(view);
    return *scratch;
  }

  bool quoted(Node n) const override { return Rec(n).quoted; }

  size_t size(Node n) const override {
    const Record& r = Rec(n);
    return r.kind == Kind::kMap || r.kind == Kind::kList ? r.size : 0;
  }

  bool next_entry(Node map, size_t* cursor, absl::string_view* key, Node* value) const override {
    const Record& r = Rec(map);
    if (r.kind != Kind::kMap || *cursor >= r.size) return false;
    const Record& entry = records_[r.begin + *cursor];
    ++*cursor;
    *key = absl::string_view(entry.key, entry.key_size);
    *value = &entry;
    return true;
  }

  Node item(Node list, size_t i) const override {
    const Record& r = Rec(list);
    if (r.kind != Kind::kList || i >= r.size) return &kNull;
    return &records_[r.begin + i];
  }

  std::string describe(Node n) const override {
    const Record& r = Rec(n);
    return absl::StrCat("a ", r.type == nullptr ? "None" : r.type->tp_name);  // kNull has none
  }
  std::string problem() const override { return problem_; }

  // Walks `root` into records, replacing the last event's; nullptr when the tree cannot
  // be read (problem() says why). The records are valid until the next Walk or Reset.
  Node Walk(PyObject* root) {
    for (const bool hold : {false, true}) {
      Reset();
      hold_ = hold;
      Append(1);
      records_[0].object = root;
      Held(records_[0]);
      budget_ = (int64_t{1} << 22) - 1;
      const bool filled = Classify(records_[0]) != Leaf::kCollection || Fill(0, 0);
      if (!needs_hold_) return filled && problem_.empty() ? &records_[0] : nullptr;
    }
    return nullptr;  // not reached: a walk that holds never needs to
  }

 private:
  static const Record& Rec(Node n) { return *static_cast<const Record*>(n); }

  void Reset() {
    for (size_t i = 0; hold_ && i < used_; ++i) {
      Py_XDECREF(records_[i].object);
      Py_XDECREF(records_[i].key_object);
    }
    used_ = 0;
    needs_hold_ = false;
    mappings_.clear();
    problem_.clear();
  }

  // What a record's object is, found when it is held: a scalar or null is complete then;
  // a collection (or anything else) is filled after its siblings.
  enum class Leaf : unsigned char { kDone, kCollection, kFailed };
  Leaf Classify(Record& r) {
    PyObject* o = r.object;
    const PyTypeObject* type = Py_TYPE(o);
    const unsigned long flags = type->tp_flags;  // the type's flags first: no subtype walks
    if ((flags & Py_TPFLAGS_UNICODE_SUBCLASS) != 0) {
      if (!hold_ && type != &PyUnicode_Type) return NeedsHold();
      const absl::string_view text = Utf8(o);
      if (text.empty() && PyErr_Occurred()) {
        Note(absl::StrCat("a string cannot be read as UTF-8: ", Fetched()));
        return Leaf::kFailed;
      }
      r.kind = Kind::kScalar;
      r.quoted = true;
      r.text = text.data();
      r.text_size = static_cast<uint32_t>(text.size());
      return Leaf::kDone;
    }
    if ((flags & Py_TPFLAGS_LONG_SUBCLASS) != 0) {  // bool is an int
      if (!hold_ && type != &PyLong_Type && type != &PyBool_Type) return NeedsHold();
      r.kind = Kind::kScalar;
      return Leaf::kDone;
    }
    if ((flags & (Py_TPFLAGS_DICT_SUBCLASS | Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS)) == 0) {
      if (o == Py_None) return Leaf::kDone;  // kNull
      if (PyFloat_Check(o)) {
        if (!hold_ && type != &PyFloat_Type) return NeedsHold();
        r.kind = Kind::kScalar;
        return Leaf::kDone;
      }
      if (!hold_) return NeedsHold();  // another Mapping, read through a dict made by its code
    } else if (!hold_ && type != &PyDict_Type && type != &PyList_Type && type != &PyTuple_Type) {
      return NeedsHold();
    }
    r.kind = Kind::kOther;  // until Fill makes it a map or a list, or refuses it
    return Leaf::kCollection;
  }

  // A walk that does not hold its objects met one that it must hold: it stops, to start
  // again holding them.
  Leaf NeedsHold() {
    needs_hold_ = true;
    return Leaf::kFailed;
  }

  // Completes record i, classified as a collection: its children's records, each
  // counted against the budget as it is made. By index, as the records grow while
  // their children are added.
  bool Fill(size_t i, int depth) {
    if (depth > 200) {
      Note("the object is nested too deep or too large");
      return false;
    }
    PyObject* o = records_[i].object;
    const unsigned long flags = Py_TYPE(o)->tp_flags;
    if ((flags & (Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS)) != 0) {
      // Items are recorded, then held, then filled: no Python code runs before they are
      // held. Asked for together first, so that their cache misses overlap.
      const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
      if (!Children(i, Kind::kList, n)) return false;
      Record* items = &records_[records_[i].begin];
      for (Py_ssize_t k = 0; k < n; ++k) {
        PyObject* item = PySequence_Fast_GET_ITEM(o, k);
        Prefetch(item);
        items[k].object = item;
      }
      for (Py_ssize_t k = 0; k < n; ++k) Held(items[k]);
      for (Py_ssize_t k = 0; k < n; ++k) {
        if (Classify(items[k]) == Leaf::kFailed) return false;
      }
      return FillChildren(i, depth);
    }
    if ((flags & Py_TPFLAGS_DICT_SUBCLASS) == 0) {
      o = AsDict(i);
      if (o == nullptr) return false;
    }
    // Entries are recorded in one walk of the dict, then held and their keys read, then
    // filled (filling another Mapping runs its code, which may change this dict: the
    // records hold what they saw).
    const Py_ssize_t n = PyDict_GET_SIZE(o);
    if (!Children(i, Kind::kMap, n)) return false;
    Record* entries = &records_[records_[i].begin];
    Py_ssize_t pos = 0;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    for (Py_ssize_t k = 0; k < n && PyDict_Next(o, &pos, &key, &value); ++k) {  // no code runs: n is exact
      Prefetch(key);
      Prefetch(value);
      entries[k].object = value;
      entries[k].key_object = key;
    }
    for (Py_ssize_t k = 0; k < n; ++k) {
      Record& r = entries[k];
      Held(r);
      absl::string_view text;
      if (!PyUnicode_Check(r.key_object)) {
        Note(absl::StrCat("a map key is not a string: ", Repr(r.key_object)));
      } else if (text = Utf8(r.key_object); text.empty() && PyErr_Occurred()) {
        Note(absl::StrCat("a string cannot be read as UTF-8: ", Fetched()));
      } else {
        r.key = text.data();
        r.key_size = static_cast<uint32_t>(text.size());
        Classify(r);
      }
      if (!problem_.empty() || needs_hold_) {
        for (Py_ssize_t rest = k + 1; rest < n; ++rest) entries[rest] = Record{};  // not held: not released
        return false;
      }
    }
    return FillChildren(i, depth);
  }

  // A record's object and key, held until the next event when the walk holds them.
  void Held(Record& r) const {
    if (hold_) {
      Py_INCREF(r.object);
      Py_XINCREF(r.key_object);
    }
    r.type = Py_TYPE(r.object);
  }


  // Asks for an object's first 64 bytes (a str's header and its first characters).
  static void Prefetch(const PyObject* o) {
    __builtin_prefetch(o);
    __builtin_prefetch(reinterpret_cast<const char*>(o) + 63);
  }

  // Makes record i a collection of n children, their records added empty; false (noted)
  // when they would pass the budget, before anything is made for them.
  bool Children(size_t i, Kind kind, Py_ssize_t n) {
    if (n > budget_) {
      Note("the object is nested too deep or too large");
      return false;
    }
    budget_ -= n;
    const size_t begin = Append(static_cast<size_t>(n));
    Record& r = records_[i];
    r.kind = kind;
    r.begin = static_cast<uint32_t>(begin);
    r.size = static_cast<uint32_t>(n);
    return true;
  }

  // n empty records after the used ones; the index of the first. The vector only grows:
  // records are reused from event to event.
  size_t Append(size_t n) {
    const size_t begin = used_;
    used_ += n;
    if (used_ > records_.size()) records_.resize(std::max(used_, 2 * records_.size()));
    for (size_t k = begin; k < used_; ++k) records_[k] = Record{};
    return begin;
  }

  bool FillChildren(size_t i, int depth) {
    const size_t begin = records_[i].begin;
    const size_t end = begin + records_[i].size;
    for (size_t k = begin; k < end; ++k) {
      if (records_[k].kind == Kind::kOther && !Fill(k, depth + 1)) return false;
    }
    return true;
  }

  // Record i's object, another Mapping, replaced by a dict of its entries; nullptr, with
  // the problem noted, when it is not one.
  PyObject* AsDict(size_t i) {
    PyObject* o = records_[i].object;
    if (PyFloat_Check(o) || !PyMapping_Check(o) || PySequence_Check(o)) {
      Note(absl::StrCat("cannot read a ", Py_TYPE(o)->tp_name, " as YAML"));
      return nullptr;
    }
    PyObject* d = PyDict_New();
    if (d == nullptr || PyDict_Merge(d, o, 1) != 0) {
      Py_XDECREF(d);
      Note(absl::StrCat("cannot read a ", Py_TYPE(o)->tp_name, " as a map: ", Fetched()));
      return nullptr;
    }
    // The record holds the dict now; its reference to the Mapping is kept beside it, so
    // that the record's type (for messages) stays the Mapping's.
    records_[i].object = d;
    mappings_.push_back(py::reinterpret_steal<py::object>(o));
    return d;
  }

  // Inline for nearly every key and value, whose bytes are their UTF-8 (ASCII).
  __attribute__((always_inline)) static absl::string_view Utf8(PyObject* s) {
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
      return absl::string_view(static_cast<const char*>(PyUnicode_DATA(s)), static_cast<size_t>(PyUnicode_GET_LENGTH(s)));
    }
    Py_ssize_t n = 0;
    const char* data = PyUnicode_AsUTF8AndSize(s, &n);  // kept in the str object: stable while it lives
    if (data == nullptr) return "";  // PyErr_Occurred() says so
    return absl::string_view(data, static_cast<size_t>(n));
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

  std::vector<Record> records_;  // [0, used_) this event's; the rest kept for the next
  size_t used_ = 0;
  int64_t budget_ = 0;  // records this event may still make
  bool hold_ = false;  // this walk holds its objects
  bool needs_hold_ = false;  // this walk met an object that must be held: it starts again
  std::vector<py::object> mappings_;  // the Mappings read through dicts, held until the next event
  mutable std::string problem_;
};

// Applies dict events in order, each read in place from its Python objects (the GIL
// stays held: the readers touch them); the first refused one raises, naming its
// position (the events before it stay applied). A plain Pod's event is read straight
// into a pod; any other is walked and read as a document. Returns the notes.
std::vector<std::string> ApplyEvents(Cluster& cluster, const py::iterable& events, const std::string& name) {
  std::vector<std::string> notes;
  PyTree tree;
  int64_t index = 0;
  std::string where;  // one buffer for every event's place
  std::optional<PodSpec> pod;
  for (py::handle e : events) {
    where.assign(name);
    absl::StrAppend(&where, ": event ", ++index);
    WatchEvent::Type type = WatchEvent::Type::kAdded;
    if (ReadPlainPodEvent(e.ptr(), &type, &pod.emplace())) {
      if (absl::Status s = ApplyPodEvent(cluster, type, *std::move(pod), where, &notes); !s.ok()) Raise(s);
      continue;
    }
    const HostTree::Node root = tree.Walk(e.ptr());
    if (root == nullptr) Raise(absl::InvalidArgumentError(absl::StrCat(where, ": ", tree.problem())));
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
        out["persistent_volume_claims"] = c.storage().claims.size();
        out["persistent_volumes"] = c.storage().volumes.size();
        out["storage_classes"] = c.storage().classes.size();
        out["csi_nodes"] = c.storage().csi_nodes.size();
        out["resource_quotas"] = c.policy().quotas.size();
        out["pod_disruption_budgets"] = c.policy().disruption_budgets.size();
        out["node_shards"] = c.policy().node_shards.size();
        out["numatopologies"] = c.policy().numatopologies.size();
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
