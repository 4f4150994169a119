// Number and field printing shared by the simulator's tables and plots.
#ifndef VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_
#define VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_

#include <map>
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

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_SIM_OUTPUTS_H_
