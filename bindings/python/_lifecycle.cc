// The Job lifecycle for Python: admission of manifests, expansion of a Job into the
// objects Volcano's controller creates, the job simulator and cron schedules. Objects
// cross the boundary as plain dicts and lists.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "absl/strings/numbers.h"
#include "absl/time/time.h"
#include "bindings/python/status_errors.h"
#include "vcsched/io/manifests.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/expand.h"
#include "vcsched/lifecycle/job_simulator.h"

namespace py = pybind11;

namespace vcsched::python {

using lifecycle::AdmissionContext;
using lifecycle::AdmitJobDocument;
using lifecycle::AdmitObject;
using lifecycle::ClusterQueues;
using lifecycle::CronSchedule;
using lifecycle::EventRequest;
using lifecycle::ExpandJob;
using lifecycle::ExpandOptions;
using lifecycle::Expansion;
using lifecycle::Findings;
using lifecycle::FormatFindings;
using lifecycle::JobActionName;
using lifecycle::JobCommand;
using lifecycle::JobCommandKindName;
using lifecycle::JobEventName;
using lifecycle::JobPod;
using lifecycle::JobRequest;
using lifecycle::JobSimulator;
using lifecycle::JobStatus;
using lifecycle::JobStep;
using lifecycle::SimulatorStep;
using lifecycle::SshKeyPair;
using lifecycle::Violation;
using lifecycle::VolcanoJob;
using lifecycle::VolcanoQueue;
namespace {

// Plain scalars become int, float, bool or None where YAML would read them so.
py::object ToPython(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return py::none();
    case Value::Kind::kScalar: {
      if (v.quoted()) return py::str(v.text());
      int64_t i;
      double d;
      if (absl::SimpleAtoi(v.text(), &i)) return py::int_(i);
      if (v.text() == "true" || v.text() == "false") return py::bool_(v.text() == "true");
      if (v.text() == "null" || v.text() == "~") return py::none();
      if (absl::SimpleAtod(v.text(), &d) && v.text().find_first_of("0123456789") != std::string::npos) return py::float_(d);
      return py::str(v.text());
    }
    case Value::Kind::kMap: {
      py::dict out;
      for (const auto& [k, x] : v.entries()) out[py::str(k)] = ToPython(x);
      return std::move(out);
    }
    case Value::Kind::kList: {
      py::list out;
      for (const Value& x : v.items()) out.append(ToPython(x));
      return std::move(out);
    }
  }
  return py::none();
}

py::list Violations(const std::vector<Violation>& list) {
  py::list out;
  for (const Violation& v : list) out.append(py::make_tuple(v.field, v.message));
  return out;
}

std::vector<Manifest> Load(const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<ScenarioSource> s;
  for (const auto& [name, text] : sources) s.push_back({name, text});
  return Unwrap(LoadManifests(s));
}

VolcanoJob AdmittedJob(const std::vector<std::pair<std::string, std::string>>& sources) {
  for (const Manifest& m : Load(sources)) {
    if (!IsVolcanoJob(m)) continue;
    Findings f;
    VolcanoJob job = AdmitJobDocument(m.object, {}, &f);
    if (!f.ok()) throw InputError(FormatFindings(m.where + ": Job \"" + job.metadata.name + "\"", {f.errors, {}}));
    return job;
  }
  throw InputError("no Volcano Job (batch.volcano.sh) in the input");
}

// Admission of every Volcano object of the sources.
py::list Validate(const std::vector<std::pair<std::string, std::string>>& sources, bool strict,
                  const std::optional<std::vector<std::pair<std::string, std::string>>>& cluster) {
  AdmissionContext context;
  context.strict_pod_templates = strict;
  const std::vector<Manifest> manifests = Load(sources);
  const std::vector<Manifest> cluster_manifests = cluster ? Load(*cluster) : std::vector<Manifest>{};
  std::vector<const Value*> queue_objects = ObjectsOfKind(cluster_manifests, "Queue");
  if (cluster) context.queues = ClusterQueues(queue_objects);
  for (const Value* q : ObjectsOfKind(manifests, "Queue")) queue_objects.push_back(q);
  const std::vector<VolcanoQueue> queues = ClusterQueues(queue_objects);
  py::list out;
  for (const Manifest& m : manifests) {
    const std::optional<Findings> f = AdmitObject(m.api_version, m.kind, m.object, context, queues);
    if (!f) continue;
    const Value* name = FindPath(m.object, "metadata.name");
    py::dict r;
    r["where"] = m.where;
    r["kind"] = m.kind;
    r["name"] = name != nullptr ? name->text() : "";
    r["accepted"] = f->ok();
    r["errors"] = Violations(f->errors);
    r["warnings"] = Violations(f->warnings);
    out.append(r);
  }
  return out;
}

py::list Expand(const std::vector<std::pair<std::string, std::string>>& sources, const py::object& ssh_keys) {
  const VolcanoJob job = AdmittedJob(sources);
  ExpandOptions options;
  if (!ssh_keys.is_none()) {
    options.ssh_keys = [ssh_keys](const VolcanoJob& j) -> absl::StatusOr<SshKeyPair> {
      py::gil_scoped_acquire gil;
      py::tuple pair = ssh_keys(j.metadata.name);
      return SshKeyPair{pair[0].cast<std::string>(), pair[1].cast<std::string>()};
    };
  }
  absl::StatusOr<Expansion> e = ExpandJob(job, options);
  if (!e.ok()) Raise(e.status());
  py::list out;
  for (const Value* v : e->All()) out.append(ToPython(*v));
  return out;
}

py::dict StatusDict(const JobStatus& s) {
  py::dict d;
  d["phase"] = s.phase;
  d["retry_count"] = s.retry_count;
  d["version"] = s.version;
  d["min_available"] = s.min_available;
  d["pending"] = s.pending;
  d["running"] = s.running;
  d["succeeded"] = s.succeeded;
  d["failed"] = s.failed;
  d["terminating"] = s.terminating;
  d["unknown"] = s.unknown;
  d["last_transition_time"] = s.last_transition_time;
  return d;
}

py::dict StepDict(const SimulatorStep& s) {
  py::dict d;
  d["what"] = s.what;
  d["event"] = std::string(JobEventName(s.request.event));
  d["action"] = std::string(JobActionName(s.choice.action));
  d["matched"] = s.choice.matched;
  d["delayed_seconds"] = s.executed ? py::object(py::none()) : py::object(py::int_(*s.choice.timeout_seconds));
  py::list commands;
  auto add = [&](const JobStep& step) {
    for (const JobCommand& c : step.commands) commands.append(py::make_tuple(std::string(JobCommandKindName(c.kind)), c.target));
  };
  if (s.executed) add(*s.executed);
  for (const JobStep& f : s.follow_ups) add(f);
  d["commands"] = commands;
  d["phase"] = s.follow_ups.empty() ? (s.executed ? s.executed->status.phase : std::string())
                                    : s.follow_ups.back().status.phase;
  return d;
}

template <typename T>
py::dict Step(absl::StatusOr<T> s) {
  return StepDict(Unwrap(std::move(s)));
}

}  // namespace

void RegisterLifecycle(py::module_& m) {
  m.def("validate_manifests", &Validate, py::arg("sources"), py::arg("strict") = false,
        py::arg("cluster") = std::nullopt);
  m.def("expand_job", &Expand, py::arg("sources"), py::arg("ssh_keys") = py::none());
  m.def("cron_next",
        [](const std::string& schedule, int64_t after, int64_t utc_offset_seconds,
           const std::optional<std::string>& time_zone) -> std::optional<int64_t> {
          CronSchedule s = Unwrap(CronSchedule::Parse(schedule));
          absl::TimeZone zone = absl::FixedTimeZone(static_cast<int>(utc_offset_seconds));
          if (time_zone) {
            if (utc_offset_seconds != 0) throw InputError("cron_next: give utc_offset_seconds or time_zone, not both");
            // The Python module is a host: it may read the system's zoneinfo (the core never does).
            if (!absl::LoadTimeZone(*time_zone, &zone)) {
              throw InputError("cron_next: unknown time zone \"" + *time_zone + "\" (an IANA name such as Asia/Shanghai)");
            }
          } else if (utc_offset_seconds < -86400 || utc_offset_seconds > 86400) {
            throw InputError("cron_next: utc_offset_seconds must be within a day");
          }
          std::optional<absl::Time> n = s.Next(absl::FromUnixSeconds(after), zone);
          return n ? std::optional<int64_t>(absl::ToUnixSeconds(*n)) : std::nullopt;
        },
        py::arg("schedule"), py::arg("after"), py::arg("utc_offset_seconds") = 0, py::kw_only(),
        py::arg("time_zone") = std::nullopt);
  py::class_<JobSimulator>(m, "JobSimulator")
      .def(py::init([](const std::vector<std::pair<std::string, std::string>>& sources, int64_t now) {
             return Unwrap(JobSimulator::Create(AdmittedJob(sources), now));
           }),
           py::arg("sources"), py::arg("now") = 0)
      .def("sync", [](JobSimulator& s) { return StepDict(s.Sync()); })
      .def("set_pod_group_phase", [](JobSimulator& s, const std::string& p) { return Step(s.SetPodGroupPhase(p)); })
      .def("set_pod_phase",
           [](JobSimulator& s, const std::string& pod, const std::string& phase, std::optional<int32_t> code) {
             return Step(s.SetPodPhase(pod, phase, code));
           },
           py::arg("pod"), py::arg("phase"), py::arg("exit_code") = std::nullopt)
      .def("set_all_pods",
           [](JobSimulator& s, const std::string& phase) {
             py::list out;
             for (const SimulatorStep& step : Unwrap(s.SetAllPods(phase))) out.append(StepDict(step));
             return out;
           })
      .def("evict_pod", [](JobSimulator& s, const std::string& pod) { return Step(s.EvictPod(pod)); })
      .def("restart_container", [](JobSimulator& s, const std::string& pod) { return Step(s.RestartContainer(pod)); })
      .def("command", [](JobSimulator& s, const std::string& action) { return Step(s.Command(action)); })
      .def("event",
           [](JobSimulator& s, const std::string& event, const std::string& task, const std::string& pod) {
             absl::StatusOr<JobRequest> request = EventRequest(event, task, pod);
             if (!request.ok()) return Step(absl::StatusOr<SimulatorStep>(request.status()));
             return Step(s.Deliver(*std::move(request), "event " + event));
           },
           py::arg("event"), py::arg("task") = "", py::arg("pod") = "")
      .def("advance",
           [](JobSimulator& s, int64_t seconds) {
             py::list out;
             for (const SimulatorStep& step : Unwrap(s.Advance(seconds))) out.append(StepDict(step));
             return out;
           })
      .def_property_readonly("status", [](const JobSimulator& s) { return StatusDict(s.status()); })
      .def_property_readonly("pods",
                             [](const JobSimulator& s) {
                               py::dict out;
                               for (const JobPod& p : s.world().pods) out[py::str(p.name)] = p.phase;
                               return out;
                             })
      .def_property_readonly("pod_group_phase", [](const JobSimulator& s) { return s.world().pod_group_phase; })
      .def_property_readonly("now", &JobSimulator::now)
      .def_property_readonly("deleted", &JobSimulator::deleted);
}

}  // namespace vcsched::python
