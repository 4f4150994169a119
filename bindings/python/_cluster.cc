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

// Applies every event of a stream; the first refused one raises, naming it (the events
// before it stay applied). Returns the notes (DELETED of absent objects, ERROR events).
std::vector<std::string> ApplyStream(Cluster& cluster, const std::string& name, const std::string& text) {
  std::vector<std::string> notes;
  absl::Status failed;
  {
    py::gil_scoped_release release;
    absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({name, text});
    if (!events.ok()) {
      failed = events.status();
    } else {
      for (const WatchEvent& e : *events) {
        failed = ApplyWatchEvent(cluster, e, &notes);
        if (!failed.ok()) break;
      }
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
  out["conflicts"] = r.conflicts;
  return out;
}

}  // namespace

void RegisterCluster(py::module_& m) {
  py::class_<Cluster>(m, "Cluster")
      .def(py::init<>())
      .def_static("from_snapshot", &Cluster::FromSnapshot, py::arg("snapshot"))
      .def("apply_stream", &ApplyStream, py::arg("name"), py::arg("text"))
      .def("snapshot", [](const Cluster& c) { return Unwrap(c.Snapshot()); })
      .def("apply_decisions", [](Cluster& c, const Decisions& d) { return Report(c.Apply(d)); }, py::arg("decisions"))
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
        return out;
      });
}

}  // namespace vcsched::python
