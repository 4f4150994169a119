// jobs.csv, timeline.csv, queues.csv and summary.json (docs/SIMULATE.md): numbers are
// printed by one rule (fixed decimals, trailing zeros dropped) so that the same result
// gives the same bytes.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/model/output_text.h"
#include "src/simulate/sim_outputs.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace simulate_internal {

std::string Num(double x) {
  if (!std::isfinite(x)) return "0";
  // As printf's %.6f (correctly rounded), without a format string parsed per number:
  // a day's tables print millions of them.
  char buf[400];  // the largest double in fixed notation: 309 digits, a point, 6 decimals
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, 6);
  std::string s(buf, r.ec == std::errc() ? r.ptr : buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string Seconds(double s) { return s < 0 ? "" : Num(s); }

double NearestRank(std::vector<double> sorted_values, double p) {
  if (sorted_values.empty()) return 0;
  std::sort(sorted_values.begin(), sorted_values.end());
  const size_t n = sorted_values.size();
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
  rank = std::clamp<size_t>(rank, 1, n);
  return sorted_values[rank - 1];
}

std::map<std::string, std::vector<double>> WaitsByQueue(const SimulationResult& r) {
  std::map<std::string, std::vector<double>> waits;
  for (const JobRecord& j : r.jobs) {
    if (j.running_s >= 0) waits[j.queue].push_back(j.running_s - j.created_s);
  }
  return waits;
}

Headline HeadlineOf(const SimulationResult& r) {
  Headline h;
  double first_arrival = -1, last_finish = -1;
  for (const JobRecord& j : r.jobs) {
    if (first_arrival < 0 || j.created_s < first_arrival) first_arrival = j.created_s;
    if (j.finished_s >= 0 && j.phase == "Completed") ++h.completed;
    if (j.finished_s < 0) ++h.unfinished;
    if (j.finished_s >= 0) last_finish = std::max(last_finish, j.finished_s);
  }
  // A makespan is the time all the work took: with work unfinished there is none.
  if (!r.jobs.empty() && h.unfinished == 0) h.makespan_s = last_finish - first_arrival;
  return h;
}

std::map<std::string, int64_t> NeverStartedByReason(const SimulationResult& r) {
  std::map<std::string, int64_t> counts;
  for (const auto& [job, why] : r.never_started) ++counts[why.reason];
  return counts;
}

}  // namespace simulate_internal

using simulate_internal::Num;
using simulate_internal::Seconds;

std::string JobsCsv(const SimulationResult& r) {
  std::string out = "job,queue,created_s,inqueue_s,running_s,finished_s,phase,wait_s,retries\n";
  for (const JobRecord& j : r.jobs) {
    absl::StrAppend(&out, CsvCell(j.job), ",", CsvCell(j.queue), ",", Seconds(j.created_s), ",",
                    Seconds(j.inqueue_s), ",", Seconds(j.running_s), ",", Seconds(j.finished_s), ",", CsvCell(j.phase),
                    ",", j.running_s >= 0 ? Num(j.running_s - j.created_s) : "", ",", j.retries, "\n");
  }
  return out;
}

std::string TimelineCsv(const SimulationResult& r) {
  std::string out = "time_s,pending_pods,running_pods";
  for (const std::string& res : r.resources) {
    absl::StrAppend(&out, ",", CsvCell(res + "_allocated"), ",", CsvCell(res + "_capacity"), ",",
                    CsvCell(res + "_goodput"));
  }
  out += "\n";
  for (const TimelineRow& row : r.timeline) {
    absl::StrAppend(&out, Num(row.time_s), ",", row.pending_pods, ",", row.running_pods);
    for (size_t i = 0; i < r.resources.size(); ++i) {
      absl::StrAppend(&out, ",", Num(row.allocated[i]), ",", Num(row.capacity[i]), ",", Num(row.goodput[i]));
    }
    out += "\n";
  }
  return out;
}

std::string QueuesCsv(const SimulationResult& r) {
  std::string out = "time_s,queue";
  for (const std::string& res : r.resources) {
    absl::StrAppend(&out, ",", CsvCell(res + "_allocated"), ",", CsvCell(res + "_deserved"), ",",
                    CsvCell(res + "_goodput"));
  }
  out += ",share\n";
  for (const QueueRow& row : r.queues) {
    absl::StrAppend(&out, Num(row.time_s), ",", CsvCell(row.queue));
    for (size_t i = 0; i < r.resources.size(); ++i) {
      absl::StrAppend(&out, ",", Num(row.allocated[i]), ",", Num(row.deserved[i]), ",", Num(row.goodput[i]));
    }
    absl::StrAppend(&out, ",", Num(row.share), "\n");
  }
  return out;
}

std::string CardsCsv(const SimulationResult& r) {
  std::string out = "time_s,node,card,memory,used_memory,pods\n";
  for (const CardUseRow& row : r.cards) {
    absl::StrAppend(&out, Num(row.time_s), ",", CsvCell(row.node), ",", row.card, ",", row.memory, ",", row.used_memory,
                    ",", row.pods, "\n");
  }
  return out;
}

namespace {

// {"cpu": 0.5, "memory": 0.25}
std::string PerResource(const SimulationResult& r, const std::vector<double>& values) {
  std::string out = "{";
  for (size_t i = 0; i < r.resources.size() && i < values.size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", JsonQuote(r.resources[i]), ": ", Num(values[i]));
  }
  return out + "}";
}

std::string StallJson(const SimulationResult& r) {
  if (!r.stall) return "null";
  const Stall& s = *r.stall;
  std::string jobs;
  for (const std::string& j : s.deadlocked) absl::StrAppend(&jobs, jobs.empty() ? "" : ", ", JsonQuote(j));
  return absl::StrCat("{\"since_s\": ", Num(s.since_s), ", \"unfinished\": ", s.unfinished,
                      ", \"deadlock\": ", s.deadlocked.empty() ? "null" : absl::StrCat("{\"jobs\": [", jobs,
                      "], \"held\": ", PerResource(r, s.held), "}"), "}");
}

}  // namespace

std::string SummaryJson(const SimulationResult& r) {
  const simulate_internal::Headline h = simulate_internal::HeadlineOf(r);
  std::string out = absl::StrCat("{\n  \"jobs\": ", r.jobs.size(), ",\n  \"finished\": ", h.completed,
                                 ",\n  \"unfinished\": ", h.unfinished, ",\n  \"makespan_s\": ",
                                 h.makespan_s ? Num(*h.makespan_s) : "null",
                                 ",\n  \"utilization\": ", PerResource(r, r.utilization),
                                 ",\n  \"goodput\": ", PerResource(r, r.goodput), ",\n  \"queues\": {");
  bool first = true;
  for (const auto& [queue, usage] : r.queue_usage) {
    absl::StrAppend(&out, first ? "" : ",", "\n    ", JsonQuote(queue), ": {\"utilization\": ",
                    PerResource(r, usage.utilization), ", \"goodput\": ", PerResource(r, usage.goodput), "}");
    first = false;
  }
  absl::StrAppend(&out, r.queue_usage.empty() ? "" : "\n  ", "},\n  \"wait_s\": {");
  first = true;
  for (const auto& [queue, waits] : simulate_internal::WaitsByQueue(r)) {
    absl::StrAppend(&out, first ? "" : ", ", JsonQuote(queue), ": {\"p50\": ",
                    Num(simulate_internal::NearestRank(waits, 50)), ", \"p90\": ",
                    Num(simulate_internal::NearestRank(waits, 90)), ", \"p99\": ",
                    Num(simulate_internal::NearestRank(waits, 99)), "}");
    first = false;
  }
  absl::StrAppend(&out, "},\n  \"evictions\": ", r.evictions, ",\n  \"stall\": ", StallJson(r),
                  ",\n  \"never_started_by_reason\": {");
  first = true;
  for (const auto& [code, n] : simulate_internal::NeverStartedByReason(r)) {
    absl::StrAppend(&out, first ? "" : ", ", JsonQuote(code), ": ", n);
    first = false;
  }
  absl::StrAppend(&out, "},\n  \"never_started\": {");
  first = true;
  for (const auto& [job, why] : r.never_started) {
    std::string check;
    for (const auto& [name, value] : why.check) {
      absl::StrAppend(&check, check.empty() ? "" : ", ", JsonQuote(name), ": ", JsonQuote(value));
    }
    absl::StrAppend(&out, first ? "" : ",", "\n    ", JsonQuote(job), ": {\"reason\": ", JsonQuote(why.reason),
                    ", \"message\": ", JsonQuote(why.message), ", \"check\": {", check, "}, \"running\": ",
                    why.running, ", \"pods\": ", why.pods, ", \"barrier\": ", why.barrier, "}");
    first = false;
  }
  absl::StrAppend(&out, r.never_started.empty() ? "" : "\n  ", "},\n  \"sessions\": ", r.sessions, ",\n  \"events\": ",
                  r.events, ",\n  \"end_s\": ", Num(r.end_s), "\n}\n");
  return out;
}

std::string SummaryText(const SimulationResult& r) {
  const simulate_internal::Headline h = simulate_internal::HeadlineOf(r);
  std::string out = absl::StrCat("jobs: ", r.jobs.size(), ", completed ", h.completed, ", unfinished ", h.unfinished,
                                 "; makespan ",
                                 h.makespan_s ? absl::StrCat(Num(*h.makespan_s), "s")
                                              : absl::StrCat("none (", h.unfinished, " jobs did not finish)"),
                                 "; simulated ", Num(r.end_s), "s\n");
  std::string alloc, good;
  for (size_t i = 0; i < r.resources.size(); ++i) {
    if (!(r.utilization[i] > 0)) continue;
    absl::StrAppend(&alloc, alloc.empty() ? "" : ", ", r.resources[i], " ", Num(std::round(r.utilization[i] * 1000) / 10), "%");
    absl::StrAppend(&good, good.empty() ? "" : ", ", r.resources[i], " ", Num(std::round(r.goodput[i] * 1000) / 10), "%");
  }
  if (!alloc.empty()) absl::StrAppend(&out, "allocated: ", alloc, "\ngoodput (held by jobs at their barrier): ", good, "\n");
  if (r.stall) {
    absl::StrAppend(&out, "stalled: from ", Num(r.stall->since_s), "s nothing could change; ", r.stall->unfinished,
                    " jobs unfinished");
    if (!r.stall->deadlocked.empty()) {
      absl::StrAppend(&out, "; deadlock: ", r.stall->deadlocked.size(), " jobs hold resources without reaching their barrier (");
      for (size_t i = 0; i < r.stall->deadlocked.size() && i < 5; ++i) absl::StrAppend(&out, i ? ", " : "", r.stall->deadlocked[i]);
      if (r.stall->deadlocked.size() > 5) out += ", ...";
      out += ")";
    }
    out += "\n";
  }
  if (!r.never_started.empty()) {
    absl::StrAppend(&out, "never started: ", r.never_started.size(), " (");
    bool first = true;
    for (const auto& [code, n] : simulate_internal::NeverStartedByReason(r)) {
      absl::StrAppend(&out, first ? "" : ", ", code, " ", n);
      first = false;
    }
    out += ")\n";
  }
  return out;
}

}  // namespace vcsched
