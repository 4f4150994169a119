// Number and field printing shared by the simulator's tables and plots.
#ifndef VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_
#define VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/simulate.h"

namespace vcsched::simulate_internal {

// Fixed six decimals, trailing zeros dropped: "1.5", "12", "0.333333".
std::string Num(double x);
// Num, or empty for a time not reached (-1).
std::string Seconds(double s);
// The nearest-rank percentile p (0–100) of the values.
double NearestRank(std::vector<double> values, double p);
// Wait times (running_s − created_s) of the jobs that reached their barrier, by queue.
std::map<std::string, std::vector<double>> WaitsByQueue(const SimulationResult& r);

struct Headline {
  int64_t completed = 0;   // jobs that ended Completed
  int64_t unfinished = 0;  // jobs that never ended
  std::optional<double> makespan_s;  // last finish − first arrival, only when every job ended
};
Headline HeadlineOf(const SimulationResult& r);
// How many jobs never started, by explain's reason code.
std::map<std::string, int64_t> NeverStartedByReason(const SimulationResult& r);

// The unit a time axis reads best in, for a span of seconds: s, min, h or days.
struct TimeUnit {
  double seconds = 1;
  const char* name = "s";
};
TimeUnit TimeUnitFor(double span_s);
// The resource with the highest utilisation: the one queues' plots and shares are read in.
size_t BottleneckResource(const SimulationResult& r);
// "cpu (cores)", "memory (GiB)", or the resource's name.
std::string ResourceUnit(const std::string& resource);
// Queues' allocated against deserved in resource k, over time.
std::string QueueResourceSvg(const SimulationResult& r, size_t k);

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_
