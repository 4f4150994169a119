// report.html: a one-screen summary first (jobs, goodput against allocation, stalls,
// queues' waits and shares, and why shares differ from weights), then the plots, then
// the details folded. Lists are cut to a screenful; the tables hold everything.
#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "src/model/output_text.h"
#include "src/simulate/sim_outputs.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace {

using simulate_internal::Num;

constexpr size_t kListed = 100;  // rows of a folded list

std::string Html(const std::string& s) { return XmlText(s); }

std::string Percent(double fraction) { return absl::StrFormat("%.1f%%", 100 * fraction); }

// "3h20m", "45s": a duration as a reader takes it in.
std::string Duration(double s) {
  if (s < 0) return "";
  const auto total = static_cast<int64_t>(std::llround(s));
  const int64_t d = total / 86400, h = total % 86400 / 3600, m = total % 3600 / 60, sec = total % 60;
  if (d > 0) return absl::StrCat(d, "d", h, "h");
  if (h > 0) return absl::StrCat(h, "h", m, "m");
  if (m > 0) return absl::StrCat(m, "m", sec, "s");
  return absl::StrCat(sec, "s");
}

struct QueueFacts {
  int64_t jobs = 0, started = 0, never = 0, never_admitted = 0;
  double before_admission_s = 0, after_admission_s = 0;  // waiting, summed over its jobs
  std::map<std::string, int64_t> reasons;                // never started, by code
};

std::map<std::string, QueueFacts> FactsByQueue(const SimulationResult& r) {
  std::map<std::string, QueueFacts> out;
  for (const JobRecord& j : r.jobs) {
    QueueFacts& f = out[j.queue];
    ++f.jobs;
    const double started = j.running_s >= 0 ? j.running_s : (j.finished_s >= 0 ? j.finished_s : r.end_s);
    if (j.running_s >= 0) ++f.started;
    if (j.inqueue_s >= 0) {
      f.before_admission_s += std::max(0.0, j.inqueue_s - j.created_s);
      f.after_admission_s += std::max(0.0, started - j.inqueue_s);
    } else {
      f.before_admission_s += std::max(0.0, started - j.created_s);
      if (j.running_s < 0) ++f.never_admitted;
    }
    if (auto it = r.never_started.find(j.job); it != r.never_started.end()) {
      ++f.never;
      ++f.reasons[it->second.reason];
    }
  }
  return out;
}

std::string TopReason(const QueueFacts& f) {
  std::string best;
  int64_t n = 0;
  for (const auto& [code, count] : f.reasons) {
    if (count > n) best = code, n = count;
  }
  return best.empty() ? "" : absl::StrCat(best, " ×", n);
}

// Why a queue's share of the bottleneck resource is not its weight's share, in the
// simulator's terms: admission, demand, and the fair-share verdicts its jobs got.
std::vector<std::string> ShareReasons(const std::string& queue, double achieved, double weight_share,
                                      const std::map<std::string, QueueFacts>& facts) {
  std::vector<std::string> out;
  const QueueFacts& f = facts.at(queue);
  const double waited = f.before_admission_s + f.after_admission_s;
  if (achieved < weight_share && f.before_admission_s > 0 && f.before_admission_s >= f.after_admission_s) {
    std::string why = absl::StrCat(
        "Its jobs spent ", Percent(f.before_admission_s / waited), " of their waiting Pending before admission (",
        f.never_admitted, " never admitted", f.reasons.empty() ? "" : absl::StrCat("; most often ", TopReason(f)),
        "). A PodGroup not admitted has no pods, so proportion never sees its demand: weights divide only what "
        "admitted jobs ask for.");
    if (f.reasons.count("ClusterOvercommitted")) {
      why += " Overcommit admits by the cluster's idle room, first come first served across queues, not by weight.";
    }
    out.push_back(why);
  }
  if (achieved < weight_share && f.reasons.count("QueueShareExceeded")) {
    out.push_back(absl::StrCat("Proportion held it at its deserved share (QueueShareExceeded ×",
                               f.reasons.at("QueueShareExceeded"), ")."));
  }
  if (achieved < weight_share && f.reasons.count("QueueCapabilityExceeded")) {
    out.push_back(absl::StrCat("Its capability capped it (QueueCapabilityExceeded ×",
                               f.reasons.at("QueueCapabilityExceeded"), ")."));
  }
  if (achieved < weight_share && f.never == 0 && f.before_admission_s < f.after_admission_s) {
    out.push_back("Every job it had started: it asked for less than its weight's share, and proportion lends what a "
                  "queue does not ask for to the others.");
  }
  if (achieved > weight_share) {
    std::vector<std::string> held;
    for (const auto& [other, g] : facts) {
      if (other != queue && g.before_admission_s > g.after_admission_s) held.push_back(other);
    }
    if (!held.empty()) {
      out.push_back(absl::StrCat("The demand of ", absl::StrJoin(held, ", "),
                                 " waited before admission, unseen by proportion, so this queue took the room."));
    } else if (out.empty()) {
      out.push_back("The other queues asked for less than their weights' share; proportion lent it the rest.");
    }
  }
  if (out.empty()) out.push_back("Its demand over time differed from the weights' split (see the queue plot).");
  return out;
}

std::string SummaryTable(const SimulationResult& r) {
  int64_t completed = 0, other_end = 0, running = 0, waiting = 0;
  for (const JobRecord& j : r.jobs) {
    if (j.finished_s >= 0) (j.phase == "Completed" ? completed : other_end) += 1;
    else if (j.running_s >= 0) ++running;
    else ++waiting;
  }
  const simulate_internal::Headline h = simulate_internal::HeadlineOf(r);
  std::string out = "<table class=\"s\">\n";
  absl::StrAppend(&out, "<tr><th>jobs</th><td>", r.jobs.size(), " over ", Duration(r.end_s), ": <b>", completed,
                  "</b> completed, ", other_end, " ended otherwise, ", running, " running at the end, <b>", waiting,
                  "</b> waiting (never started)</td></tr>\n");
  absl::StrAppend(&out, "<tr><th>makespan</th><td>",
                  h.makespan_s ? Duration(*h.makespan_s)
                               : absl::StrCat("none: ", h.unfinished, " of ", r.jobs.size(), " jobs did not finish"),
                  "</td></tr>\n");
  for (size_t i = 0; i < r.resources.size(); ++i) {
    if (!(r.utilization[i] > 0)) continue;
    absl::StrAppend(&out, "<tr><th>", Html(r.resources[i]), "</th><td>allocated ", Percent(r.utilization[i]),
                    ", goodput ", Percent(r.goodput[i]),
                    r.utilization[i] > 0.2 && r.goodput[i] < 0.5 * r.utilization[i]
                        ? " <b>(most of what was allocated made no progress)</b>"
                        : "",
                    "</td></tr>\n");
  }
  std::string stall = "none: the run ended when its work did, or at its end time";
  if (r.stall) {
    stall = absl::StrCat("<b>from ", Duration(r.stall->since_s), " nothing could change</b>; ", r.stall->unfinished,
                         " job(s) unfinished");
    if (!r.stall->deadlocked.empty()) {
      std::string held;
      for (size_t i = 0; i < r.resources.size(); ++i) {
        if (r.stall->held[i] > 0) absl::StrAppend(&held, held.empty() ? "" : ", ", Num(r.stall->held[i]), " ", Html(r.resources[i]));
      }
      std::string jobs;
      for (size_t i = 0; i < r.stall->deadlocked.size() && i < 10; ++i) {
        absl::StrAppend(&jobs, i ? ", " : "", Html(r.stall->deadlocked[i]));
      }
      if (r.stall->deadlocked.size() > 10) absl::StrAppend(&jobs, ", … (", r.stall->deadlocked.size(), ")");
      absl::StrAppend(&stall, ". <b>Deadlock</b>: ", jobs, " hold ", held, " without reaching their barrier");
    }
  }
  absl::StrAppend(&out, "<tr><th>stall</th><td>", stall, "</td></tr>\n</table>\n");
  return out;
}

std::string QueueTable(const SimulationResult& r, const std::map<std::string, QueueFacts>& facts) {
  const size_t k = simulate_internal::BottleneckResource(r);
  const std::string res = r.resources.empty() ? "" : r.resources[k];
  double total_use = 0, total_weight = 0;
  for (const auto& [q, u] : r.queue_usage) {
    if (!facts.count(q)) continue;
    if (k < u.utilization.size()) total_use += u.utilization[k];
    total_weight += u.weight;
  }
  auto waits = simulate_internal::WaitsByQueue(r);
  std::string out = absl::StrCat(
      "<table class=\"q\">\n<tr><th>queue</th><th>weight share</th><th>", Html(res),
      " share</th><th>", Html(res), " goodput</th><th>jobs</th><th>started</th><th>waiting</th><th>wait p50</th>"
      "<th>p90</th><th>p99</th></tr>\n");
  std::string reasons;
  for (const auto& [q, f] : facts) {
    auto u = r.queue_usage.find(q);
    const double use = u != r.queue_usage.end() && k < u->second.utilization.size() ? u->second.utilization[k] : 0;
    const double good = u != r.queue_usage.end() && k < u->second.goodput.size() ? u->second.goodput[k] : 0;
    const double weight = u != r.queue_usage.end() ? u->second.weight : 0;
    const double achieved = total_use > 0 ? use / total_use : 0;
    const double weight_share = total_weight > 0 ? weight / total_weight : 0;
    const std::vector<double>& w = waits[q];
    absl::StrAppend(&out, "<tr><td>", Html(q), "</td><td>", Percent(weight_share), "</td><td>", Percent(achieved),
                    "</td><td>", Percent(good), "</td><td>", f.jobs, "</td><td>", f.started, "</td><td>", f.never,
                    "</td><td>", Duration(simulate_internal::NearestRank(w, 50)), "</td><td>",
                    Duration(simulate_internal::NearestRank(w, 90)), "</td><td>",
                    Duration(simulate_internal::NearestRank(w, 99)), "</td></tr>\n");
    if (total_use > 0 && total_weight > 0 && std::abs(achieved - weight_share) >= 0.05) {
      absl::StrAppend(&reasons, "<li><b>", Html(q), "</b> had ", Percent(achieved), " of the ", Html(res),
                      " allocated against a weight share of ", Percent(weight_share), ":");
      for (const std::string& why : ShareReasons(q, achieved, weight_share, facts)) absl::StrAppend(&reasons, " ", Html(why));
      reasons += "</li>\n";
    }
  }
  out += "</table>\n";
  if (!reasons.empty()) {
    absl::StrAppend(&out, "<p>Shares are of the ", Html(res), " the queues' pods held over the run (the most used "
                    "resource); weight shares are among the queues that had jobs.</p>\n<ul>\n", reasons, "</ul>\n");
  }
  return out;
}

std::string NeverStartedDetails(const SimulationResult& r) {
  if (r.never_started.empty()) return "";
  std::string out = absl::StrCat("<details><summary>Jobs that never started (", r.never_started.size(),
                                 ")</summary>\n<table>\n<tr><th>reason</th><th>jobs</th></tr>\n");
  for (const auto& [code, n] : simulate_internal::NeverStartedByReason(r)) {
    absl::StrAppend(&out, "<tr><td>", Html(code), "</td><td>", n, "</td></tr>\n");
  }
  out += "</table>\n<table>\n<tr><th>job</th><th>reason</th><th>pods running / barrier</th><th>message</th></tr>\n";
  size_t listed = 0;
  for (const auto& [job, why] : r.never_started) {
    if (listed++ == kListed) break;
    absl::StrAppend(&out, "<tr><td>", Html(job), "</td><td>", Html(why.reason), "</td><td>", why.running, " / ",
                    why.barrier, "</td><td>", Html(why.message), "</td></tr>\n");
  }
  out += "</table>\n";
  if (r.never_started.size() > kListed) {
    absl::StrAppend(&out, "<p>The first ", kListed, " are listed; summary.json has all of them.</p>\n");
  }
  return out + "</details>\n";
}

std::string NotesDetails(const SimulationResult& r) {
  if (r.notes.empty()) return "";
  std::string out = absl::StrCat("<details><summary>Notes (", r.notes.size(), ")</summary>\n<ul>\n");
  for (size_t i = 0; i < r.notes.size() && i < kListed; ++i) absl::StrAppend(&out, "<li>", Html(r.notes[i]), "</li>\n");
  return out + "</ul>\n</details>\n";
}

}  // namespace

std::string ReportHtml(const SimulationResult& r) {
  const std::map<std::string, QueueFacts> facts = FactsByQueue(r);
  std::string plots = absl::StrCat("<h2>Allocation and goodput</h2>\n", UtilizationSvg(r), "<h2>Queue shares over time</h2>\n",
                                   QueueSharesSvg(r));
  const size_t k = simulate_internal::BottleneckResource(r);
  if (k != 0 && !r.utilization.empty() && r.utilization[0] > 0) {
    plots += simulate_internal::QueueResourceSvg(r, 0);  // cpu too, when another resource is the bottleneck
  }
  absl::StrAppend(&plots, "<h2>Wait times</h2>\n", WaitTimesSvg(r));
  if (!r.cards.empty()) absl::StrAppend(&plots, "<h2>Shared GPU cards</h2>\n", CardsSvg(r));
  return absl::StrCat(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>vcsched simulation</title>\n"
      "<style>body{font-family:sans-serif;max-width:780px;margin:2em auto}table{border-collapse:collapse;margin:.5em 0}"
      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;font-size:13px}details{margin:1em 0}</style>"
      "</head><body>\n<h1>vcsched simulation</h1>\n",
      SummaryTable(r), "<h2>Queues</h2>\n", QueueTable(r, facts), plots, NeverStartedDetails(r), NotesDetails(r),
      "<p>Everything: <a href=\"summary.json\">summary.json</a>, <a href=\"jobs.csv\">jobs.csv</a>, "
      "<a href=\"timeline.csv\">timeline.csv</a>, <a href=\"queues.csv\">queues.csv</a>.</p>\n</body></html>\n");
}

}  // namespace vcsched
