#include "vcsched/lifecycle/dependencies.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/lifecycle/dag.h"

namespace vcsched::lifecycle {

std::string TaskDependencyCycle(const VolcanoJob& job) {
  std::vector<std::pair<std::string, std::vector<std::string>>> graph;
  for (const JobTask& t : job.tasks) {
    graph.emplace_back(t.name, t.depends_on ? t.depends_on->names : std::vector<std::string>{});
  }
  const internal::DagProblem p = internal::CheckDag(graph);
  if (!p.undefined.empty()) return absl::StrCat("a task depends on unknown task ", p.undefined);
  if (!p.cycle.empty()) return absl::StrCat("cycle ", absl::StrJoin(p.cycle, " -> "));
  return "";
}

bool DependenciesMet(const VolcanoJob& job, const JobTask& task, const std::map<std::string, int32_t>& ready_pods) {
  if (!task.depends_on || task.depends_on->names.empty()) return true;
  const std::vector<std::string>& deps = task.depends_on->names;
  auto ready = [&](const std::string& name) {
    const JobTask* dep = job.FindTask(name);
    if (dep == nullptr || !dep->min_available) return true;
    auto it = ready_pods.find(name);
    return (it == ready_pods.end() ? 0 : it->second) >= *dep->min_available;
  };
  if (task.depends_on->iteration == "any" && deps.size() > 1) {
    for (const std::string& d : deps) {
      if (ready(d)) return true;
    }
    return false;
  }
  for (const std::string& d : deps) {
    if (!ready(d)) return false;
  }
  return true;
}

std::vector<std::string> TasksReadyToCreate(const VolcanoJob& job, const std::map<std::string, int32_t>& ready_pods) {
  std::vector<std::string> out;
  for (const JobTask& t : job.tasks) {
    if (DependenciesMet(job, t, ready_pods)) out.push_back(t.name);
  }
  return out;
}

}  // namespace vcsched::lifecycle
