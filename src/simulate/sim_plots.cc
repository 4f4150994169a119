// The plots of a simulation, drawn here as plain SVG (no plotting library, so the same
// result gives the same bytes).
#include <algorithm>
#include <map>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "src/model/output_text.h"
#include "src/simulate/sim_outputs.h"
#include "vcsched/simulate.h"

namespace vcsched {
namespace {

using simulate_internal::Num;

constexpr double kWidth = 760, kHeight = 360, kLeft = 60, kRight = 210, kTop = 30, kBottom = 40;
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

// A plot coordinate: a tenth of a pixel is finer than any screen shows.
std::string Px(double v) { return Num(std::round(v * 10) / 10); }

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

// At most one bucket per horizontal pixel: each keeps its first, lowest, highest and
// last point, all drawn at the bucket's x, so spikes survive and a long run's plot stays
// small. `thinned` says whether the points were bucketed (then they are not drawn as steps).
std::vector<std::pair<double, double>> Thin(const std::vector<std::pair<double, double>>& pts, double x0, double x1,
                                            size_t buckets, bool* thinned) {
  *thinned = false;
  if (pts.size() <= buckets * 2 || !(x1 > x0)) return pts;
  *thinned = true;
  std::vector<std::pair<double, double>> out;
  const auto bucket_of = [&](double x) {
    return std::min(buckets - 1, static_cast<size_t>(std::max(0.0, (x - x0) / (x1 - x0) * static_cast<double>(buckets))));
  };
  size_t i = 0;
  while (i < pts.size()) {
    const size_t b = bucket_of(pts[i].first);
    size_t k = i, lo = i, hi = i;
    while (k < pts.size() && bucket_of(pts[k].first) == b) {
      if (pts[k].second < pts[lo].second) lo = k;
      if (pts[k].second > pts[hi].second) hi = k;
      ++k;
    }
    const double bx = x0 + (static_cast<double>(b) + 0.5) / static_cast<double>(buckets) * (x1 - x0);
    for (size_t idx : {i, lo, hi, k - 1}) {
      if (out.empty() || out.back().first != bx || out.back().second != pts[idx].second) out.emplace_back(bx, pts[idx].second);
    }
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
    bool first = true, thinned = false;
    const std::vector<std::pair<double, double>> points = Thin(s.points, x0, x1, static_cast<size_t>(pw / 2), &thinned);
    for (const auto& [x, y] : points) {
      if (!first && steps && !thinned) absl::StrAppend(&path, " ", Px(X(x)), ",", Px(Y(last_y)));
      absl::StrAppend(&path, first ? "" : " ", Px(X(x)), ",", Px(Y(y)));
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

namespace simulate_internal {

TimeUnit TimeUnitFor(double span_s) {
  if (span_s <= 600) return {1, "s"};
  if (span_s <= 10 * 3600) return {60, "min"};
  if (span_s <= 10 * 86400) return {3600, "h"};
  return {86400, "days"};
}

size_t BottleneckResource(const SimulationResult& r) {
  size_t best = 0;
  for (size_t i = 1; i < r.utilization.size(); ++i) {
    if (r.utilization[i] > r.utilization[best] + 1e-12) best = i;
  }
  return best;
}

std::string ResourceUnit(const std::string& resource) {
  if (resource == "cpu") return "cpu (cores)";
  if (resource == "memory") return "memory (GiB)";
  return resource;
}

std::string QueueResourceSvg(const SimulationResult& r, size_t k) {
  // Allocated (solid) against deserved (dashed) per queue; a queue that never held or
  // deserved any of the resource is left out.
  const TimeUnit unit = TimeUnitFor(r.end_s);
  std::map<std::string, std::pair<Series, Series>> by_queue;
  std::map<std::string, bool> used;
  for (const QueueRow& row : r.queues) {
    if (k >= row.allocated.size()) continue;
    auto it = by_queue.find(row.queue);
    if (it == by_queue.end()) {
      it = by_queue.emplace(row.queue, std::make_pair(Series{row.queue + " allocated", {}, false, 0},
                                                      Series{row.queue + " deserved", {}, true, 0})).first;
    }
    if (row.allocated[k] > 0 || row.deserved[k] > 0) used[row.queue] = true;
    it->second.first.points.emplace_back(row.time_s / unit.seconds, row.allocated[k]);
    it->second.second.points.emplace_back(row.time_s / unit.seconds, row.deserved[k]);
  }
  std::vector<Series> series;
  int color = 0;
  for (auto& [queue, pair] : by_queue) {
    if (!used[queue]) continue;
    pair.first.color = pair.second.color = color++;
    series.push_back(std::move(pair.first));
    series.push_back(std::move(pair.second));
  }
  return Chart(absl::StrCat("Queue ", r.resources.empty() ? "" : r.resources[k], ": allocated against deserved"),
               absl::StrCat("time (", unit.name, ")"), r.resources.empty() ? "" : ResourceUnit(r.resources[k]), series,
               true);
}

}  // namespace simulate_internal

using simulate_internal::TimeUnit;
using simulate_internal::TimeUnitFor;

std::string UtilizationSvg(const SimulationResult& r) {
  // Allocated (solid) and goodput (dashed) over capacity, per resource the run used.
  const TimeUnit unit = TimeUnitFor(r.end_s);
  std::vector<Series> series;
  int color = 0;
  for (size_t i = 0; i < r.resources.size(); ++i) {
    if (i >= r.utilization.size() || !(r.utilization[i] > 0)) continue;
    Series alloc{r.resources[i] + " allocated", {}, false, color}, good{r.resources[i] + " goodput", {}, true, color};
    ++color;
    for (const TimelineRow& row : r.timeline) {
      const double cap = row.capacity[i];
      alloc.points.emplace_back(row.time_s / unit.seconds, cap > 0 ? row.allocated[i] / cap : 0);
      good.points.emplace_back(row.time_s / unit.seconds, cap > 0 && i < row.goodput.size() ? row.goodput[i] / cap : 0);
    }
    series.push_back(std::move(alloc));
    series.push_back(std::move(good));
  }
  return Chart("Allocated (solid) and goodput (dashed) / capacity", absl::StrCat("time (", unit.name, ")"), "fraction",
               series, true, 1.0);
}

std::string CardsSvg(const SimulationResult& r) {
  // Per node, the memory its pods ask of its cards over their memory, capped at 1 per
  // card; the 12 nodes with the highest mean over the rows, by name among equals.
  if (r.cards.empty()) return "";
  const TimeUnit unit = TimeUnitFor(r.end_s);
  struct NodeCards {
    std::map<int64_t, std::pair<int64_t, int64_t>> cards;  // card -> (memory, used)
    std::vector<std::pair<double, double>> points;
    double sum = 0;
  };
  std::map<std::string, NodeCards> nodes;
  for (size_t i = 0; i < r.cards.size(); ++i) {
    const CardUseRow& row = r.cards[i];
    NodeCards& n = nodes[row.node];
    n.cards[row.card] = {row.memory, row.used_memory};
    if (i + 1 < r.cards.size() && r.cards[i + 1].node == row.node && r.cards[i + 1].time_s == row.time_s) continue;
    double total = 0, used = 0;
    for (const auto& [card, mu] : n.cards) {
      total += static_cast<double>(mu.first);
      used += static_cast<double>(std::min(mu.first, mu.second));
    }
    const double y = total > 0 ? used / total : 0;
    if (!n.points.empty() && n.points.back().first == row.time_s / unit.seconds) n.points.back().second = y;
    else n.points.emplace_back(row.time_s / unit.seconds, y);
    n.sum += y;
  }
  std::vector<std::pair<double, std::string>> ranked;
  for (auto& [name, n] : nodes) {
    n.points.emplace_back(r.end_s / unit.seconds, n.points.back().second);
    ranked.emplace_back(-n.sum / static_cast<double>(n.points.size()), name);
  }
  std::sort(ranked.begin(), ranked.end());
  if (ranked.size() > 12) ranked.resize(12);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<Series> series;
  int color = 0;
  for (const auto& [_, name] : ranked) series.push_back({name, std::move(nodes[name].points), false, color++});
  return Chart("Shared GPU card memory in use, per node", absl::StrCat("time (", unit.name, ")"), "fraction of card memory",
               series, true, 1.0);
}

std::string QueueSharesSvg(const SimulationResult& r) {
  return simulate_internal::QueueResourceSvg(r, simulate_internal::BottleneckResource(r));
}

std::string WaitTimesSvg(const SimulationResult& r) {
  // The distribution as a cumulative curve per queue: the fraction of started jobs that
  // waited at most x.
  double longest = 0;
  auto by_queue = simulate_internal::WaitsByQueue(r);
  for (const auto& [_, waits] : by_queue) {
    for (double w : waits) longest = std::max(longest, w);
  }
  const TimeUnit unit = TimeUnitFor(longest);
  std::vector<Series> series;
  int color = 0;
  for (auto& [queue, waits] : by_queue) {
    std::sort(waits.begin(), waits.end());
    Series s{queue, {}, false, color++};
    for (size_t i = 0; i < waits.size(); ++i) {
      s.points.emplace_back(waits[i] / unit.seconds, static_cast<double>(i + 1) / static_cast<double>(waits.size()));
    }
    series.push_back(std::move(s));
  }
  return Chart("Wait times (created to barrier), cumulative", absl::StrCat("wait (", unit.name, ")"),
               "fraction of started jobs", series, true, 1.0);
}

}  // namespace vcsched
