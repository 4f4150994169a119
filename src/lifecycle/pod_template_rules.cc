#include "src/lifecycle/pod_template_rules.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "src/lifecycle/field_reader.h"
#include "vcsched/lifecycle/names.h"
#include "vcsched/quantity.h"

namespace vcsched::lifecycle::internal {

namespace {

// The cpu request of a container in milli-cores; its limit when it has no requests.
std::optional<int64_t> CpuRequest(const Value& container) {
  const Value* res = container.Find("resources");
  if (res == nullptr) return std::nullopt;
  const Value* requests = res->Find("requests");
  const Value* list = requests != nullptr && requests->size() > 0 ? requests : res->Find("limits");
  const Value* cpu = list == nullptr ? nullptr : list->Find("cpu");
  if (cpu == nullptr || !cpu->is_scalar()) return std::nullopt;
  absl::StatusOr<int64_t> v = ParseMilliValue(cpu->text());
  return v.ok() ? std::optional<int64_t>(*v) : std::nullopt;
}

void CheckResources(const Value& container, const std::string& at, Findings& out) {
  const Value* res = container.Find("resources");
  if (res == nullptr || !res->is_map()) return;
  std::map<std::string, int64_t> limits;
  for (const char* kind : {"limits", "requests"}) {
    const Value* list = res->Find(kind);
    if (list == nullptr || !list->is_map()) continue;
    for (const auto& [name, q] : list->entries()) {
      const std::string path = Join(Join(Join(at, "resources"), kind), name);
      absl::StatusOr<int64_t> v = q.is_scalar() ? ParseMilliValue(q.text()) : absl::InvalidArgumentError("");
      if (!v.ok()) {
        out.Error(path, absl::StrCat("Invalid value: ", q.Describe(), ": must be a quantity"));
      } else if (*v < 0) {
        out.Error(path, "Invalid value: must be greater than or equal to 0");
      } else if (std::string(kind) == "limits") {
        limits[name] = *v;
      } else if (auto l = limits.find(name); l != limits.end() && *v > l->second) {
        out.Error(path, absl::StrCat("Invalid value: \"", q.text(), "\": must be less than or equal to ", name,
                                     " limit of ", FormatMilli(l->second)));
      }
    }
  }
}

void CheckContainers(const Value* list, const std::string& at, bool required, std::set<std::string>& names,
                     Findings& out) {
  if (list == nullptr || !list->is_list() || list->size() == 0) {
    if (required) out.Error(at, "Required value");
    return;
  }
  for (size_t j = 0; j < list->items().size(); ++j) {
    const Value& c = list->items()[j];
    const std::string cat = Index(at, j);
    const Value* name = c.Find("name");
    if (name == nullptr || !name->is_scalar() || name->text().empty()) {
      out.Error(Join(cat, "name"), "Required value");
    } else {
      for (const std::string& p : Dns1123LabelProblems(name->text())) {
        out.Error(Join(cat, "name"), absl::StrCat("Invalid value: \"", name->text(), "\": ", p));
      }
      if (!names.insert(name->text()).second) out.Error(Join(cat, "name"), absl::StrCat("Duplicate value: \"", name->text(), "\""));
    }
    const Value* image = c.Find("image");
    if (image == nullptr || !image->is_scalar() || image->text().empty()) out.Error(Join(cat, "image"), "Required value");
    CheckResources(c, cat, out);
  }
}

}  // namespace

void CheckPodTemplate(const JobTask& task, const std::string& task_path, bool strict, Findings& findings) {
  Findings found;
  const std::string tpath = Join(task_path, "template");
  const Value* spec = task.pod_template.Find("spec");
  if (spec == nullptr || !spec->is_map()) {
    found.Error(Join(tpath, "spec.containers"), "Required value");
  } else {
    std::set<std::string> names;
    CheckContainers(spec->Find("containers"), Join(tpath, "spec.containers"), true, names, found);
    CheckContainers(spec->Find("initContainers"), Join(tpath, "spec.initContainers"), false, names, found);
    if (const Value* rp = spec->Find("restartPolicy"); rp != nullptr) {
      const std::string& v = rp->text();
      if (v != "Always" && v != "OnFailure" && v != "Never") {
        found.Error(Join(tpath, "spec.restartPolicy"),
                    absl::StrCat("Unsupported value: ", rp->Describe(), ": supported values: \"Always\", "
                                 "\"OnFailure\", \"Never\""));
      }
    }
  }
  for (Violation& v : found.errors) {
    v.message = absl::StrCat(v.message, strict ? "" : " (Volcano's webhook rejects this; accepted here)");
    (strict ? findings.errors : findings.warnings).push_back(std::move(v));
  }
  if (task.topology_policy.empty() || task.topology_policy == "none" || spec == nullptr) return;
  for (const char* kind : {"containers", "initContainers"}) {
    const Value* list = spec->Find(kind);
    if (list == nullptr || !list->is_list()) continue;
    for (size_t j = 0; j < list->items().size(); ++j) {
      std::optional<int64_t> cpu = CpuRequest(list->items()[j]);
      if (!cpu || *cpu <= 0 || *cpu % 1000 != 0) {
        findings.Error(Index(Join(Join(tpath, "spec"), kind), j),
                       absl::StrCat("the cpu request isn't an integer in ", task_path, " container[", j, "]."));
      }
    }
  }
}

}  // namespace vcsched::lifecycle::internal
