// conformance: critical pods and kube-system are never victims (docs/reference/scheduler.md §10.3).
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

class ConformancePlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    EvictableFn filter = [&s](TaskIndex, absl::Span<const TaskIndex> cands) {
      std::vector<TaskIndex> out;
      for (TaskIndex c : cands) {
        const PodSpec& pod = *s.task(c).pod;
        if (pod.priority_class_name == "system-cluster-critical" ||
            pod.priority_class_name == "system-node-critical" || pod.namespace_ == "kube-system") {
          continue;
        }
        out.push_back(c);
      }
      return std::make_pair(std::move(out), Vote::kPermit);
    };
    ssn.AddPreemptableFn(filter);
    ssn.AddReclaimableFn(filter);
    ssn.AddUnifiedEvictableFn([filter](EvictionKind, JobIndex, absl::Span<const TaskIndex> cands) {
      return filter(kNone, cands);
    });
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewConformancePlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new ConformancePlugin());
}

}  // namespace vcsched::internal
