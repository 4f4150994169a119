// resourcequota: enqueue refuses a PodGroup whose minResources, added to what its
// namespace's ResourceQuotas have used and to what this session admitted before it,
// would pass a quota's hard limit (docs/reference/scheduler.md, "resourcequota").
//
// As Volcano reads a quota: status.hard and status.used only (not spec, not scopes),
// names compared exactly (a quota on requests.cpu counts only a minResources entry
// named requests.cpu, as Volcano's job controller writes them).
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/policy.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

void AddInto(QuotaList& into, const QuotaList& add) {
  for (const auto& [name, v] : add) into[name] = SaturatingAdd(into[name], v);
}

class ResourceQuotaPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    quotas_.clear();
    pending_.clear();
    for (const auto& [_, q] : s.snapshot().policy().quotas) quotas_[q.namespace_].push_back(&q);
    if (quotas_.empty()) return absl::OkStatus();  // nothing to refuse, nothing to count
    ssn.AddJobEnqueueableFn([this, &s](JobIndex j) {
      const JobInfo& job = s.job(j);
      auto quotas = quotas_.find(job.pod_group.namespace_);
      if (!job.pod_group.min_resources || quotas == quotas_.end()) return Vote::kPermit;
      const QuotaList request = Requests(job);
      const QuotaList* pending = Pending(job.pod_group.namespace_);
      for (const ResourceQuotaSpec* q : quotas->second) {
        std::vector<std::string> exceeded = Exceeded(*q, request, pending);
        if (exceeded.empty()) continue;
        if (s.explaining()) Explain(s, job, *q, request, pending, exceeded);
        return Vote::kReject;
      }
      return Vote::kPermit;
    });
    ssn.AddJobEnqueuedFn([this, &s](JobIndex j) {
      const JobInfo& job = s.job(j);
      if (!job.pod_group.min_resources || quotas_.count(job.pod_group.namespace_) == 0) return;
      AddInto(pending_[job.pod_group.namespace_], Requests(job));
    });
    return absl::OkStatus();
  }

 private:
  static QuotaList Requests(const JobInfo& job) {
    const PodGroupSpec& g = job.pod_group;
    return g.quota_min_resources.empty() ? QuotaListOf(*g.min_resources) : g.quota_min_resources;
  }

  const QuotaList* Pending(const std::string& ns) const {
    auto it = pending_.find(ns);
    return it == pending_.end() ? nullptr : &it->second;
  }

  static int64_t Get(const QuotaList* list, const std::string& name) {
    if (list == nullptr) return 0;
    auto it = list->find(name);
    return it == list->end() ? 0 : it->second;
  }

  // The names of q's hard limits that used + admitted + request passes, for the names the
  // request (masked to the hard names) holds.
  static std::vector<std::string> Exceeded(const ResourceQuotaSpec& q, const QuotaList& request, const QuotaList* pending) {
    std::vector<std::string> out;
    for (const auto& [name, hard] : q.hard) {
      auto r = request.find(name);
      if (r == request.end()) continue;
      const int64_t total = SaturatingAdd(SaturatingAdd(Get(&q.used, name), Get(pending, name)), r->second);
      if (total > hard) out.push_back(name);
    }
    return out;
  }

  // Volcano's event text, "resource quota insufficient, requested: ..., used: ...,
  // limited: ...", with each list as name=quantity and the quota named.
  static void Explain(const Session& s, const JobInfo& job, const ResourceQuotaSpec& q, const QuotaList& request,
                      const QuotaList* pending, const std::vector<std::string>& exceeded) {
    CheckNumbers numbers{{"resourcequota", absl::StrCat(q.namespace_, "/", q.name)}};
    std::string requested, used, limited, admitted;
    for (const std::string& name : exceeded) {
      const auto text = [&](int64_t v) { return FormatQuotaAmount(name, v); };
      const std::string sep = requested.empty() ? "" : ", ";
      absl::StrAppend(&requested, sep, name, "=", text(request.at(name)));
      absl::StrAppend(&used, sep, name, "=", text(Get(&q.used, name)));
      absl::StrAppend(&limited, sep, name, "=", text(q.hard.at(name)));
      if (Get(pending, name) > 0) {
        absl::StrAppend(&admitted, admitted.empty() ? "" : ", ", name, "=", text(Get(pending, name)));
      }
      numbers.emplace_back(name + ".requested", text(request.at(name)));
      numbers.emplace_back(name + ".used", text(Get(&q.used, name)));
      numbers.emplace_back(name + ".admitted", text(Get(pending, name)));
      numbers.emplace_back(name + ".hard", text(q.hard.at(name)));
    }
    std::string message = absl::StrCat("resource quota insufficient, requested: ", requested, ", used: ", used,
                                       ", limited: ", limited, " (ResourceQuota ", q.namespace_, "/", q.name);
    if (!admitted.empty()) absl::StrAppend(&message, "; admitted earlier this session: ", admitted);
    absl::StrAppend(&message, ")");
    s.ExplainJob(job.index, reason_code::kResourceQuotaExceeded, std::move(message), std::move(numbers));
  }

  std::map<std::string, std::vector<const ResourceQuotaSpec*>> quotas_;  // by namespace, in name order
  std::map<std::string, QuotaList> pending_;  // what this session admitted, by namespace
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewResourceQuotaPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new ResourceQuotaPlugin());
}

}  // namespace vcsched::internal
