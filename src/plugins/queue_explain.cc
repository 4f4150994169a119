#include "src/plugins/queue_explain.h"

#include <cmath>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace vcsched::internal {

std::string AmountText(const Session& ssn, size_t d, double v) {
  if (std::isinf(v) && v > 0) return "unlimited";
  const double r = std::round(v);
  const double lim = static_cast<double>(std::numeric_limits<int64_t>::max());
  const int64_t stored = r >= lim ? std::numeric_limits<int64_t>::max() : (r <= -lim ? -std::numeric_limits<int64_t>::max() : static_cast<int64_t>(r));
  return FormatAmount(ssn.snapshot().space().name(static_cast<int>(d)), stored);
}

CheckNumbers LimitNumbers(const Session& ssn, const Amount& used, absl::Span<const int64_t> req, const Amount& limit,
                          absl::string_view used_name, absl::string_view limit_name) {
  CheckNumbers out;
  for (size_t d = 0; d < req.size() && d < used.size(); ++d) {
    if (static_cast<int>(d) == kPods || req[d] <= 0) continue;
    if (used[d] + static_cast<double>(req[d]) <= limit[d]) continue;
    const std::string& name = ssn.snapshot().space().name(static_cast<int>(d));
    out.emplace_back(absl::StrCat(name, ".", used_name), AmountText(ssn, d, used[d]));
    out.emplace_back(absl::StrCat(name, ".request"), AmountText(ssn, d, static_cast<double>(req[d])));
    out.emplace_back(absl::StrCat(name, ".", limit_name), AmountText(ssn, d, limit[d]));
  }
  return out;
}

CheckNumbers AdmissionNumbers(const Session& ssn, const JobInfo& job, const Amount& allocated, const Amount& inqueue,
                              const Amount& elastic, const Amount& capability) {
  CheckNumbers out;
  for (size_t d = 0; d < allocated.size(); ++d) {
    const int64_t m = job.min_resources[static_cast<int>(d)];
    if (static_cast<int>(d) == kPods || m <= 0) continue;
    if (static_cast<double>(m) + allocated[d] + inqueue[d] - elastic[d] <= capability[d]) continue;
    const std::string& name = ssn.snapshot().space().name(static_cast<int>(d));
    out.emplace_back(absl::StrCat(name, ".minResources"), AmountText(ssn, d, static_cast<double>(m)));
    out.emplace_back(absl::StrCat(name, ".allocated"), AmountText(ssn, d, allocated[d]));
    out.emplace_back(absl::StrCat(name, ".inqueue"), AmountText(ssn, d, inqueue[d]));
    out.emplace_back(absl::StrCat(name, ".elastic"), AmountText(ssn, d, elastic[d]));
    out.emplace_back(absl::StrCat(name, ".capability"), AmountText(ssn, d, capability[d]));
  }
  return out;
}

std::string EventText(absl::string_view prefix, absl::string_view verb, const CheckNumbers& numbers,
                      absl::string_view suffix) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : numbers) {
    if (absl::EndsWith(key, suffix)) parts.push_back(absl::StrCat(verb, " ", key.substr(0, key.size() - suffix.size())));
  }
  if (parts.empty()) return std::string(prefix);
  return absl::StrCat(prefix, ": ", absl::StrJoin(parts, ", "));
}

void ExplainQueueClosed(const Session& ssn, JobIndex j, QueueIndex q) {
  const QueueSpec& queue = ssn.queue(q).spec;
  ssn.ExplainJob(j, reason_code::kQueueClosed, absl::StrCat("queue ", queue.name, " is ", queue.state),
                 {{"queue", queue.name}, {"state", queue.state}});
}

QueueView ViewOfQueue(const Session& ssn, QueueIndex q, absl::string_view plugin, const Amount& deserved,
                      const Amount& allocated, const Amount& capability, const Amount& guarantee,
                      const Amount& inqueue, double share) {
  const QueueInfo& info = ssn.queue(q);
  QueueView v;
  v.name = info.spec.name;
  v.state = info.spec.state;
  v.weight = info.spec.weight;
  v.parent = info.spec.parent;
  v.plugin = std::string(plugin);
  v.share = share;
  auto fill = [&](std::vector<std::pair<std::string, std::string>>& out, const Amount& a, bool skip_zero) {
    for (size_t d = 0; d < a.size(); ++d) {
      if (static_cast<int>(d) == kPods) continue;
      if (skip_zero && std::abs(a[d]) < kEpsilon) continue;
      if (std::isinf(a[d])) continue;  // unlimited: left out
      out.emplace_back(ssn.snapshot().space().name(static_cast<int>(d)), AmountText(ssn, d, a[d]));
    }
  };
  fill(v.deserved, deserved, true);
  fill(v.allocated, allocated, true);
  fill(v.capability, capability, false);
  fill(v.guarantee, guarantee, true);
  fill(v.inqueue, inqueue, true);
  return v;
}

}  // namespace vcsched::internal
