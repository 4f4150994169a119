// Reads `kind: Workload` documents (docs/SIMULATE.md) into a Workload. Every field is
// checked here, with its path, so that the loop never meets a malformed entry.
#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "absl/time/time.h"
#include "vcsched/arguments.h"
#include "vcsched/io/manifests.h"
#include "vcsched/simulate.h"
#include "vcsched/snapshot.h"

namespace vcsched {
namespace {

// Collects errors as "<where>: <path>: <message>".
class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}
  void Fail(const std::string& path, const std::string& message) {
    errors_.push_back(absl::StrCat(where_, ": ", path, ": ", message));
  }
  const std::vector<std::string>& errors() const { return errors_; }
  const std::string& where() const { return where_; }

  // Fails on keys of `map` not in `known`.
  void OnlyKeys(const Value& map, const std::string& path, std::initializer_list<absl::string_view> known) {
    for (const auto& [k, _] : map.entries()) {
      if (std::find(known.begin(), known.end(), k) == known.end()) {
        Fail(Join(path, k), absl::StrCat("unknown field; expected one of ", absl::StrJoin(known, ", ")));
      }
    }
  }
  static std::string Join(const std::string& path, absl::string_view key) {
    return path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
  }

  std::optional<int64_t> Duration(const Value* v, const std::string& path, bool positive = false) {
    if (v == nullptr) return std::nullopt;
    if (!v->is_scalar()) {
      Fail(path, absl::StrCat("expected a duration such as 30s or 1h30m, got ", v->Describe()));
      return std::nullopt;
    }
    absl::StatusOr<int64_t> ms = ParseGoDurationMillis(v->text());
    if (!ms.ok()) {
      Fail(path, absl::StrCat(ms.status().message(), "; expected a duration such as 30s or 1h30m"));
      return std::nullopt;
    }
    if (*ms < 0 || (positive && *ms == 0)) {
      Fail(path, absl::StrCat("must be ", positive ? "positive" : "zero or more", ", got ", v->text()));
      return std::nullopt;
    }
    if (*ms > kMaxMillis) {
      Fail(path, absl::StrCat("is longer than 100 years: ", v->text()));
      return std::nullopt;
    }
    return *ms;
  }
  std::optional<int64_t> Integer(const Value* v, const std::string& path, int64_t low, int64_t high) {
    if (v == nullptr) return std::nullopt;
    int64_t n = 0;
    if (!v->is_scalar() || !absl::SimpleAtoi(v->text(), &n) || n < low || n > high) {
      Fail(path, absl::StrCat("expected an integer from ", low, " to ", high, ", got ", v->Describe()));
      return std::nullopt;
    }
    return n;
  }
  std::optional<double> Number(const Value* v, const std::string& path, double low, double high) {
    if (v == nullptr) return std::nullopt;
    double x = 0;
    if (!v->is_scalar() || !absl::SimpleAtod(v->text(), &x) || !std::isfinite(x) || x < low || x > high) {
      Fail(path, absl::StrCat("expected a number from ", low, " to ", high, ", got ", v->Describe()));
      return std::nullopt;
    }
    return x;
  }
  const Value* Map(const Value* v, const std::string& path) {
    if (v != nullptr && !v->is_map()) {
      Fail(path, absl::StrCat("expected a map, got ", v->Describe()));
      return nullptr;
    }
    return v;
  }
  const Value* List(const Value* v, const std::string& path) {
    if (v != nullptr && !v->is_list()) {
      Fail(path, absl::StrCat("expected a list, got ", v->Describe()));
      return nullptr;
    }
    return v;
  }

  static constexpr int64_t kMaxMillis = int64_t{100} * 366 * 24 * 3600 * 1000;

 private:
  std::string where_;
  std::vector<std::string> errors_;
};

std::optional<DurationDistribution> ReadDistribution(Reader& r, const Value* v, const std::string& path) {
  using K = DurationDistribution::Kind;
  if (r.Map(v, path) == nullptr) {
    if (v == nullptr) r.Fail(path, "is required: {fixed: 10m}, {uniform: [5m, 20m]}, {exponential: {mean: 10m}} or {lognormal: {median: 10m, sigma: 0.5}}");
    return std::nullopt;
  }
  if (v->size() != 1) {
    r.Fail(path, "expected exactly one of fixed, uniform, exponential, lognormal");
    return std::nullopt;
  }
  const auto& [kind, body] = v->entries()[0];
  const std::string p = Reader::Join(path, kind);
  DurationDistribution d;
  if (kind == "fixed") {
    d.kind = K::kFixed;
    std::optional<int64_t> ms = r.Duration(&body, p);
    if (!ms) return std::nullopt;
    d.a_ms = *ms;
  } else if (kind == "uniform") {
    d.kind = K::kUniform;
    if (!body.is_list() || body.size() != 2) {
      r.Fail(p, "expected [low, high]");
      return std::nullopt;
    }
    std::optional<int64_t> lo = r.Duration(&body.items()[0], p + "[0]"), hi = r.Duration(&body.items()[1], p + "[1]");
    if (!lo || !hi) return std::nullopt;
    if (*hi < *lo) {
      r.Fail(p, "high is below low");
      return std::nullopt;
    }
    d.a_ms = *lo;
    d.b_ms = *hi;
  } else if (kind == "exponential") {
    d.kind = K::kExponential;
    if (r.Map(&body, p) == nullptr) return std::nullopt;
    r.OnlyKeys(body, p, {"mean"});
    std::optional<int64_t> mean = r.Duration(body.Find("mean"), p + ".mean", true);
    if (!mean) {
      if (body.Find("mean") == nullptr) r.Fail(p + ".mean", "is required");
      return std::nullopt;
    }
    d.a_ms = *mean;
  } else if (kind == "lognormal") {
    d.kind = K::kLognormal;
    if (r.Map(&body, p) == nullptr) return std::nullopt;
    r.OnlyKeys(body, p, {"median", "sigma"});
    std::optional<int64_t> median = r.Duration(body.Find("median"), p + ".median", true);
    std::optional<double> sigma = r.Number(body.Find("sigma"), p + ".sigma", 0, 10);
    if (body.Find("median") == nullptr) r.Fail(p + ".median", "is required");
    if (body.Find("sigma") == nullptr) r.Fail(p + ".sigma", "is required");
    if (!median || !sigma) return std::nullopt;
    d.a_ms = *median;
    d.sigma = *sigma;
  } else {
    r.Fail(p, "unknown distribution; expected one of fixed, uniform, exponential, lognormal");
    return std::nullopt;
  }
  return d;
}

std::optional<ArrivalPattern> ReadArrival(Reader& r, const Value* v, const std::string& path) {
  using K = ArrivalPattern::Kind;
  if (r.Map(v, path) == nullptr) {
    if (v == nullptr) r.Fail(path, "is required: {at: [0s, 30s]}, {every: 60s, start: 0s} or {poisson: {mean: 30s, start: 0s}}");
    return std::nullopt;
  }
  ArrivalPattern a;
  if (const Value* at = v->Find("at")) {
    r.OnlyKeys(*v, path, {"at"});
    if (r.List(at, path + ".at") == nullptr) return std::nullopt;
    for (size_t i = 0; i < at->size(); ++i) {
      std::optional<int64_t> t = r.Duration(&at->items()[i], absl::StrCat(path, ".at[", i, "]"));
      if (t) a.at_ms.push_back(*t);
    }
    a.kind = K::kAt;
    return a;
  }
  if (const Value* every = v->Find("every")) {
    r.OnlyKeys(*v, path, {"every", "start"});
    a.kind = K::kEvery;
    std::optional<int64_t> gap = r.Duration(every, path + ".every", true);
    if (!gap) return std::nullopt;
    a.interval_ms = *gap;
    a.start_ms = r.Duration(v->Find("start"), path + ".start").value_or(0);
    return a;
  }
  if (const Value* poisson = v->Find("poisson")) {
    r.OnlyKeys(*v, path, {"poisson"});
    if (r.Map(poisson, path + ".poisson") == nullptr) return std::nullopt;
    r.OnlyKeys(*poisson, path + ".poisson", {"mean", "start"});
    a.kind = K::kPoisson;
    std::optional<int64_t> mean = r.Duration(poisson->Find("mean"), path + ".poisson.mean", true);
    if (!mean) {
      if (poisson->Find("mean") == nullptr) r.Fail(path + ".poisson.mean", "is required");
      return std::nullopt;
    }
    a.interval_ms = *mean;
    a.start_ms = r.Duration(poisson->Find("start"), path + ".poisson.start").value_or(0);
    return a;
  }
  r.Fail(path, "expected one of at, every, poisson");
  return std::nullopt;
}

std::optional<PodFailures> ReadFailures(Reader& r, const Value* v, const std::string& path) {
  if (r.Map(v, path) == nullptr) return std::nullopt;
  r.OnlyKeys(*v, path, {"probability", "exitCode"});
  PodFailures f;
  f.probability = r.Number(v->Find("probability"), path + ".probability", 0, 1).value_or(0);
  f.exit_code = static_cast<int32_t>(r.Integer(v->Find("exitCode"), path + ".exitCode", 0, 255).value_or(1));
  return f;
}

// The kind and apiVersion a template must have.
void ExpectKind(Reader& r, const Value* v, const std::string& path, absl::string_view api_group,
                absl::string_view kind) {
  if (r.Map(v, path) == nullptr) {
    if (v == nullptr) r.Fail(path, absl::StrCat("is required: a ", kind, " manifest"));
    return;
  }
  const Value* k = v->Find("kind");
  const Value* api = v->Find("apiVersion");
  if (k == nullptr || k->text() != kind) {
    r.Fail(path + ".kind", absl::StrCat("expected ", kind, ", got ", k == nullptr ? "nothing" : k->Describe()));
  }
  if (api == nullptr || !absl::StartsWith(api->text(), absl::StrCat(api_group, "/"))) {
    r.Fail(path + ".apiVersion",
           absl::StrCat("expected ", api_group, "/v1alpha1, got ", api == nullptr ? "nothing" : api->Describe()));
  }
}

void ReadJobShape(Reader& r, const Value& e, const std::string& p, std::optional<int32_t>* barrier,
                  int64_t* pod_interval_ms, std::optional<PodFailures>* failures) {
  if (std::optional<int64_t> b = r.Integer(e.Find("barrier"), p + ".barrier", 1, 1000000)) {
    *barrier = static_cast<int32_t>(*b);
  }
  *pod_interval_ms = r.Duration(e.Find("podInterval"), p + ".podInterval").value_or(0);
  if (const Value* f = e.Find("failures")) *failures = ReadFailures(r, f, p + ".failures");
}

void ReadJobs(Reader& r, const Value& list, Workload& w, std::set<std::string>& names) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = absl::StrCat("jobs[", i, "]");
    const Value& e = list.items()[i];
    if (r.Map(&e, p) == nullptr) continue;
    r.OnlyKeys(e, p, {"name", "count", "arrival", "duration", "barrier", "podInterval", "failures", "template"});
    WorkloadJob j;
    j.where = absl::StrCat(r.where(), ": ", p);
    const Value* name = e.Find("name");
    if (name == nullptr || !name->is_scalar() || name->text().empty()) {
      r.Fail(p + ".name", "is required (instances are <name>-0, <name>-1, ...)");
    } else {
      j.name = name->text();
      if (!names.insert(j.name).second) r.Fail(p + ".name", absl::StrCat("\"", j.name, "\" is used twice"));
    }
    std::optional<ArrivalPattern> arrival = ReadArrival(r, e.Find("arrival"), p + ".arrival");
    std::optional<int64_t> count = r.Integer(e.Find("count"), p + ".count", 0, 10000000);
    if (arrival) {
      j.arrival = *arrival;
      if (arrival->kind == ArrivalPattern::Kind::kAt) {
        const int64_t n = static_cast<int64_t>(arrival->at_ms.size());
        if (count && *count != n) {
          r.Fail(p + ".count", absl::StrCat("is ", *count, " but arrival.at lists ", n, " times"));
        }
        j.count = n;
      } else if (!count) {
        if (e.Find("count") == nullptr) r.Fail(p + ".count", "is required with every and poisson arrivals");
      } else {
        j.count = *count;
      }
    }
    if (std::optional<DurationDistribution> d = ReadDistribution(r, e.Find("duration"), p + ".duration")) j.duration = *d;
    ReadJobShape(r, e, p, &j.barrier, &j.pod_interval_ms, &j.failures);
    ExpectKind(r, e.Find("template"), p + ".template", "batch.volcano.sh", "Job");
    if (const Value* t = e.Find("template")) j.template_ = *t;
    w.jobs.push_back(std::move(j));
  }
}

void ReadCronJobs(Reader& r, const Value& list, Workload& w) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = absl::StrCat("cronJobs[", i, "]");
    const Value& e = list.items()[i];
    if (r.Map(&e, p) == nullptr) continue;
    r.OnlyKeys(e, p, {"duration", "barrier", "podInterval", "failures", "template"});
    WorkloadCronJob c;
    c.where = absl::StrCat(r.where(), ": ", p);
    if (std::optional<DurationDistribution> d = ReadDistribution(r, e.Find("duration"), p + ".duration")) c.duration = *d;
    ReadJobShape(r, e, p, &c.barrier, &c.pod_interval_ms, &c.failures);
    ExpectKind(r, e.Find("template"), p + ".template", "batch.volcano.sh", "CronJob");
    if (const Value* t = e.Find("template")) c.template_ = *t;
    w.cron_jobs.push_back(std::move(c));
  }
}

void ReadJobFlows(Reader& r, const Value& list, Workload& w) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = absl::StrCat("jobFlows[", i, "]");
    const Value& e = list.items()[i];
    if (r.Map(&e, p) == nullptr) continue;
    r.OnlyKeys(e, p, {"durations", "flow", "templates"});
    WorkloadJobFlow f;
    f.where = absl::StrCat(r.where(), ": ", p);
    if (const Value* d = r.Map(e.Find("durations"), p + ".durations")) {
      for (const auto& [name, body] : d->entries()) {
        if (std::optional<DurationDistribution> dist = ReadDistribution(r, &body, p + ".durations." + name)) {
          f.durations[name] = *dist;
        }
      }
    }
    ExpectKind(r, e.Find("flow"), p + ".flow", "flow.volcano.sh", "JobFlow");
    if (const Value* t = e.Find("flow")) f.flow = *t;
    if (const Value* ts = r.List(e.Find("templates"), p + ".templates")) {
      for (size_t k = 0; k < ts->size(); ++k) {
        ExpectKind(r, &ts->items()[k], absl::StrCat(p, ".templates[", k, "]"), "flow.volcano.sh", "JobTemplate");
        f.templates.push_back(ts->items()[k]);
      }
    } else if (e.Find("templates") == nullptr) {
      r.Fail(p + ".templates", "is required: the flow's JobTemplate manifests");
    }
    w.job_flows.push_back(std::move(f));
  }
}

void ReadNodeEvents(Reader& r, const Value& list, Workload& w) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = absl::StrCat("nodes[", i, "]");
    const Value& e = list.items()[i];
    if (r.Map(&e, p) == nullptr) continue;
    r.OnlyKeys(e, p, {"at", "add", "remove", "cordon", "uncordon"});
    NodeEvent n;
    n.where = absl::StrCat(r.where(), ": ", p);
    std::optional<int64_t> at = r.Duration(e.Find("at"), p + ".at");
    if (e.Find("at") == nullptr) r.Fail(p + ".at", "is required");
    n.at_ms = at.value_or(0);
    int kinds = 0;
    for (auto [key, kind] : {std::pair{"remove", NodeEvent::Kind::kRemove}, std::pair{"cordon", NodeEvent::Kind::kCordon},
                             std::pair{"uncordon", NodeEvent::Kind::kUncordon}}) {
      if (const Value* v = e.Find(key)) {
        ++kinds;
        n.kind = kind;
        if (!v->is_scalar() || v->text().empty()) {
          r.Fail(Reader::Join(p, key), "expected a node name");
        } else if (const std::vector<std::string> bad = NameProblems("Node", v->text()); !bad.empty()) {
          // As every object's name: one with a line break would forge lines of the notes.
          r.Fail(Reader::Join(p, key), bad.front());
        }
        n.node = v->text();
      }
    }
    if (const Value* add = e.Find("add")) {
      ++kinds;
      n.kind = NodeEvent::Kind::kAdd;
      if (r.Map(add, p + ".add") != nullptr) {
        const Value* kind = add->Find("kind");
        if (kind == nullptr || kind->text() != "Node") r.Fail(p + ".add.kind", "expected a Node manifest");
        n.manifest = *add;
      }
    }
    if (kinds != 1) r.Fail(p, "expected exactly one of add, remove, cordon, uncordon");
    w.nodes.push_back(std::move(n));
  }
}

// A scalar field set by more than one document must agree.
template <typename T>
void SetOnce(Reader& r, std::optional<T>& slot, std::optional<T> value, const std::string& key,
             std::map<std::string, std::string>& set_by) {
  if (!value) return;
  if (slot && *slot != *value) {
    r.Fail(key, absl::StrCat("differs from the value set by ", set_by[key]));
    return;
  }
  slot = value;
  set_by[key] = r.where();
}

}  // namespace

absl::StatusOr<Workload> ReadWorkload(const std::vector<ScenarioSource>& sources) {
  absl::StatusOr<std::vector<Manifest>> manifests = LoadManifests(sources);
  if (!manifests.ok()) return manifests.status();
  Workload w;
  std::vector<std::string> errors;
  std::optional<uint64_t> seed;
  std::optional<int64_t> period, bind_latency, grace, start;
  std::map<std::string, std::string> set_by;
  std::set<std::string> names;
  int workloads = 0;
  for (const Manifest& m : *manifests) {
    Reader r(m.where);
    if (m.kind != "Workload" || m.api_version != "vcsched/v1") {
      r.Fail("kind", absl::StrCat("expected apiVersion vcsched/v1, kind Workload; got ", m.api_version, " ", m.kind));
      errors.insert(errors.end(), r.errors().begin(), r.errors().end());
      continue;
    }
    ++workloads;
    const Value& doc = m.object;
    r.OnlyKeys(doc, "", {"apiVersion", "kind", "metadata", "seed", "period", "bindLatency", "gracePeriod", "start",
                         "jobs", "cronJobs", "jobFlows", "nodes"});
    std::optional<int64_t> s = r.Integer(doc.Find("seed"), "seed", 0, INT64_MAX);
    SetOnce<uint64_t>(r, seed, s ? std::optional<uint64_t>(static_cast<uint64_t>(*s)) : std::nullopt, "seed", set_by);
    SetOnce(r, period, r.Duration(doc.Find("period"), "period", true), "period", set_by);
    SetOnce(r, bind_latency, r.Duration(doc.Find("bindLatency"), "bindLatency"), "bindLatency", set_by);
    SetOnce(r, grace, r.Duration(doc.Find("gracePeriod"), "gracePeriod"), "gracePeriod", set_by);
    if (const Value* st = doc.Find("start")) {
      absl::Time t;
      std::string err;
      if (!st->is_scalar() || !absl::ParseTime(absl::RFC3339_full, st->text(), &t, &err)) {
        r.Fail("start", absl::StrCat("expected an RFC 3339 time such as 2026-01-01T00:00:00Z, got ", st->Describe()));
      } else {
        SetOnce(r, start, std::optional<int64_t>(absl::ToUnixSeconds(t)), "start", set_by);
      }
    }
    if (const Value* v = r.List(doc.Find("jobs"), "jobs")) ReadJobs(r, *v, w, names);
    if (const Value* v = r.List(doc.Find("cronJobs"), "cronJobs")) ReadCronJobs(r, *v, w);
    if (const Value* v = r.List(doc.Find("jobFlows"), "jobFlows")) ReadJobFlows(r, *v, w);
    if (const Value* v = r.List(doc.Find("nodes"), "nodes")) ReadNodeEvents(r, *v, w);
    errors.insert(errors.end(), r.errors().begin(), r.errors().end());
  }
  if (workloads == 0 && errors.empty()) errors.push_back("no Workload document (apiVersion vcsched/v1, kind Workload)");
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  w.seed = seed.value_or(0);
  w.period_ms = period.value_or(1000);
  w.bind_latency_ms = bind_latency.value_or(0);
  w.grace_period_ms = grace.value_or(0);
  w.start_seconds = start.value_or(0);
  std::stable_sort(w.nodes.begin(), w.nodes.end(), [](const NodeEvent& a, const NodeEvent& b) { return a.at_ms < b.at_ms; });
  return w;
}

}  // namespace vcsched
