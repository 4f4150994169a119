// Simulation for Python: the run in C++ (the GIL released), its tables handed over as
// columns, which vcsched.simulate turns into numpy structured arrays.
#include <pybind11/pybind11.h>

#include <limits>
#include <pybind11/stl.h>

#include "bindings/python/status_errors.h"
#include "vcsched/arguments.h"
#include "vcsched/simulate.h"

namespace py = pybind11;

namespace vcsched::python {
namespace {

SimulationResult Run(const std::string& cluster_name, const std::string& cluster_text,
                     const std::vector<std::pair<std::string, std::string>>& workloads,
                     const std::optional<SchedulerConfig>& config, std::optional<int64_t> until_ms,
                     std::optional<uint64_t> seed, const std::vector<std::string>& scheduler_args,
                     bool cluster_runtimes, std::optional<int64_t> default_runtime_ms) {
  py::gil_scoped_release release;
  ScenarioObjects cluster = Unwrap(LoadObjects({{cluster_name, cluster_text}}));
  std::vector<ScenarioSource> sources;
  for (const auto& [name, text] : workloads) sources.push_back({name, text});
  const Workload workload = Unwrap(ReadWorkload(sources));
  SchedulerConfig chosen = config ? *config : cluster.config.value_or(DefaultSchedulerConfig());
  chosen.scheduler_args.insert(chosen.scheduler_args.end(), scheduler_args.begin(), scheduler_args.end());
  SimulationOptions options;
  options.until_ms = until_ms;
  options.seed = seed;
  if (cluster_runtimes || default_runtime_ms) {
    options.cluster_runtimes.emplace();
    options.cluster_runtimes->default_ms = default_runtime_ms;
  }
  return Unwrap(Simulate(cluster, workload, chosen, options));
}

py::dict JobColumns(const SimulationResult& r) {
  py::list job, queue, created, inqueue, running, finished, phase, wait, retries;
  for (const JobRecord& j : r.jobs) {
    job.append(j.job);
    queue.append(j.queue);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto reached = [&](double s) { return s < 0 ? nan : s; };
    created.append(j.created_s);
    inqueue.append(reached(j.inqueue_s));
    running.append(reached(j.running_s));
    finished.append(reached(j.finished_s));
    phase.append(j.phase);
    wait.append(j.running_s >= 0 ? j.running_s - j.created_s : nan);
    retries.append(j.retries);
  }
  py::dict out;
  out["job"] = job;
  out["queue"] = queue;
  out["created_s"] = created;
  out["inqueue_s"] = inqueue;
  out["running_s"] = running;
  out["finished_s"] = finished;
  out["phase"] = phase;
  out["wait_s"] = wait;
  out["retries"] = retries;
  return out;
}

// Per resource, `<resource>_allocated`, `<resource>_<second>` and `<resource>_goodput`
// columns of `rows`.
template <typename Row>
void AddResourceColumns(const SimulationResult& r, const std::vector<Row>& rows, const char* second,
                        std::vector<double> Row::*other, py::dict& out) {
  for (size_t i = 0; i < r.resources.size(); ++i) {
    std::vector<double> allocated, others, goodput;
    for (const Row& row : rows) {
      allocated.push_back(row.allocated[i]);
      others.push_back((row.*other)[i]);
      goodput.push_back(i < row.goodput.size() ? row.goodput[i] : 0);
    }
    out[py::str(r.resources[i] + "_allocated")] = allocated;
    out[py::str(r.resources[i] + "_" + second)] = others;
    out[py::str(r.resources[i] + "_goodput")] = goodput;
  }
}

py::dict TimelineColumns(const SimulationResult& r) {
  std::vector<double> time;
  std::vector<int64_t> pending, running;
  for (const TimelineRow& row : r.timeline) {
    time.push_back(row.time_s);
    pending.push_back(row.pending_pods);
    running.push_back(row.running_pods);
  }
  py::dict out;
  out["time_s"] = time;
  out["pending_pods"] = pending;
  out["running_pods"] = running;
  AddResourceColumns(r, r.timeline, "capacity", &TimelineRow::capacity, out);
  return out;
}

py::dict QueueColumns(const SimulationResult& r) {
  std::vector<double> time, share;
  std::vector<std::string> queue;
  for (const QueueRow& row : r.queues) {
    time.push_back(row.time_s);
    queue.push_back(row.queue);
    share.push_back(row.share);
  }
  py::dict out;
  out["time_s"] = time;
  out["queue"] = queue;
  AddResourceColumns(r, r.queues, "deserved", &QueueRow::deserved, out);
  out["share"] = share;
  return out;
}

}  // namespace

void RegisterSimulate(py::module_& m) {
  py::class_<SimulationResult>(m, "SimulationResult")
      .def_readonly("resources", &SimulationResult::resources)
      .def_readonly("notes", &SimulationResult::notes)
      .def("job_columns", &JobColumns)
      .def("timeline_columns", &TimelineColumns)
      .def("queue_columns", &QueueColumns)
      .def("jobs_csv", &JobsCsv)
      .def("timeline_csv", &TimelineCsv)
      .def("queues_csv", &QueuesCsv)
      .def("summary_json", &SummaryJson)
      .def("summary_text", &SummaryText)
      .def("utilization_svg", &UtilizationSvg)
      .def("cards_csv", &CardsCsv)
      .def("cards_svg", &CardsSvg)
      .def("queue_shares_svg", &QueueSharesSvg)
      .def("wait_times_svg", &WaitTimesSvg)
      .def("report_html", &ReportHtml);
  m.def("parse_duration_ms", [](const std::string& text) {
    absl::StatusOr<int64_t> ms = ParseGoDurationMillis(text);
    if (!ms.ok() || *ms < 0) throw InputError("expected a duration such as 24h or 90m, got \"" + text + "\"");
    return *ms;
  });
  m.def("simulate", &Run, py::arg("cluster_name"), py::arg("cluster_text"), py::arg("workloads"), py::arg("config"),
        py::arg("until_ms"), py::arg("seed"), py::arg("scheduler_args") = std::vector<std::string>{},
        py::arg("cluster_runtimes") = false, py::arg("default_runtime_ms") = std::nullopt);
}

}  // namespace vcsched::python
