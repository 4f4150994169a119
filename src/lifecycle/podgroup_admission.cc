// PodGroup admission (docs/reference/lifecycle.md §10).
#include "absl/strings/str_cat.h"
#include "vcsched/lifecycle/admission.h"

namespace vcsched::lifecycle {

namespace {

constexpr char kBothTiers[] = "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
                              "simultaneously.";

bool BothTiers(const Value* topology) {
  return topology != nullptr && topology->Find("highestTierAllowed") != nullptr &&
         topology->Find("highestTierName") != nullptr;
}

}  // namespace

Findings ValidatePodGroup(const Value& pod_group, const AdmissionContext& context) {
  Findings f;
  const Value* spec = pod_group.Find("spec");
  const Value* queue = spec == nullptr ? nullptr : spec->Find("queue");
  const std::string name = queue != nullptr && queue->is_scalar() ? queue->text() : "";
  if (!name.empty() && context.queues) {
    const VolcanoQueue* q = FindQueue(*context.queues, name);
    if (q == nullptr) {
      f.Error("spec.queue", absl::StrCat("unable to find queue: queues.scheduling.volcano.sh \"", name, "\" not found"));
    } else if (!q->state.empty() && q->state != "Open") {
      f.Error("spec.queue", absl::StrCat("can only submit PodGroup to queue with state `Open`, queue `", name,
                                         "` status is `", q->state, "`."));
    }
  } else if (!name.empty()) {
    f.Warn("spec.queue", absl::StrCat("queue \"", name, "\" not checked: the cluster's queues were not given"));
  }
  if (spec != nullptr && BothTiers(spec->Find("networkTopology"))) f.Error("spec.networkTopology", kBothTiers);
  if (const Value* subs = spec == nullptr ? nullptr : spec->Find("subGroupPolicy"); subs != nullptr && subs->is_list()) {
    for (size_t i = 0; i < subs->items().size(); ++i) {
      const Value& sub = subs->items()[i];
      if (!BothTiers(sub.Find("networkTopology"))) continue;
      const Value* sub_name = sub.Find("name");
      f.Error(absl::StrCat("spec.subGroupPolicy[", i, "].networkTopology"),
              absl::StrCat("in subGroupPolicy '", sub_name != nullptr ? sub_name->text() : "", "': ", kBothTiers));
    }
  }
  return f;
}

}  // namespace vcsched::lifecycle
