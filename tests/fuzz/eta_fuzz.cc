// Fuzzes cluster states through start-time estimates (docs/ETA.md): a state is read (or
// refused with an error), and a small one is estimated with a default runtime and a few
// drawn futures, keeping what every estimate keeps: starts within the horizon and not
// before now, percentiles in order, the text form one line per job and free of control
// characters, the same answer twice.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "vcsched/eta.h"
#include "vcsched/io/scenario.h"

namespace {

void Require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vcsched;
  if (size > 16384) return 0;
  absl::StatusOr<ScenarioObjects> state = LoadObjects({{"state.yaml", std::string(reinterpret_cast<const char*>(data), size)}});
  if (!state.ok()) {
    Require(!state.status().message().empty());
    return 0;
  }
  if (state->pods.size() > 64 || state->nodes.size() > 16 || state->pod_groups.size() > 32) return 0;  // keep runs short
  EtaOptions o;
  o.horizon_ms = 6 * 3600 * 1000LL;
  o.default_runtime_ms = (size % 7) * 600 * 1000LL;
  o.samples = size % 2 == 0 ? 3 : 1;
  o.seed = size;
  o.max_events = 20000;
  const SchedulerConfig config = state->config.value_or(DefaultSchedulerConfig());
  absl::StatusOr<EtaResult> r = EstimateStarts(*state, config, o);
  if (!r.ok()) {
    Require(!r.status().message().empty());
    return 0;
  }
  for (const EtaJob& j : r->jobs) {
    if (j.start_s) Require(*j.start_s >= 0 && *j.start_s * 1000 <= static_cast<double>(o.horizon_ms));
    if (j.p10_s && j.p50_s) Require(*j.p10_s <= *j.p50_s);
    if (j.p50_s && j.p90_s) Require(*j.p50_s <= *j.p90_s);
    for (const EtaWait& w : j.waits_for) Require(w.ends_s >= 0 && (!j.start_s || w.ends_s <= *j.start_s));
  }
  const std::string text = EtaText(*r);
  size_t lines = 0;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    Require(u >= 0x20 || c == '\n');
    lines += c == '\n';
  }
  Require(lines == (r->jobs.empty() ? 1 : r->jobs.size()));
  absl::StatusOr<EtaResult> again = EstimateStarts(*state, config, o);
  Require(again.ok() && EtaJson(*again, true) == EtaJson(*r, true));
  return 0;
}
