// Start-time estimates as JSON and as text (vcsched eta -o json|text; docs/ETA.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "src/model/output_text.h"
#include "src/simulate/eta_text.h"
#include "vcsched/eta.h"

namespace vcsched {
namespace simulate_internal {
namespace {

std::string Rfc3339(int64_t seconds) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(seconds), absl::UTCTimeZone());
}

// A number as JSON writes it: integers without a point, others to the millisecond.
std::string JsonNumber(double x) {
  if (!std::isfinite(x)) return "null";
  if (x == std::floor(x) && std::fabs(x) < 9e15) return absl::StrFormat("%.0f", x);
  std::string s = absl::StrFormat("%.3f", x);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string OptionalNumber(const std::optional<double>& x) { return x ? JsonNumber(*x) : "null"; }

std::string Amount(const std::string& resource, double v) {
  if (resource == "memory") {
    const double gi = v / (1024.0 * 1024 * 1024);
    if (gi >= 1) return absl::StrCat(JsonNumber(std::round(gi * 10) / 10), "Gi");
    return absl::StrCat(JsonNumber(std::round(v / (1024.0 * 1024))), "Mi");
  }
  return JsonNumber(std::round(v * 1000) / 1000);
}

}  // namespace

std::string ShortDuration(double seconds) {
  const int64_t s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  if (s < 60) return absl::StrCat(s, "s");
  const int64_t m = (s + 30) / 60;
  if (m < 60) return absl::StrCat(m, "m");
  if (m < 24 * 60) return m % 60 ? absl::StrCat(m / 60, "h", m % 60, "m") : absl::StrCat(m / 60, "h");
  const int64_t h = (m + 30) / 60;
  return h % 24 ? absl::StrCat(h / 24, "d", h % 24, "h") : absl::StrCat(h / 24, "d");
}

std::string FreesText(const std::map<std::string, double>& frees) {
  std::string out;
  auto add = [&](const std::string& name, double v) {
    if (v <= 0) return;
    absl::StrAppend(&out, out.empty() ? "" : ", ", Amount(name, v), " ", name);
  };
  for (const auto& [name, v] : frees) {
    if (name != "cpu" && name != "memory" && name != "pods") add(name, v);
  }
  if (!out.empty()) return out;
  for (const char* name : {"cpu", "memory"}) {
    if (auto it = frees.find(name); it != frees.end()) add(name, it->second);
  }
  return out;
}

std::string StartNote(const EtaJob& job) {
  if (job.waits_for.empty()) return "nothing it needs is taken: it starts as soon as sessions place it";
  const EtaWait& last = job.waits_for.back();
  std::string note = absl::StrCat("after ", last.job, last.evicted ? " is evicted" : " ends");
  const std::string frees = FreesText(last.frees);
  if (!frees.empty()) absl::StrAppend(&note, " and frees ", frees);
  if (job.waits_for.size() > 1) absl::StrAppend(&note, " (and ", job.waits_for.size() - 1, " earlier)");
  return note;
}

}  // namespace simulate_internal

std::string EtaJson(const EtaResult& r, bool with_samples) {
  using simulate_internal::JsonNumber;
  std::string out = absl::StrCat("{\"now\": ", JsonQuote(simulate_internal::Rfc3339(r.now_seconds)),
                                 ", \"now_s\": ", r.now_seconds, ", \"horizon_s\": ", r.horizon_ms / 1000, ", \"samples\": ", r.samples, ", \"jobs\": [");
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    const EtaJob& j = r.jobs[i];
    absl::StrAppend(&out, i ? "," : "", "\n  {\"job\": ", JsonQuote(j.job), ", \"queue\": ", JsonQuote(j.queue),
                    ", \"start_s\": ", simulate_internal::OptionalNumber(j.start_s), ", \"start\": ",
                    j.start ? JsonQuote(simulate_internal::Rfc3339(*j.start)) : "null", ", \"position\": ", j.position,
                    ", \"waits_for\": [");
    for (size_t k = 0; k < j.waits_for.size(); ++k) {
      const EtaWait& w = j.waits_for[k];
      absl::StrAppend(&out, k ? ", " : "", "{\"job\": ", JsonQuote(w.job), ", \"ends_s\": ", JsonNumber(w.ends_s),
                      ", \"evicted\": ", w.evicted ? "true" : "false", ", \"frees\": {");
      bool first = true;
      for (const auto& [name, v] : w.frees) {
        absl::StrAppend(&out, first ? "" : ", ", JsonQuote(name), ": ", JsonNumber(std::round(v * 1000) / 1000));
        first = false;
      }
      absl::StrAppend(&out, "}}");
    }
    absl::StrAppend(&out, "], \"reason\": ", JsonQuote(j.reason), ", \"note\": ", JsonQuote(j.note));
    if (r.samples > 1) {
      absl::StrAppend(&out, ", \"p10_s\": ", simulate_internal::OptionalNumber(j.p10_s),
                      ", \"p50_s\": ", simulate_internal::OptionalNumber(j.p50_s),
                      ", \"p90_s\": ", simulate_internal::OptionalNumber(j.p90_s),
                      ", \"samples_started\": ", j.samples_started);
      if (with_samples) {
        absl::StrAppend(&out, ", \"sample_starts_s\": [");
        for (size_t k = 0; k < j.sample_starts_s.size(); ++k) {
          absl::StrAppend(&out, k ? ", " : "", j.sample_starts_s[k] < 0 ? "null" : JsonNumber(j.sample_starts_s[k]));
        }
        absl::StrAppend(&out, "]");
      }
    }
    absl::StrAppend(&out, "}");
  }
  absl::StrAppend(&out, r.jobs.empty() ? "]}\n" : "\n]}\n");
  return out;
}

std::string EtaLine(const EtaResult& r, const EtaJob& j) {
  using simulate_internal::ShortDuration;
  std::string out;
  if (j.start_s) {
    const absl::Time at = absl::FromUnixSeconds(*j.start);
    const bool same_day = *j.start - r.now_seconds < 86400;
    const std::string when = absl::FormatTime(same_day ? "%H:%MZ" : "%Y-%m-%d %H:%MZ", at, absl::UTCTimeZone());
    if (*j.start_s < 1) absl::StrAppend(&out, "starts at the next session (", when, ")");
    else absl::StrAppend(&out, "starts in ~", ShortDuration(*j.start_s), " (", when, ")");
    if (!j.waits_for.empty()) absl::StrAppend(&out, ", ", simulate_internal::StartNote(j));
  } else {
    absl::StrAppend(&out, "not within ", ShortDuration(static_cast<double>(r.horizon_ms) / 1000), ": ", j.note);
  }
  if (r.samples > 1) {
    auto p = [&](const std::optional<double>& v) { return v ? ShortDuration(*v) : std::string("never"); };
    absl::StrAppend(&out, "  [p10 ", p(j.p10_s), ", p50 ", p(j.p50_s), ", p90 ", p(j.p90_s), "; started in ",
                    j.samples_started, "/", r.samples, "]");
  }
  return out;
}

std::string EtaText(const EtaResult& r) {
  if (r.jobs.empty()) return absl::StrCat("no pending jobs at ", simulate_internal::Rfc3339(r.now_seconds), "\n");
  size_t width = 0;
  for (const EtaJob& j : r.jobs) width = std::max(width, Printable(j.job).size());
  std::string out;
  for (const EtaJob& j : r.jobs) {
    std::string name = Printable(j.job);
    name.resize(width, ' ');
    absl::StrAppend(&out, name, "  ", Printable(EtaLine(r, j)));
    if (j.position > 0) absl::StrAppend(&out, "  #", j.position, " in ", Printable(j.queue));
    absl::StrAppend(&out, "\n");
  }
  return out;
}

void AddEstimates(const EtaResult& estimates, Explanation& explanation) {
  std::map<std::string, const EtaJob*> by_key;
  for (const EtaJob& j : estimates.jobs) by_key[j.job] = &j;
  for (JobExplanation& e : explanation.jobs) {
    if (auto it = by_key.find(e.job); it != by_key.end()) e.eta = EtaLine(estimates, *it->second);
  }
}

}  // namespace vcsched
