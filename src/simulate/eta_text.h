// Words for start-time estimates (eta_outputs.cc): durations, amounts and the note that
// says why a job starts when it does.
#ifndef VCSCHED_SRC_SIMULATE_ETA_TEXT_H_
#define VCSCHED_SRC_SIMULATE_ETA_TEXT_H_

#include <map>
#include <string>

#include "vcsched/eta.h"

namespace vcsched::simulate_internal {

// "45s", "12m", "3h20m", "2d4h": rounded to the unit shown.
std::string ShortDuration(double seconds);
// "6 nvidia.com/gpu", or "4 cpu, 8Gi memory" when no other resource is freed.
std::string FreesText(const std::map<std::string, double>& frees);
// Why a started job starts then: "starts at the first session" or "after ns/a ends and frees ...".
std::string StartNote(const EtaJob& job);

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_ETA_TEXT_H_
