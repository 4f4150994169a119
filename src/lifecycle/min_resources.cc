#include "src/lifecycle/min_resources.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/numeric/int128.h"
#include "src/lifecycle/saturating.h"
#include "absl/strings/str_cat.h"
#include "vcsched/quantity.h"

namespace vcsched::lifecycle::internal {

namespace {

using Amounts = std::map<std::string, int64_t>;

Amounts ReadList(const Value* list) {
  Amounts out;
  if (list == nullptr || !list->is_map()) return out;
  for (const auto& [name, q] : list->entries()) {
    if (!q.is_scalar()) continue;
    if (absl::StatusOr<int64_t> v = ParseMilliValue(q.text()); v.ok()) out[name] = *v;
  }
  return out;
}

// Requests (limits where a request is absent, as Kubernetes defaults them) and limits.
std::pair<Amounts, Amounts> ContainerAmounts(const Value& c) {
  const Value* res = c.Find("resources");
  Amounts requests = ReadList(res ? res->Find("requests") : nullptr);
  Amounts limits = ReadList(res ? res->Find("limits") : nullptr);
  for (const auto& [name, v] : limits) requests.emplace(name, v);
  return {requests, limits};
}

// Quantities from manifests can be huge; sums and products saturate instead of overflowing.
using internal::Clamp64;

void Add(Amounts& into, const Amounts& a) {
  for (const auto& [k, v] : a) into[k] = Clamp64(static_cast<absl::int128>(into[k]) + v);
}
void Max(Amounts& into, const Amounts& a) {
  for (const auto& [k, v] : a) into[k] = std::max(into[k], v);
}

std::string Format(const std::string& key, int64_t milli) {
  const bool memory_like = key.find("memory") != std::string::npos || key.find("storage") != std::string::npos;
  if (memory_like && milli % 1000 == 0) return FormatBytes(milli / 1000);
  return FormatMilli(milli);
}

}  // namespace

std::map<std::string, int64_t> PodQuotaUsage(const Value& pod_template) {
  Amounts requests, limits;
  const Value* spec = pod_template.Find("spec");
  if (spec != nullptr) {
    if (const Value* cs = spec->Find("containers"); cs != nullptr && cs->is_list()) {
      for (const Value& c : cs->items()) {
        auto [r, l] = ContainerAmounts(c);
        Add(requests, r);
        Add(limits, l);
      }
    }
    if (const Value* cs = spec->Find("initContainers"); cs != nullptr && cs->is_list()) {
      for (const Value& c : cs->items()) {
        auto [r, l] = ContainerAmounts(c);
        Max(requests, r);
        Max(limits, l);
      }
    }
    const Amounts overhead = ReadList(spec->Find("overhead"));
    Add(requests, overhead);
    for (const auto& [k, v] : overhead) {
      if (limits.count(k)) limits[k] = Clamp64(static_cast<absl::int128>(limits[k]) + v);
    }
  }
  Amounts usage = {{"pods", 1000}, {"count/pods", 1000}};
  for (const auto& [name, v] : requests) {
    if (name == "cpu" || name == "memory") {
      usage[name] = v;
      usage[absl::StrCat("requests.", name)] = v;
    } else if (name != "ephemeral-storage" && name != "storage") {
      usage[name] = v;
      usage[absl::StrCat("requests.", name)] = v;
    }
  }
  for (const auto& [name, v] : limits) {
    if (name == "cpu" || name == "memory") usage[absl::StrCat("limits.", name)] = v;
  }
  return usage;
}

Value JobMinResources(const VolcanoJob& job, const std::map<std::string, int32_t>& priority_classes) {
  auto priority = [&](const JobTask& t) {
    const Value* pc = FindPath(t.pod_template, "spec.priorityClassName");
    if (pc == nullptr) return 0;
    auto it = priority_classes.find(pc->text());
    return it == priority_classes.end() ? 0 : it->second;
  };
  std::vector<const JobTask*> order;
  for (const JobTask& t : job.tasks) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [&](const JobTask* a, const JobTask* b) { return priority(*a) > priority(*b); });
  const int64_t min_available = job.min_available.value_or(0);
  int64_t sum_task_min = 0;
  for (const JobTask& t : job.tasks) sum_task_min += t.min_available.value_or(t.replicas);
  Amounts total;
  int64_t remaining = min_available;
  auto take = [&](const JobTask& t, int64_t n) {
    const Amounts usage = PodQuotaUsage(t.pod_template);
    for (const auto& [k, v] : usage) total[k] = Clamp64(static_cast<absl::int128>(total[k]) + static_cast<absl::int128>(v) * n);
    remaining -= n;
  };
  if (min_available < sum_task_min) {
    for (const JobTask* t : order) {
      if (remaining <= 0) break;
      take(*t, std::min<int64_t>(remaining, t->replicas));
    }
  } else {
    for (const JobTask* t : order) {
      if (remaining <= 0) break;
      take(*t, std::min<int64_t>(t->min_available.value_or(t->replicas), remaining));
    }
    for (const JobTask* t : order) {
      if (remaining <= 0) break;
      const int64_t tmin = t->min_available.value_or(t->replicas);
      if (tmin < t->replicas) take(*t, std::min<int64_t>(t->replicas - tmin, remaining));
    }
  }
  Value out = Value::Map();
  for (const auto& [k, v] : total) {
    if (v > 0) out.Set(k, Value::String(Format(k, v)));
  }
  return out;
}

}  // namespace vcsched::lifecycle::internal
