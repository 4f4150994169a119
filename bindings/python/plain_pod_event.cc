#include "bindings/python/plain_pod_event.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "vcsched/snapshot.h"

namespace vcsched::python {
namespace {

// Past these the general reader reads the event, with its own limits (nesting 200 deep,
// about 4 million values).
constexpr int kMaxDepth = 64;
constexpr int64_t kMaxValues = int64_t{1} << 18;

bool IsSequence(PyObject* o) { return Py_IS_TYPE(o, &PyList_Type) || Py_IS_TYPE(o, &PyTuple_Type); }
bool IsDict(PyObject* o) { return Py_IS_TYPE(o, &PyDict_Type); }
// Absent or None: what the readers take as a field's default.
bool Unset(PyObject* o) { return o == nullptr || o == Py_None; }

// The text of an exact str; false for anything else, or a str without a UTF-8 form (the
// general reader reports it).
bool Text(PyObject* o, absl::string_view* out) {
  if (!Py_IS_TYPE(o, &PyUnicode_Type)) return false;
  if (PyUnicode_IS_COMPACT_ASCII(o)) {
    *out = absl::string_view(static_cast<const char*>(PyUnicode_DATA(o)), static_cast<size_t>(PyUnicode_GET_LENGTH(o)));
    return true;
  }
  Py_ssize_t n = 0;
  const char* data = PyUnicode_AsUTF8AndSize(o, &n);
  if (data == nullptr) {
    PyErr_Clear();
    return false;
  }
  *out = absl::string_view(data, static_cast<size_t>(n));
  return true;
}

// One event's reading. Each function returns false to decline.
class PlainPodReader {
 public:
  bool Event(PyObject* event, WatchEvent::Type* type, PodSpec* pod) {
    static constexpr absl::string_view kNames[] = {"type", "object"};
    PyObject* f[2];
    absl::string_view name;
    if (!Fields(event, kNames, f, 0) || f[0] == nullptr || !Text(f[0], &name)) return false;
    if (name == "ADDED") *type = WatchEvent::Type::kAdded;
    else if (name == "MODIFIED") *type = WatchEvent::Type::kModified;
    else if (name == "DELETED") *type = WatchEvent::Type::kDeleted;
    else return false;  // BOOKMARK, ERROR, SCHEDULE, unknown: the general reader's
    return f[1] != nullptr && Pod(f[1], pod) && ObjectProblems(*pod).empty();
  }

 private:
  bool Pod(PyObject* o, PodSpec* p) {
    static constexpr absl::string_view kNames[] = {"apiVersion", "kind", "metadata", "spec", "status"};
    PyObject* f[5];
    absl::string_view api, kind;
    if (!Fields(o, kNames, f, 1) || f[0] == nullptr || f[1] == nullptr) return false;
    if (!Text(f[0], &api) || api != "v1" || !Text(f[1], &kind) || kind != "Pod") return false;
    return f[2] != nullptr && Metadata(f[2], p) && Spec(f[3], p) && Status(f[4], p);
  }

  bool Metadata(PyObject* o, PodSpec* p) {
    static constexpr absl::string_view kNames[] = {"name",        "namespace",         "uid",
                                                   "labels",      "annotations",       "creationTimestamp",
                                                   "deletionTimestamp", "ownerReferences", "resourceVersion"};
    PyObject* f[9];
    if (!Fields(o, kNames, f, 2)) return false;
    if (!String(f[0], "", &p->name) || !String(f[1], "default", &p->namespace_) || !String(f[2], "", &p->uid) ||
        !StringMap(f[3], &p->labels) || !StringMap(f[4], &p->annotations) ||
        p->annotations.count("vcsched.io/expected-runtime") > 0 ||  // the general reader checks it
        !String(f[8], "", &p->resource_version)) {
      return false;
    }
    if (!Unset(f[5])) {
      absl::string_view text;
      if (!Text(f[5], &text) || !ParseApiTime(text, &p->creation_time)) return false;
    }
    // Any value but null marks the pod as being deleted; none is read.
    p->deleting = !Unset(f[6]);
    if (f[6] != nullptr && !Plain(f[6], 3)) return false;
    return Owners(f[7], p);
  }

  // The controlling owner's uid (the last one that says it controls, as the reader takes it).
  bool Owners(PyObject* o, PodSpec* p) {
    if (Unset(o)) return true;
    if (!IsSequence(o)) return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      static constexpr absl::string_view kNames[] = {"controller", "uid"};
      PyObject* f[2];
      if (!Fields(PySequence_Fast_GET_ITEM(o, i), kNames, f, 4)) return false;
      bool controller = false;
      if (!Bool(f[0], &controller)) return false;
      if (controller) {
        if (!String(f[1], "", &p->controller_uid)) return false;
      } else if (f[1] != nullptr && !Plain(f[1], 5)) {
        return false;
      }
    }
    return true;
  }

  bool Spec(PyObject* o, PodSpec* p) {
    static constexpr absl::string_view kNames[] = {
        "schedulerName", "nodeName",       "priority", "priorityClassName", "preemptionPolicy",
        "nodeSelector",  "affinity",       "tolerations", "topologySpreadConstraints", "containers",
        "initContainers", "overhead",      "schedulingGates", "volumes", "hostNetwork",
        "activeDeadlineSeconds"};
    PyObject* f[16] = {};  // no spec: each field absent
    if (!Unset(o) && !Fields(o, kNames, f, 2)) return false;
    if (!String(f[0], "", &p->scheduler_name) || !String(f[1], "", &p->node_name) || !Priority(f[2], p) ||
        !String(f[3], "", &p->priority_class_name) || !String(f[4], "", &p->preemption_policy) ||
        !StringMap(f[5], &p->node_selector)) {
      return false;
    }
    if (f[6] != nullptr) return false;  // affinity
    if (!Tolerations(f[7], &p->tolerations)) return false;
    if (!Unset(f[8]) && (!IsSequence(f[8]) || PySequence_Fast_GET_SIZE(f[8]) != 0)) return false;  // spread
    bool host_network = false;
    if (!Bool(f[14], &host_network)) return false;
    if (!Containers(f[9], false, host_network, &p->containers) ||
        !Containers(f[10], true, host_network, &p->init_containers) || !Resources(f[11], &p->overhead)) {
      return false;
    }
    if (!Unset(f[12])) {
      if (!IsSequence(f[12]) || !Plain(f[12], 3)) return false;
      p->scheduling_gated = PySequence_Fast_GET_SIZE(f[12]) > 0;
    }
    if (!Unset(f[15])) {  // an int; anything else the general reader reports
      if (!Py_IS_TYPE(f[15], &PyLong_Type)) return false;
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(f[15], &overflow);
      if (overflow != 0) return false;
      p->active_deadline_seconds = v;
    }
    return Volumes(f[13]);
  }

  bool Priority(PyObject* o, PodSpec* p) {
    if (Unset(o)) return true;
    if (!Py_IS_TYPE(o, &PyLong_Type)) return false;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) return false;
    p->priority = static_cast<int32_t>(v);
    return true;
  }

  bool Tolerations(PyObject* o, std::vector<Toleration>* out) {
    if (Unset(o)) return true;
    if (!IsSequence(o)) return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      static constexpr absl::string_view kNames[] = {"key", "operator", "value", "effect"};
      PyObject* f[4];
      if (!Fields(PySequence_Fast_GET_ITEM(o, i), kNames, f, 4)) return false;
      Toleration& t = out->emplace_back();
      if (!String(f[0], "", &t.key) || !String(f[1], "Equal", &t.op) || !String(f[2], "", &t.value) ||
          !String(f[3], "", &t.effect)) {
        return false;
      }
      if (t.op != "Equal" && t.op != "Exists" && t.op != "Gt" && t.op != "Lt") return false;
    }
    return true;
  }

  bool Containers(PyObject* o, bool init, bool host_network, std::vector<Container>* out) {
    if (Unset(o)) return true;
    if (!IsSequence(o)) return false;
    out->reserve(static_cast<size_t>(PySequence_Fast_GET_SIZE(o)));
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      static constexpr absl::string_view kNames[] = {"name", "resources", "restartPolicy", "ports", "image"};
      PyObject* f[5];
      if (!Fields(PySequence_Fast_GET_ITEM(o, i), kNames, f, 4)) return false;
      Container& c = out->emplace_back();
      if (!String(f[0], "", &c.name) || !String(f[4], "", &c.image)) return false;
      if (!Unset(f[1])) {
        static constexpr absl::string_view kResourceNames[] = {"requests", "limits", "claims"};
        PyObject* r[3];
        // Claims are warned about (not modelled).
        if (!Fields(f[1], kResourceNames, r, 5) || r[2] != nullptr || !Resources(r[0], &c.requests)) return false;
        if (!Unset(r[1])) {
          if (!Resources(r[1], &c.limits)) return false;
          // The API server defaults a missing request to the limit.
          for (const auto& [resource, amount] : c.limits) c.requests.emplace(resource, amount);
        }
      }
      if (init) {
        std::string policy;
        if (!String(f[2], "", &policy)) return false;
        c.restartable = policy == "Always";
      } else if (f[2] != nullptr && !Plain(f[2], 5)) {
        return false;
      }
      if (!Ports(f[3], host_network)) return false;
    }
    return true;
  }

  // Container ports that are not host ports: nothing to read. A host port (or any port
  // of a hostNetwork pod) is the general reader's.
  bool Ports(PyObject* o, bool host_network) {
    static constexpr absl::string_view kHostPort[] = {"hostPort"};
    if (host_network && !Unset(o) && (!IsSequence(o) || PySequence_Fast_GET_SIZE(o) > 0)) return false;
    return ListWithout(o, kHostPort, /*null_is_absent=*/true, 6);
  }

  // Volumes are not read here: a claim or an ephemeral volume (the volume filters read
  // them) or an image volume (ImageLocality reads it) is the general reader's.
  bool Volumes(PyObject* o) {
    static constexpr absl::string_view kClaim[] = {"persistentVolumeClaim"};
    static constexpr absl::string_view kEphemeral[] = {"ephemeral"};
    static constexpr absl::string_view kImage[] = {"image"};
    return ListWithout(o, kClaim, /*null_is_absent=*/false, 4) && ListWithout(o, kEphemeral, /*null_is_absent=*/false, 4) &&
           ListWithout(o, kImage, /*null_is_absent=*/false, 4);
  }

  // A list read no further than this: a map in it must not hold `field` (null counts as
  // absent when `null_is_absent`); everything else in it must be plain.
  bool ListWithout(PyObject* o, const absl::string_view (&field)[1], bool null_is_absent, int depth) {
    if (Unset(o)) return true;
    if (!IsSequence(o)) return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      PyObject* item = PySequence_Fast_GET_ITEM(o, i);
      PyObject* f[1];
      if (!IsDict(item)) {
        if (!Plain(item, depth)) return false;
      } else if (!Fields(item, field, f, depth) || !(f[0] == nullptr || (null_is_absent && f[0] == Py_None))) {
        return false;
      }
    }
    return true;
  }

  bool Status(PyObject* o, PodSpec* p) {
    static constexpr absl::string_view kNames[] = {"phase", "nominatedNodeName", "conditions", "startTime", "qosClass"};
    PyObject* f[5] = {};  // no status: each field absent
    return (Unset(o) || Fields(o, kNames, f, 2)) && String(f[0], "Pending", &p->phase) &&
           String(f[1], "", &p->nominated_node_name) && Conditions(f[2], p) && StartTime(f[3], p) &&
           String(f[4], "", &p->qos_class);
  }

  // status.startTime; a value that is not an API time is the general reader's.
  bool StartTime(PyObject* o, PodSpec* p) {
    if (o == nullptr || o == Py_None) return true;
    absl::string_view text;
    int64_t seconds = 0;
    if (!Text(o, &text) || !ParseApiTime(text, &seconds)) return false;
    p->start_time = seconds;
    return true;
  }

  // The PodScheduled=True condition's time; any other condition is passed over.
  bool Conditions(PyObject* o, PodSpec* p) {
    if (Unset(o)) return true;
    if (!IsSequence(o)) return false;
    static constexpr absl::string_view kNames[] = {"type", "status", "lastTransitionTime"};
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      PyObject* f[3];
      absl::string_view type, status, time;
      if (!Fields(PySequence_Fast_GET_ITEM(o, i), kNames, f, 3)) return false;
      if (f[0] == nullptr || f[1] == nullptr || !Text(f[0], &type) || !Text(f[1], &status)) return false;
      if (type != "PodScheduled" || status != "True") continue;
      int64_t seconds = 0;
      if (f[2] == nullptr || !Text(f[2], &time) || !ParseApiTime(time, &seconds)) return false;  // the general reader's
      p->scheduled_time = seconds;
    }
    return true;
  }

  // Quantities given as strings or integers.
  bool Resources(PyObject* o, ResourceList* out) {
    return Unset(o) || ForEachEntry(o, [out](absl::string_view name, PyObject* value) {
             absl::string_view text;
             std::optional<absl::AlphaNum> number;  // an integer's digits, as Python prints it
             if (Py_IS_TYPE(value, &PyLong_Type)) {
               int overflow = 0;
               const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
               if (overflow != 0) return false;
               text = number.emplace(v).Piece();
             } else if (!Text(value, &text)) {
               return false;
             }
             bool tracked = false;
             const absl::StatusOr<int64_t> amount = ParseResourceQuantity(name, text, &tracked);
             if (!amount.ok()) return false;
             if (tracked) out->try_emplace(out->end(), std::string(name), 0)->second += *amount;
             return true;
           });
  }

  bool StringMap(PyObject* o, Labels* out) {
    return Unset(o) || ForEachEntry(o, [out](absl::string_view key, PyObject* value) {
             absl::string_view text;
             if (value != Py_None && !Text(value, &text)) return false;
             out->insert_or_assign(out->end(), std::string(key), std::string(text));
             return true;
           });
  }

  static bool String(PyObject* o, absl::string_view absent, std::string* out) {
    absl::string_view text = absent;
    if (!Unset(o) && !Text(o, &text)) return false;
    out->assign(text.data(), text.size());
    return true;
  }

  static bool Bool(PyObject* o, bool* out) {
    if (Unset(o)) return true;
    if (o != Py_True && o != Py_False) return false;
    *out = o == Py_True;
    return true;
  }

  // The entries of dict `o` named in `names` into `slots` (nullptr when absent); every
  // other entry must be plain. False when `o` is not a dict or an entry is not plain.
  template <size_t N>
  bool Fields(PyObject* o, const absl::string_view (&names)[N], PyObject* (&slots)[N], int depth) {
    std::fill(std::begin(slots), std::end(slots), nullptr);
    return ForEachEntry(o, [&](absl::string_view key, PyObject* value) {
      size_t i = 0;
      while (i < N && names[i] != key) ++i;
      if (i == N) return Plain(value, depth + 1);
      slots[i] = value;
      return true;
    });
  }

  // f(key, value) for each entry of dict `o`, each counted against the budget; false
  // when `o` is not a dict, a key is not text, or f declines.
  template <typename F>
  bool ForEachEntry(PyObject* o, F&& f) {
    if (!IsDict(o)) return false;
    Py_ssize_t pos = 0;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    while (PyDict_Next(o, &pos, &key, &value)) {
      absl::string_view name;
      if (--budget_ < 0 || !Text(key, &name) || !f(name, value)) return false;
    }
    return true;
  }

  // A value no field reads: it must be one the general walk takes (a str with a UTF-8
  // form, a number, a bool, None, or dicts with str keys and lists of them).
  bool Plain(PyObject* o, int depth) {
    if (--budget_ < 0 || depth > kMaxDepth) return false;
    if (Py_IS_TYPE(o, &PyUnicode_Type)) {
      absl::string_view text;
      return Text(o, &text);
    }
    if (Py_IS_TYPE(o, &PyLong_Type) || Py_IS_TYPE(o, &PyBool_Type) || Py_IS_TYPE(o, &PyFloat_Type) || o == Py_None) {
      return true;
    }
    if (IsDict(o)) {
      return ForEachEntry(o, [&](absl::string_view, PyObject* value) { return Plain(value, depth + 1); });
    }
    if (IsSequence(o)) {
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
        if (!Plain(PySequence_Fast_GET_ITEM(o, i), depth + 1)) return false;
      }
      return true;
    }
    return false;
  }

  int64_t budget_ = kMaxValues;
};

}  // namespace

bool ReadPlainPodEvent(PyObject* event, WatchEvent::Type* type, PodSpec* pod) {
  return PlainPodReader().Event(event, type, pod);
}

}  // namespace vcsched::python
