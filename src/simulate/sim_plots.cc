// The plots of a simulation, drawn here as plain SVG (no plotting library, so the same
// result gives the same bytes), and report.html, which shows them with the summary.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "src/model/output_text.h"
#include "src/simulate/sim_outputs.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace {

using simulate_internal::Num;

constexpr double kWidth = 720, kHeight = 360, kLeft = 60, kRight = 170, kTop = 30, kBottom = 40;
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
  int color = 0;
};

std::string Escape(const std::string& s) {
  return XmlText(s);
}

// A "nice" tick step for a range: 1, 2 or 5 times a power of ten.
double TickStep(double range) {
  if (!(range > 0)) return 1;
  const double raw = range / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * p) return m * p;
  }
  return 10 * p;
}

// At most ~2 points per horizontal pixel: each bucket keeps its first, lowest, highest
// and last point, so spikes survive.
std::vector<std::pair<double, double>> Thin(const std::vector<std::pair<double, double>>& pts, double x0, double x1) {
  const size_t buckets = 1200;
  if (pts.size() <= buckets * 2 || !(x1 > x0)) return pts;
  std::vector<std::pair<double, double>> out;
  size_t i = 0;
  while (i < pts.size()) {
    const size_t b = static_cast<size_t>((pts[i].first - x0) / (x1 - x0) * buckets);
    size_t k = i, lo = i, hi = i;
    while (k < pts.size() && static_cast<size_t>((pts[k].first - x0) / (x1 - x0) * buckets) == b) {
      if (pts[k].second < pts[lo].second) lo = k;
      if (pts[k].second > pts[hi].second) hi = k;
      ++k;
    }
    std::vector<size_t> keep = {i, lo, hi, k - 1};
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    for (size_t idx : keep) out.push_back(pts[idx]);
    i = k;
  }
  return out;
}

std::string Chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                  const std::vector<Series>& series, bool steps, std::optional<double> y_max_fixed = std::nullopt) {
  double x0 = 0, x1 = 1, y1 = 1;
  bool any = false;
  for (const Series& s : series) {
    for (const auto& [x, y] : s.points) {
      if (!any) x0 = x1 = x;
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y1 = std::max(y1, y);
      any = true;
    }
  }
  if (!(x1 > x0)) x1 = x0 + 1;
  if (y_max_fixed) y1 = std::max(*y_max_fixed, y1);
  const double ystep = TickStep(y1), xstep = TickStep(x1 - x0);
  y1 = std::ceil(y1 / ystep) * ystep;
  const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  auto X = [&](double x) { return kLeft + (x - x0) / (x1 - x0) * pw; };
  auto Y = [&](double y) { return kTop + ph - y / y1 * ph; };
  std::string out = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", Num(kWidth), "\" height=\"", Num(kHeight),
      "\" viewBox=\"0 0 ", Num(kWidth), " ", Num(kHeight), "\" font-family=\"sans-serif\" font-size=\"11\">\n",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"", Num(kLeft), "\" y=\"18\" font-size=\"14\">",
      Escape(title), "</text>\n");
  for (double y = 0; y <= y1 + ystep / 2; y += ystep) {
    absl::StrAppend(&out, "<line x1=\"", Num(kLeft), "\" x2=\"", Num(kLeft + pw), "\" y1=\"", Num(Y(y)), "\" y2=\"",
                    Num(Y(y)), "\" stroke=\"#ddd\"/><text x=\"", Num(kLeft - 5), "\" y=\"", Num(Y(y) + 4),
                    "\" text-anchor=\"end\">", Num(y), "</text>\n");
  }
  for (double x = std::ceil(x0 / xstep) * xstep; x <= x1 + xstep / 1000; x += xstep) {
    absl::StrAppend(&out, "<line x1=\"", Num(X(x)), "\" x2=\"", Num(X(x)), "\" y1=\"", Num(kTop + ph), "\" y2=\"",
                    Num(kTop + ph + 4), "\" stroke=\"black\"/><text x=\"", Num(X(x)), "\" y=\"", Num(kTop + ph + 16),
                    "\" text-anchor=\"middle\">", Num(x), "</text>\n");
  }
  absl::StrAppend(&out, "<rect x=\"", Num(kLeft), "\" y=\"", Num(kTop), "\" width=\"", Num(pw), "\" height=\"", Num(ph),
                  "\" fill=\"none\" stroke=\"black\"/>\n<text x=\"", Num(kLeft + pw / 2), "\" y=\"", Num(kHeight - 6),
                  "\" text-anchor=\"middle\">", Escape(x_label), "</text>\n<text x=\"14\" y=\"", Num(kTop + ph / 2),
                  "\" text-anchor=\"middle\" transform=\"rotate(-90 14 ", Num(kTop + ph / 2), ")\">", Escape(y_label),
                  "</text>\n");
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const char* color = kColors[static_cast<size_t>(s.color) % 10];
    std::string path;
    double last_y = 0;
    bool first = true;
    for (const auto& [x, y] : Thin(s.points, x0, x1)) {
      if (!first && steps) absl::StrAppend(&path, " ", Num(X(x)), ",", Num(Y(last_y)));
      absl::StrAppend(&path, first ? "" : " ", Num(X(x)), ",", Num(Y(y)));
      last_y = y;
      first = false;
    }
    absl::StrAppend(&out, "<polyline fill=\"none\" stroke=\"", color, "\" stroke-width=\"1.5\"",
                    s.dashed ? " stroke-dasharray=\"5,3\"" : "", " points=\"", path, "\"/>\n");
    const double ly = kTop + 10 + 16 * static_cast<double>(i);
    absl::StrAppend(&out, "<line x1=\"", Num(kLeft + pw + 10), "\" x2=\"", Num(kLeft + pw + 30), "\" y1=\"", Num(ly),
                    "\" y2=\"", Num(ly), "\" stroke=\"", color, "\" stroke-width=\"2\"",
                    s.dashed ? " stroke-dasharray=\"5,3\"" : "", "/><text x=\"", Num(kLeft + pw + 34), "\" y=\"",
                    Num(ly + 4), "\">", Escape(s.label), "</text>\n");
  }
  out += "</svg>\n";
  return out;
}

}  // namespace

std::string UtilizationSvg(const SimulationResult& r) {
  std::vector<Series> series;
  for (size_t i = 0; i < r.resources.size(); ++i) {
    Series s{r.resources[i], {}, false, static_cast<int>(i)};
    for (const TimelineRow& row : r.timeline) {
      s.points.emplace_back(row.time_s, row.capacity[i] > 0 ? row.allocated[i] / row.capacity[i] : 0);
    }
    series.push_back(std::move(s));
  }
  return Chart("Utilisation: allocated / capacity", "time (s)", "fraction", series, true, 1.0);
}

std::string QueueSharesSvg(const SimulationResult& r) {
  // cpu allocated (solid) against deserved (dashed), per queue.
  std::map<std::string, std::pair<Series, Series>> by_queue;
  int color = 0;
  for (const QueueRow& row : r.queues) {
    auto it = by_queue.find(row.queue);
    if (it == by_queue.end()) {
      it = by_queue.emplace(row.queue, std::make_pair(Series{row.queue + " allocated", {}, false, color},
                                                      Series{row.queue + " deserved", {}, true, color})).first;
      ++color;
    }
    if (row.allocated.empty()) continue;
    it->second.first.points.emplace_back(row.time_s, row.allocated[0]);
    it->second.second.points.emplace_back(row.time_s, row.deserved[0]);
  }
  std::vector<Series> series;
  for (auto& [_, pair] : by_queue) {
    series.push_back(std::move(pair.first));
    series.push_back(std::move(pair.second));
  }
  return Chart("Queue cpu: allocated against deserved", "time (s)", "cpu (cores)", series, true);
}

std::string WaitTimesSvg(const SimulationResult& r) {
  // The distribution as a cumulative curve per queue: the fraction of started jobs that
  // waited at most x seconds.
  std::vector<Series> series;
  int color = 0;
  for (auto& [queue, waits] : simulate_internal::WaitsByQueue(r)) {
    std::sort(waits.begin(), waits.end());
    Series s{queue, {}, false, color++};
    for (size_t i = 0; i < waits.size(); ++i) {
      s.points.emplace_back(waits[i], static_cast<double>(i + 1) / static_cast<double>(waits.size()));
    }
    series.push_back(std::move(s));
  }
  return Chart("Wait times (created to barrier), cumulative", "wait (s)", "fraction of started jobs", series, true,
               1.0);
}

std::string ReportHtml(const SimulationResult& r) {
  return absl::StrCat(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>vcsched simulation</title>\n"
      "<style>body{font-family:sans-serif;max-width:760px;margin:2em auto}pre{background:#f4f4f4;padding:1em}</style>"
      "</head><body>\n<h1>vcsched simulation</h1>\n<h2>Summary</h2>\n<pre>",
      Escape(SummaryJson(r)), "</pre>\n<h2>Utilisation</h2>\n", UtilizationSvg(r), "<h2>Queues</h2>\n",
      QueueSharesSvg(r), "<h2>Wait times</h2>\n", WaitTimesSvg(r),
      "<p>Tables: <a href=\"jobs.csv\">jobs.csv</a>, <a href=\"timeline.csv\">timeline.csv</a>, "
      "<a href=\"queues.csv\">queues.csv</a>, <a href=\"summary.json\">summary.json</a>.</p>\n</body></html>\n");
}

}  // namespace vcsched
