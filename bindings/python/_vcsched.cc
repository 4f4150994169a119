// The thin C++ layer of the Python package: loaders, one session, decisions, and
// host-defined plugins written in Python. The pure-Python package `vcsched` is the
// public face; see vcsched/__init__.py.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "bindings/python/status_errors.h"
#include "vcsched/version.h"
#include "vcsched/io/format.h"
#include "vcsched/io/scenario.h"
#include "vcsched/vcsched.h"

namespace py = pybind11;

namespace vcsched::python {
namespace {

// A Python object with any of predicate / node_order / job_order / job_order_key /
// task_order.
// Callbacks run with the GIL re-acquired; the first exception is kept and ends the
// session with that exception.
struct PythonPluginSpec {
  py::object factory;  // called with the plugin's arguments (a dict) to make the object
};

struct CallbackFailure {
  std::mutex mu;
  bool failed = false;
  py::object type, value, traceback;

  // Keeps the first Python exception; schedule() raises it, type and traceback intact.
  void Record(py::error_already_set& e) {
    std::lock_guard<std::mutex> lock(mu);
    if (failed) return;
    failed = true;
    type = e.type();
    value = e.value();
    traceback = e.trace();
  }
};

// Whether the session a callback's references point into is still running. References
// handed to Python may be kept past it; they then raise instead of reading freed memory.
struct SessionLife {
  std::atomic<bool> running{true};
};
using Life = std::shared_ptr<const SessionLife>;

void CheckRunning(const Life& life, const char* what) {
  if (!life->running) {
    throw InputError(std::string("this ") + what +
                     " belongs to a session that has ended; copy what you need while the callback runs");
  }
}

// Sessions running on this thread: a plugin that calls schedule() from its callback is
// refused instead of recursing into a session that is half done.
thread_local int sessions_on_this_thread = 0;

class TaskRef {
 public:
  TaskRef(const Snapshot* s, TaskIndex t, const Session* ssn, Life life)
      : s_(s), t_(t), ssn_(ssn), life_(std::move(life)) {}
  const TaskInfo& info() const {
    CheckRunning(life_, "TaskRef");
    return s_->tasks()[static_cast<size_t>(t_)];
  }
  std::string key() const { return info().key; }
  std::string name() const { return info().pod->name; }
  std::string ns() const { return info().pod->namespace_; }
  Labels labels() const { return info().pod->labels; }
  Labels annotations() const { return info().pod->annotations; }
  int32_t priority() const { return info().priority; }
  std::string job() const { return info().job == kNone ? "" : s_->jobs()[static_cast<size_t>(info().job)].key; }
  std::map<std::string, int64_t> request() const {
    const TaskInfo& t = info();  // first: the snapshot is read only while the session runs
    std::map<std::string, int64_t> out;
    for (int d = 0; d < s_->dims(); ++d) {
      if (t.resreq[d] != 0) out[s_->space().name(d)] = t.resreq[d];
    }
    return out;
  }
  std::string status() const {
    const TaskInfo& t = info();
    return TaskStatusName(ssn_ ? ssn_->task_status(t_) : t.status);
  }

 private:
  const Snapshot* s_;
  TaskIndex t_;
  const Session* ssn_;
  Life life_;
};

class NodeRef {
 public:
  NodeRef(const Snapshot* s, NodeIndex n, const Session* ssn, Life life)
      : s_(s), n_(n), ssn_(ssn), life_(std::move(life)) {}
  const NodeInfo& info() const {
    CheckRunning(life_, "NodeRef");
    return s_->nodes()[static_cast<size_t>(n_)];
  }
  std::string name() const { return info().spec.name; }
  Labels labels() const { return info().spec.labels; }
  std::map<std::string, int64_t> ToMap(absl::Span<const int64_t> v) const {
    std::map<std::string, int64_t> out;
    for (int d = 0; d < s_->dims(); ++d) out[s_->space().name(d)] = v[static_cast<size_t>(d)];
    return out;
  }
  std::map<std::string, int64_t> allocatable() const { return ToMap(info().allocatable.span()); }
  std::map<std::string, int64_t> idle() const {
    info();
    return ToMap(ssn_->node_idle(n_));
  }
  std::map<std::string, int64_t> used() const {
    info();
    return ToMap(ssn_->node_used(n_));
  }

 private:
  const Snapshot* s_;
  NodeIndex n_;
  const Session* ssn_;
  Life life_;
};

// The nodes batch_node_order scores: a sequence of NodeRef made on demand, and bulk
// accessors (names, label values, one resource across the nodes) that cost one C++ loop
// instead of a Python object per node, for scorers written with numpy or comprehensions.
class NodeList {
 public:
  using NameCache = std::vector<py::object>;  // per session: one str per node, made once
  NodeList(const Snapshot* s, absl::Span<const NodeIndex> nodes, const Session* ssn, Life life,
           std::shared_ptr<NameCache> names)
      : s_(s), nodes_(nodes.begin(), nodes.end()), ssn_(ssn), life_(std::move(life)), names_(std::move(names)) {}
  size_t size() const { return nodes_.size(); }
  NodeRef at(py::ssize_t i) const {
    CheckRunning(life_, "node list");
    const py::ssize_t n = static_cast<py::ssize_t>(nodes_.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw py::index_error("node index out of range");
    return NodeRef(s_, nodes_[static_cast<size_t>(i)], ssn_, life_);
  }
  py::list names() const {
    CheckRunning(life_, "node list");
    py::list out(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      py::object& name = (*names_)[static_cast<size_t>(nodes_[i])];
      if (!name) name = py::str(s_->nodes()[static_cast<size_t>(nodes_[i])].spec.name);
      out[i] = name;
    }
    return out;
  }
  py::list label(const std::string& key, const py::object& missing) const {
    CheckRunning(life_, "node list");
    py::list out(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const Labels& labels = s_->nodes()[static_cast<size_t>(nodes_[i])].spec.labels;
      const auto it = labels.find(key);
      out[i] = it == labels.end() ? missing : py::str(it->second);
    }
    return out;
  }
  // One resource of every node (cpu in millicores, as in NodeRef); 0 for a resource
  // the snapshot does not know, as Kubernetes reads an absent quantity.
  template <typename Get>
  py::array_t<int64_t> Column(const std::string& resource, Get get) const {
    CheckRunning(life_, "node list");
    py::array_t<int64_t> out(static_cast<py::ssize_t>(nodes_.size()));
    auto v = out.mutable_unchecked<1>();
    const int d = s_->space().Find(resource);
    for (size_t i = 0; i < nodes_.size(); ++i) {
      v(static_cast<py::ssize_t>(i)) = d < 0 ? 0 : get(nodes_[i])[static_cast<size_t>(d)];
    }
    return out;
  }
  py::array_t<int64_t> idle(const std::string& r) const {
    return Column(r, [this](NodeIndex n) { return ssn_->node_idle(n); });
  }
  py::array_t<int64_t> used(const std::string& r) const {
    return Column(r, [this](NodeIndex n) { return ssn_->node_used(n); });
  }
  py::array_t<int64_t> allocatable(const std::string& r) const {
    return Column(r, [this](NodeIndex n) { return ssn_->node_allocatable(n); });
  }

 private:
  const Snapshot* s_;
  std::vector<NodeIndex> nodes_;
  const Session* ssn_;
  Life life_;
  std::shared_ptr<NameCache> names_;
};

class JobRef {
 public:
  JobRef(const Snapshot* s, JobIndex j, Life life) : s_(s), j_(j), life_(std::move(life)) {}
  const JobInfo& info() const {
    CheckRunning(life_, "JobRef");
    return s_->jobs()[static_cast<size_t>(j_)];
  }
  std::string key() const { return info().key; }
  std::string queue() const { return info().queue == kNone ? "" : s_->queues()[static_cast<size_t>(info().queue)].spec.name; }
  int32_t priority() const { return info().priority; }
  int32_t min_member() const { return info().pod_group.min_member; }
  Labels annotations() const { return info().pod_group.annotations; }

 private:
  const Snapshot* s_;
  JobIndex j_;
  Life life_;
};

// Adds a batch_node_order result (a sequence of numbers, or a numpy array) to `scores`;
// a result of another length, or with a value that is not a number, is the plugin's error.
void AddBatchScores(const py::object& result, absl::Span<double> scores) {
  const auto wrong_length = [&](size_t n) {
    throw py::cast_error("got " + std::to_string(n) + " scores for " + std::to_string(scores.size()) + " nodes");
  };
  if (py::isinstance<py::array>(result)) {
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
    if (!a || a.ndim() != 1) throw py::cast_error("a numpy array must be one-dimensional and numeric");
    if (static_cast<size_t>(a.size()) != scores.size()) wrong_length(static_cast<size_t>(a.size()));
    const double* v = a.data();
    for (size_t i = 0; i < scores.size(); ++i) {
      if (std::isnan(v[i])) throw py::cast_error("item " + std::to_string(i) + " is NaN");
      scores[i] += v[i];
    }
    return;
  }
  if (!py::isinstance<py::sequence>(result) || py::isinstance<py::str>(result)) {
    throw py::cast_error("got " + py::repr(result).cast<std::string>());
  }
  const py::sequence seq = result.cast<py::sequence>();
  if (seq.size() != scores.size()) wrong_length(seq.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    const py::object item = seq[i];
    const double v = item.is_none() || py::isinstance<py::bool_>(item) || py::isinstance<py::str>(item)
                         ? std::nan("")
                         : PyFloat_AsDouble(item.ptr());  // ints, floats, numpy scalars: anything with __float__
    if (PyErr_Occurred() != nullptr || std::isnan(v)) {
      PyErr_Clear();
      throw py::cast_error("item " + std::to_string(i) + " is " + py::repr(item).cast<std::string>());
    }
    scores[i] += v;
  }
}

class PythonPlugin : public Plugin {
 public:
  PythonPlugin(py::object impl, std::shared_ptr<CallbackFailure> failure, Life life)
      : impl_(std::move(impl)), failure_(std::move(failure)), life_(std::move(life)) {}
  ~PythonPlugin() override {
    py::gil_scoped_acquire gil;
    impl_ = py::object();
    names_.reset();
  }

  absl::Status OnSessionOpen(Session& ssn) override {
    py::gil_scoped_acquire gil;
    const Snapshot* snap = &ssn.snapshot();
    const Session* s = &ssn;
    const ReasonId rejected = ssn.InternReason("node(s) rejected by a host plugin");
    if (py::hasattr(impl_, "predicate")) {
      ssn.AddPredicateFn([this, snap, s, rejected, &ssn](TaskIndex t, NodeIndex n) -> FitResult {
        py::gil_scoped_acquire gil;
        if (Failed()) return FitResult::Success();
        try {
          py::object r = impl_.attr("predicate")(TaskRef(snap, t, s, life_), NodeRef(snap, n, s, life_));
          // Only a bool, or a (bool, reason) pair: anything else is a mistake in the
          // plugin, not a quiet "does not fit".
          const auto is_bool = [](const py::handle& h) { return py::isinstance<py::bool_>(h); };
          if (py::isinstance<py::tuple>(r)) {
            py::tuple tup = r.cast<py::tuple>();
            if (tup.size() < 1 || tup.size() > 2 || !is_bool(tup[0]) ||
                (tup.size() == 2 && !tup[1].is_none() && !py::isinstance<py::str>(tup[1]))) {
              throw py::cast_error(std::string("got ") + py::repr(r).cast<std::string>());
            }
            if (tup[0].cast<bool>()) return FitResult::Success();
            const std::string why = tup.size() == 2 && !tup[1].is_none() ? tup[1].cast<std::string>() : "";
            return FitResult::Fail(FitCode::kUnschedulable, why.empty() ? rejected : ssn.InternReason(why));
          }
          if (!is_bool(r)) throw py::cast_error(std::string("got ") + py::repr(r).cast<std::string>());
          return r.cast<bool>() ? FitResult::Success() : FitResult::Fail(FitCode::kUnschedulable, rejected);
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("predicate must return a bool or (bool, reason): ") + e.what());
        }
        return FitResult::Success();
      });
    }
    if (py::hasattr(impl_, "node_order")) {
      ssn.AddNodeOrderFn([this, snap, s](TaskIndex t, NodeIndex n) -> double {
        py::gil_scoped_acquire gil;
        if (Failed()) return 0;
        try {
          const py::object r = impl_.attr("node_order")(TaskRef(snap, t, s, life_), NodeRef(snap, n, s, life_));
          // A number, as batch_node_order's items are: a bool, a string or NaN is the
          // plugin's error (NaN would order nodes by chance).
          if (r.is_none() || py::isinstance<py::bool_>(r) || py::isinstance<py::str>(r)) {
            throw py::cast_error("got " + py::repr(r).cast<std::string>());
          }
          const double v = r.cast<double>();
          if (std::isnan(v)) throw py::cast_error("got NaN");
          return v;
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("node_order must return a number: ") + e.what());
        }
        return 0;
      });
    }
    if (py::hasattr(impl_, "batch_node_order")) {
      // One Python call scores every candidate node of a task.
      ssn.AddBatchNodeOrderFn([this, snap, s](TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
        py::gil_scoped_acquire gil;
        if (Failed()) return;
        try {
          if (!names_) names_ = std::make_shared<NodeList::NameCache>(snap->nodes().size());
          py::object r = impl_.attr("batch_node_order")(TaskRef(snap, t, s, life_),
                                                        NodeList(snap, nodes, s, life_, names_));
          AddBatchScores(r, scores);
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("batch_node_order must return one number per node: ") + e.what());
        }
      });
    }
    if (py::hasattr(impl_, "job_order")) {
      ssn.AddJobOrderFn([this, snap](JobIndex l, JobIndex r) -> int {
        py::gil_scoped_acquire gil;
        if (Failed()) return 0;
        try {
          return impl_.attr("job_order")(JobRef(snap, l, life_), JobRef(snap, r, life_)).cast<int>();
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("job_order must return an int: ") + e.what());
        }
        return 0;
      });
    }
    if (py::hasattr(impl_, "job_order_key")) {
      ssn.AddJobOrderKeyFn([this, snap](JobIndex j) -> double {
        py::gil_scoped_acquire gil;
        if (Failed()) return 0;
        try {
          return impl_.attr("job_order_key")(JobRef(snap, j, life_)).cast<double>();
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("job_order_key must return a number: ") + e.what());
        }
        return 0;
      });
    }
    if (py::hasattr(impl_, "task_order")) {
      ssn.AddTaskOrderFn([this, snap, s](TaskIndex l, TaskIndex r) -> int {
        py::gil_scoped_acquire gil;
        if (Failed()) return 0;
        try {
          return impl_.attr("task_order")(TaskRef(snap, l, s, life_), TaskRef(snap, r, s, life_)).cast<int>();
        } catch (py::error_already_set& e) {
          Record(e);
        } catch (const py::cast_error& e) {
          RecordMessage(std::string("task_order must return an int: ") + e.what());
        }
        return 0;
      });
    }
    return absl::OkStatus();
  }

 private:
  bool Failed() {
    std::lock_guard<std::mutex> lock(failure_->mu);
    return failure_->failed;
  }
  void Record(py::error_already_set& e) { failure_->Record(e); }
  std::shared_ptr<NodeList::NameCache> names_;  // node names as Python strings, for NodeList.names
  void RecordMessage(const std::string& msg) {
    std::lock_guard<std::mutex> lock(failure_->mu);
    if (failure_->failed) return;
    failure_->failed = true;
    failure_->type = py::reinterpret_borrow<py::object>(PyExc_TypeError);
    failure_->value = py::str(msg);
  }

  py::object impl_;
  std::shared_ptr<CallbackFailure> failure_;
  Life life_;
};

// A Decisions' view as a Python str (pybind11 knows std::string_view, not absl's).
py::str Str(absl::string_view s) { return py::str(s.data(), s.size()); }

// The Arguments of a plugin as a Python dict of strings / nested dicts / lists.
py::object ArgsToPython(const Value& v) {
  if (v.is_null()) return py::none();
  if (v.is_scalar()) return py::str(v.text());
  if (v.is_list()) {
    py::list out;
    for (const Value& x : v.items()) out.append(ArgsToPython(x));
    return out;
  }
  py::dict out;
  for (const auto& [k, x] : v.entries()) out[py::str(k)] = ArgsToPython(x);
  return out;
}

// Runs `body` (a session, or Explain's several) with the built-in plugins and the host's
// `plugins`, the GIL released; a host plugin's exception is raised as it was.
template <typename Body>
auto WithSession(int64_t now, const std::map<std::string, py::object>& plugins, Body body) {
  if (sessions_on_this_thread > 0) {
    throw InputError("schedule() was called from inside a plugin of a running session; "
                     "a session cannot start another on the same thread");
  }
  Registry registry = Registry::BuiltIn();
  auto failure = std::make_shared<CallbackFailure>();
  auto life = std::make_shared<SessionLife>();
  for (const auto& [name, factory] : plugins) {
    const absl::Status st = registry.RegisterPlugin(
        name, [factory = factory, failure, life](const Arguments& args) -> absl::StatusOr<std::unique_ptr<Plugin>> {
          py::gil_scoped_acquire gil;
          try {
            py::object impl = factory(ArgsToPython(args.root()));
            return std::unique_ptr<Plugin>(new PythonPlugin(std::move(impl), failure, life));
          } catch (py::error_already_set& e) {
            // The factory's own exception reaches the caller as it was raised.
            failure->Record(e);
            return absl::InvalidArgumentError(std::string("host plugin: ") + e.what());
          }
        });
    if (!st.ok()) Raise(st);
  }
  RunOptions opts;
  opts.registry = &registry;
  opts.now_seconds = now;
  decltype(body(opts)) d;
  {
    struct Running {  // counts the session, and ends its references however it ends
      SessionLife& life;
      explicit Running(SessionLife& l) : life(l) { ++sessions_on_this_thread; }
      ~Running() {
        life.running = false;
        --sessions_on_this_thread;
      }
    } running(*life);
    py::gil_scoped_release release;
    d = body(opts);
  }
  if (failure->failed) {
    PyErr_Restore(failure->type.release().ptr(), failure->value.release().ptr(), failure->traceback.release().ptr());
    throw py::error_already_set();
  }
  return Unwrap(std::move(d));
}

Decisions Schedule(const Snapshot& snap, const SchedulerConfig& config, int64_t now,
                   const std::map<std::string, py::object>& plugins, SchedulerMemory* memory) {
  return WithSession(now, plugins, [&](const RunOptions& opts) {
    RunOptions with_memory = opts;
    with_memory.memory = memory;
    return RunSession(snap, config, with_memory);
  });
}

// Explain's answers as the JSON the command line prints (docs/EXPLAIN.md), so that both
// give the same bytes.
std::string ExplainJson(const Snapshot& snap, const SchedulerConfig& config, int64_t now,
                        const std::map<std::string, py::object>& plugins, const std::string& job, int32_t max_reruns) {
  const ExplainResult r = WithSession(now, plugins, [&](const RunOptions& opts) {
    ExplainOptions e;
    e.run = opts;
    e.job = job;
    e.max_reruns = max_reruns;
    return vcsched::Explain(snap, config, e);
  });
  return ExplanationToJson(r.explanation);
}

std::string QueuesJson(const Snapshot& snap, const SchedulerConfig& config, int64_t now,
                       const std::map<std::string, py::object>& plugins) {
  return QueuesToJson(
      WithSession(now, plugins, [&](const RunOptions& opts) { return DescribeQueues(snap, config, opts); }));
}

std::string ScoresJson(const Snapshot& snap, const SchedulerConfig& config, int64_t now,
                       const std::map<std::string, py::object>& plugins, const std::string& task) {
  return ScoresToJson(task, WithSession(now, plugins, [&](const RunOptions& opts) {
                        return ScoreTask(snap, config, task, opts);
                      }));
}

py::dict WouldFitDict(const Snapshot& snap, const SchedulerConfig& config, int64_t now,
                      const std::map<std::string, py::object>& plugins, const std::string& job) {
  const FitAnswer a =
      WithSession(now, plugins, [&](const RunOptions& opts) { return WouldFit(snap, config, job, opts); });
  py::dict out;
  out["fits"] = a.fits;
  py::dict where;
  for (const auto& [pod, node] : a.placements) where[py::str(pod)] = py::str(node);
  out["placements"] = where;
  out["job"] = a.explanation.job;
  out["reason"] = a.explanation.reason;
  out["message"] = a.explanation.message;
  return out;
}

py::array_t<int64_t> Matrix(const std::vector<std::vector<int64_t>>& rows, size_t cols) {
  py::array_t<int64_t> out({rows.size(), cols});
  auto m = out.mutable_unchecked<2>();
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < cols; ++j) m(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = rows[i][j];
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_vcsched, m) {
  m.doc() = "C++ core of vcsched (use the vcsched package)";
  m.attr("__version__") = VCSCHED_VERSION_STRING;
  const py::exception<InputError>& error = py::register_exception<InputError>(m, "Error", PyExc_ValueError);
  // NotFoundError is a vcsched.Error (`except vcsched.Error` catches every refusal) and a
  // KeyError (a missing key, as Python's mappings raise).
  const py::tuple not_found_bases = py::make_tuple(error, py::handle(PyExc_KeyError));
  py::register_exception<NotFound>(m, "NotFoundError", not_found_bases.ptr());
  RegisterLifecycle(m);
  RegisterCluster(m);
  RegisterSimulate(m);
  RegisterEta(m);

  py::class_<SchedulerConfig>(m, "SchedulerConfig")
      .def_property_readonly("actions", [](const SchedulerConfig& c) { return c.actions; })
      .def_property_readonly("plugins",
                             [](const SchedulerConfig& c) {
                               std::vector<std::vector<std::string>> out;
                               for (const Tier& t : c.tiers) {
                                 out.emplace_back();
                                 for (const PluginOption& p : t.plugins) out.back().push_back(p.name);
                               }
                               return out;
                             })
      .def_property_readonly("scheduler_args", [](const SchedulerConfig& c) { return c.scheduler_args; })
      .def("with_scheduler_args",
           [](const SchedulerConfig& c, const std::vector<std::string>& args) {
             SchedulerConfig out = c;
             out.scheduler_args.insert(out.scheduler_args.end(), args.begin(), args.end());
             if (absl::Status s = ParseSchedulerArgs(out.scheduler_args).status(); !s.ok()) Raise(s);
             return out;
           },
           py::arg("args"))
      .def("to_yaml", &SchedulerConfig::ToYaml);

  py::class_<Snapshot>(m, "Snapshot")
      .def_property_readonly("resource_names",
                             [](const Snapshot& s) {
                               std::vector<std::string> out;
                               for (int d = 0; d < s.dims(); ++d) out.push_back(s.space().name(d));
                               return out;
                             })
      .def_property_readonly("node_names",
                             [](const Snapshot& s) {
                               std::vector<std::string> out;
                               for (const NodeInfo& n : s.nodes()) out.push_back(n.spec.name);
                               return out;
                             })
      .def_property_readonly("queue_names",
                             [](const Snapshot& s) {
                               std::vector<std::string> out;
                               for (const QueueInfo& q : s.queues()) out.push_back(q.spec.name);
                               return out;
                             })
      .def_property_readonly("pod_keys",
                             [](const Snapshot& s) {
                               std::vector<std::string> out;
                               for (const TaskInfo& t : s.tasks()) out.push_back(t.key);
                               return out;
                             })
      .def_property_readonly("job_keys",
                             [](const Snapshot& s) {
                               std::vector<std::string> out;
                               for (const JobInfo& j : s.jobs()) out.push_back(j.key);
                               return out;
                             })
      .def_property_readonly("warnings", &Snapshot::warnings)
      .def_property_readonly("hyper_nodes",
                             [](const Snapshot& s) {
                               py::list out;
                               for (const HyperNodeInfo& h : s.hyper_nodes()) {
                                 py::dict d;
                                 d["name"] = h.name;
                                 d["tier"] = h.tier;
                                 d["parent"] = h.parent == kNone ? py::object(py::none())
                                                                 : py::object(py::str(s.hyper_nodes()[static_cast<size_t>(h.parent)].name));
                                 std::vector<std::string> nodes;
                                 for (NodeIndex n : h.nodes) nodes.push_back(s.nodes()[static_cast<size_t>(n)].spec.name);
                                 d["nodes"] = nodes;
                                 out.append(d);
                               }
                               return out;
                             })
      .def_property_readonly("hyper_nodes_ready", &Snapshot::hyper_nodes_ready)
      .def("node_allocatable",
           [](const Snapshot& s) {
             std::vector<std::vector<int64_t>> rows;
             for (const NodeInfo& n : s.nodes()) rows.emplace_back(n.allocatable.span().begin(), n.allocatable.span().end());
             return Matrix(rows, static_cast<size_t>(s.dims()));
           })
      .def("pod_requests",
           [](const Snapshot& s) {
             std::vector<std::vector<int64_t>> rows;
             for (const TaskInfo& t : s.tasks()) rows.emplace_back(t.resreq.span().begin(), t.resreq.span().end());
             return Matrix(rows, static_cast<size_t>(s.dims()));
           })
      .def("pod_nodes",
           [](const Snapshot& s) {
             std::vector<std::string> out;
             for (const TaskInfo& t : s.tasks()) {
               out.push_back(t.node == kNone || t.status == TaskStatus::kSucceeded || t.status == TaskStatus::kFailed
                                 ? ""
                                 : s.nodes()[static_cast<size_t>(t.node)].spec.name);
             }
             return out;
           })
      .def("pod_queues", [](const Snapshot& s) {
        std::vector<std::string> out;
        for (const TaskInfo& t : s.tasks()) {
          const JobInfo* j = t.job == kNone ? nullptr : &s.jobs()[static_cast<size_t>(t.job)];
          out.push_back(j == nullptr || j->queue == kNone ? "" : s.queues()[static_cast<size_t>(j->queue)].spec.name);
        }
        return out;
      });

  py::class_<TaskRef>(m, "TaskRef")
      .def_property_readonly("key", &TaskRef::key)
      .def_property_readonly("name", &TaskRef::name)
      .def_property_readonly("namespace", &TaskRef::ns)
      .def_property_readonly("labels", &TaskRef::labels)
      .def_property_readonly("annotations", &TaskRef::annotations)
      .def_property_readonly("priority", &TaskRef::priority)
      .def_property_readonly("job", &TaskRef::job)
      .def_property_readonly("request", &TaskRef::request)
      .def_property_readonly("status", &TaskRef::status)
      .def("__repr__", [](const TaskRef& t) { return "<Task " + t.key() + ">"; });
  py::class_<NodeRef>(m, "NodeRef")
      .def_property_readonly("name", &NodeRef::name)
      .def_property_readonly("labels", &NodeRef::labels)
      .def_property_readonly("allocatable", &NodeRef::allocatable)
      .def_property_readonly("idle", &NodeRef::idle)
      .def_property_readonly("used", &NodeRef::used)
      .def("__repr__", [](const NodeRef& n) { return "<Node " + n.name() + ">"; });
  py::class_<NodeList>(m, "NodeList")
      .def("__len__", &NodeList::size)
      .def("__getitem__", &NodeList::at)  // also iteration, until IndexError
      .def_property_readonly("names", &NodeList::names)
      .def("label", &NodeList::label, py::arg("key"), py::arg("default") = py::none())
      .def("idle", &NodeList::idle, py::arg("resource"))
      .def("used", &NodeList::used, py::arg("resource"))
      .def("allocatable", &NodeList::allocatable, py::arg("resource"))
      .def("__repr__", [](const NodeList& l) { return "<NodeList of " + std::to_string(l.size()) + " nodes>"; });
  py::class_<JobRef>(m, "JobRef")
      .def_property_readonly("key", &JobRef::key)
      .def_property_readonly("queue", &JobRef::queue)
      .def_property_readonly("priority", &JobRef::priority)
      .def_property_readonly("min_member", &JobRef::min_member)
      .def_property_readonly("annotations", &JobRef::annotations)
      .def("__repr__", [](const JobRef& j) { return "<Job " + j.key() + ">"; });

  py::class_<Decisions>(m, "Decisions")
      .def_property_readonly("binds",
                             [](const Decisions& d) {
                               std::vector<std::pair<std::string, std::string>> out;
                               for (const Bind& b : d.binds) out.emplace_back(b.task, b.node);
                               return out;
                             })
      .def_property_readonly("pipelined",
                             [](const Decisions& d) {
                               std::vector<std::pair<std::string, std::string>> out;
                               for (const Pipelined& p : d.pipelined) out.emplace_back(p.task, p.node);
                               return out;
                             })
      .def_property_readonly("bind_annotations",
                             [](const Decisions& d) {
                               py::dict out;
                               for (const Bind& b : d.binds) {
                                 if (b.annotations.empty()) continue;
                                 py::dict item;
                                 for (const PodAnnotation& a : b.annotations) item[py::str(a.key)] = a.value;
                                 out[py::str(std::string(b.task))] = std::move(item);
                               }
                               return out;
                             })
      .def_property_readonly("volume_bindings",
                             [](const Decisions& d) {
                               py::list out;
                               for (const VolumeBinding& v : d.volume_bindings) {
                                 py::dict item;
                                 item["claim"] = v.claim;
                                 item["task"] = v.task;
                                 item["volume"] = v.volume;
                                 item["node"] = v.node;
                                 out.append(std::move(item));
                               }
                               return out;
                             })
      .def_property_readonly("evictions",
                             [](const Decisions& d) {
                               std::vector<std::tuple<std::string, std::string, std::string, std::string>> out;
                               for (const Eviction& e : d.evictions) out.emplace_back(e.task, e.action, e.preemptor, e.reason);
                               return out;
                             })
      .def_property_readonly("pod_groups",
                             [](const Decisions& d) {
                               py::list out;
                               for (const PodGroupStatus& g : d.pod_groups) {
                                 py::list conds;
                                 for (const PodGroupCondition& c : g.conditions) {
                                   py::dict cd;
                                   cd["type"] = Str(c.type);
                                   cd["status"] = Str(c.status);
                                   cd["reason"] = Str(c.reason);
                                   cd["message"] = Str(c.message);
                                   cd["transitionID"] = Str(c.transition_id);
                                   conds.append(cd);
                                 }
                                 py::dict gd;
                                 gd["podGroup"] = Str(g.job);
                                 gd["oldPhase"] = Str(g.old_phase);
                                 gd["phase"] = Str(g.phase);
                                 gd["running"] = g.running;
                                 gd["succeeded"] = g.succeeded;
                                 gd["failed"] = g.failed;
                                 gd["conditions"] = conds;
                                 out.append(gd);
                               }
                               return out;
                             })
      .def_property_readonly("task_reasons",
                             [](const Decisions& d) {
                               std::vector<std::tuple<std::string, std::string, std::string>> out;
                               for (const TaskReason& r : d.task_reasons) out.emplace_back(r.task, r.reason, r.message);
                               return out;
                             })
      .def_property_readonly("warnings", [](const Decisions& d) { return d.warnings; })
      .def("to_text", [](const Decisions& d) { return DecisionsToText(d); })
      .def("to_json", [](const Decisions& d) { return DecisionsToJson(d); })
      .def("to_manifests", [](const Decisions& d) { return DecisionsToManifests(d); });

  py::class_<Expectation>(m, "Expectation");

  m.def("load_scenario",
        [](const std::vector<std::pair<std::string, std::string>>& sources, const std::vector<std::string>& labels,
           int threads) {
          std::vector<ScenarioSource> src;
          for (const auto& [name, text] : sources) src.push_back({name, text});
          LoadOptions options;
          options.hyper_node_labels = labels;
          options.threads = std::max(1, threads);
          Scenario sc;
          {
            py::gil_scoped_release release;
            absl::StatusOr<Scenario> r = LoadScenario(src, options);
            if (!r.ok()) {
              py::gil_scoped_acquire gil;
              Raise(r.status());
            }
            sc = *std::move(r);
          }
          py::dict out;
          out["snapshot"] = sc.snapshot;
          out["config"] = sc.config ? py::cast(*sc.config) : py::none();
          out["expectation"] = sc.expectation ? py::cast(*sc.expectation) : py::none();
          out["warnings"] = sc.warnings;
          out["volcano_jobs"] = std::move(sc.volcano_jobs);
          return out;
        },
        py::arg("sources"), py::arg("hyper_node_labels") = std::vector<std::string>{}, py::arg("threads") = 1,
        "Loads scenario documents: a list of (name, text) pairs.");
  m.def("load_config",
        [](const std::string& name, const std::string& text) { return Unwrap(LoadSchedulerConfig({name, text})); },
        py::arg("name"), py::arg("text"));
  m.def("default_config", &DefaultSchedulerConfig);
  m.def("compare",
        [](const Decisions& d, const Expectation& e, const Snapshot* snapshot) {
          return CompareWithExpectation(d, e, snapshot);
        },
        py::arg("decisions"), py::arg("expectation"), py::arg("snapshot") = nullptr);
  py::class_<SchedulerMemory>(m, "SchedulerMemory",
                              "What one scheduler carries from session to session (rescheduling's interval, tdm's "
                              "evict period): pass the same object to each schedule() call.")
      .def(py::init<>())
      .def_property_readonly("started_ms", [](const SchedulerMemory& s) { return s.started_ms; })
      .def_property_readonly("last_run_ms", [](const SchedulerMemory& s) { return s.last_run_ms; })
      .def_property_readonly("due_ms", [](const SchedulerMemory& s) { return s.due_ms; })
      .def("__repr__", [](const SchedulerMemory& s) {
        return absl::StrCat("<vcsched.SchedulerMemory started_ms=", s.started_ms ? absl::StrCat(*s.started_ms) : "None",
                            " last_run_ms=", s.last_run_ms.size(), " entries>");
      });
  m.def("schedule", &Schedule, py::arg("snapshot"), py::arg("config"), py::arg("now") = 0,
        py::arg("plugins") = std::map<std::string, py::object>{}, py::arg("memory") = nullptr);
  const auto no_plugins = std::map<std::string, py::object>{};
  m.def("explain_json", &ExplainJson, py::arg("snapshot"), py::arg("config"), py::arg("now"), py::arg("plugins"),
        py::arg("job"), py::arg("max_reruns"));
  m.def("queues_json", &QueuesJson, py::arg("snapshot"), py::arg("config"), py::arg("now"),
        py::arg("plugins") = no_plugins);
  m.def("scores_json", &ScoresJson, py::arg("snapshot"), py::arg("config"), py::arg("now"), py::arg("plugins"),
        py::arg("task"));
  m.def("would_fit", &WouldFitDict, py::arg("snapshot"), py::arg("config"), py::arg("now"), py::arg("plugins"),
        py::arg("job"));
  m.def("parse_quantity",
        [](const std::string& text, bool milli) { return Unwrap(milli ? ParseMilliValue(text) : ParseValue(text)); },
        py::arg("text"), py::arg("milli") = false);
  m.def("builtin_plugins", [] { return Registry::BuiltIn().PluginNames(); });
  m.def("builtin_actions", [] { return Registry::BuiltIn().ActionNames(); });
}

}  // namespace vcsched::python
