// Fuzzes the quantity parser: never crashes; what parses round-trips; the common forms'
// shortcut agrees with the general parser.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/model/quantity_exact.h"
#include "vcsched/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<int64_t> milli = vcsched::ParseMilliValue(text);
  absl::StatusOr<int64_t> value = vcsched::ParseValue(text);
  // The common forms' shortcut agrees with the general parser.
  for (int scale : {0, 3}) {
    const absl::StatusOr<int64_t>& got = scale == 0 ? value : milli;
    const absl::StatusOr<int64_t> exact = vcsched::quantity_internal::ParseScaledExactly(text, scale);
    if (got.ok() != exact.ok() || (got.ok() && *got != *exact)) std::abort();
  }
  if (milli.ok() != value.ok() && milli.ok()) {
    // A value that fits in milli-units always fits in whole units.
    std::abort();
  }
  if (milli.ok()) {
    absl::StatusOr<int64_t> again = vcsched::ParseMilliValue(vcsched::FormatMilli(*milli));
    if (!again.ok() || *again != *milli) std::abort();
  }
  if (value.ok() && *value >= 0) {
    absl::StatusOr<int64_t> again = vcsched::ParseValue(vcsched::FormatBytes(*value));
    if (!again.ok() || *again != *value) std::abort();
  }
  return 0;
}
