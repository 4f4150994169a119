// Start-time estimates for Python (vcsched.eta, Cluster.eta): the estimate in C++ (the
// GIL released), handed over as the JSON `vcsched eta -o json` prints, which eta.py reads
// into typed records.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings/python/status_errors.h"
#include "vcsched/cluster.h"
#include "vcsched/eta.h"
#include "vcsched/simulate.h"

namespace py = pybind11;

namespace vcsched::python {

void RegisterEta(py::module_& m) {
  m.def(
      "eta",
      [](const Cluster& cluster, const SchedulerConfig& config, std::optional<int64_t> now,
         std::optional<int64_t> default_runtime_ms, std::optional<int64_t> horizon_ms,
         const std::vector<std::pair<std::string, std::string>>& workloads, int32_t samples, uint64_t seed,
         int64_t first_sample, int32_t threads) {
        py::gil_scoped_release release;
        EtaOptions o;
        o.now_seconds = now;
        o.default_runtime_ms = default_runtime_ms;
        if (horizon_ms) o.horizon_ms = *horizon_ms;
        o.samples = samples;
        o.seed = seed;
        o.first_sample = first_sample;
        o.threads = threads;
        std::optional<Workload> workload;
        if (!workloads.empty()) {
          std::vector<ScenarioSource> sources;
          for (const auto& [name, text] : workloads) sources.push_back({name, text});
          workload = Unwrap(ReadWorkload(sources));
          o.workload = &*workload;
        }
        return EtaJson(Unwrap(EstimateStarts(cluster, config, o)), samples > 1);
      },
      py::arg("cluster"), py::arg("config"), py::arg("now"), py::arg("default_runtime_ms"), py::arg("horizon_ms"),
      py::arg("workloads"), py::arg("samples"), py::arg("seed"), py::arg("first_sample"), py::arg("threads"));
}

}  // namespace vcsched::python
