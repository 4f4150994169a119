// Pod admission (docs/reference/lifecycle.md §2.5) and the PodGroup create-time default (§10).
#include "absl/strings/ascii.h"
#include "absl/strings/strip.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "vcsched/lifecycle/admission.h"

namespace vcsched::lifecycle {

namespace {

constexpr char kMinAvailable[] = "volcano.sh/jdb-min-available";
constexpr char kMaxUnavailable[] = "volcano.sh/jdb-max-unavailable";

// A positive integer, or a percentage between 1% and 99%.
bool ValidBudget(absl::string_view text) {
  int64_t n = 0;
  if (absl::ConsumeSuffix(&text, "%")) return absl::SimpleAtoi(text, &n) && n >= 1 && n <= 99;
  return absl::SimpleAtoi(text, &n) && n > 0;
}

}  // namespace

Findings ValidatePod(const Value& pod, const AdmissionContext& context) {
  Findings f;
  const Value* scheduler = FindPath(pod, "spec.schedulerName");
  const std::string name = scheduler != nullptr ? scheduler->text() : "";
  bool ours = false;
  for (const std::string& s : context.scheduler_names) ours = ours || s == name;
  if (!ours) return f;  // Volcano's webhook only looks at pods of its schedulers
  const Value* annotations = FindPath(pod, "metadata.annotations");
  const Value* min = annotations != nullptr ? annotations->Find(kMinAvailable) : nullptr;
  const Value* max = annotations != nullptr ? annotations->Find(kMaxUnavailable) : nullptr;
  if (min != nullptr && max != nullptr) {
    f.Error("metadata.annotations", absl::StrCat("not allow configure multiple annotations [", kMinAvailable, " ",
                                                 kMaxUnavailable, "] at same time"));
  }
  for (const auto& [key, v] : {std::make_pair(kMinAvailable, min), std::make_pair(kMaxUnavailable, max)}) {
    if (v != nullptr && !ValidBudget(v->text())) {
      f.Error(absl::StrCat("metadata.annotations.", key),
              absl::StrCat("invalid value \"", v->text(), "\": must be a positive integer or a percentage between 1% "
                           "and 99%"));
    }
  }
  return f;
}

void MutatePodGroup(Value& pod_group, const std::map<std::string, std::string>& namespace_annotations) {
  auto it = namespace_annotations.find("scheduling.volcano.sh/queue-name");
  if (it == namespace_annotations.end()) return;
  Value& spec = pod_group["spec"];
  const Value* queue = spec.Find("queue");
  if (queue == nullptr || queue->text().empty() || queue->text() == "default") {
    spec.Set("queue", Value::String(it->second));
  }
}

}  // namespace vcsched::lifecycle
