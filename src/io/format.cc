#include "vcsched/io/format.h"

#include "absl/strings/str_cat.h"
#include "src/io/binding_text.h"
#include "src/model/output_text.h"

namespace vcsched {
namespace {

template <typename T, typename F>
void AppendArray(std::string* out, const char* name, const std::vector<T>& items, F item, bool last = false) {
  absl::StrAppend(out, "  ", JsonQuote(name), ": [");
  for (size_t i = 0; i < items.size(); ++i) absl::StrAppend(out, i ? ",\n    " : "\n    ", item(items[i]));
  absl::StrAppend(out, items.empty() ? "]" : "\n  ]", last ? "\n" : ",\n");
}

}  // namespace

namespace internal {

std::string AnnotationsJson(const std::vector<PodAnnotation>& annotations) {
  std::string out = "{";
  for (size_t i = 0; i < annotations.size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", JsonQuote(annotations[i].key), ": ", JsonQuote(annotations[i].value));
  }
  return out + "}";
}

std::string BindingManifest(absl::string_view ns, absl::string_view name, const Bind& b) {
  std::string out = absl::StrCat("apiVersion: v1\nkind: Binding\nmetadata:\n  name: ", JsonQuote(name),
                                 "\n  namespace: ", JsonQuote(ns), "\n");
  // The API server copies a Binding's annotations onto the pod it binds.
  if (!b.annotations.empty()) {
    out += "  annotations:\n";
    for (const PodAnnotation& a : b.annotations) absl::StrAppend(&out, "    ", JsonQuote(a.key), ": ", JsonQuote(a.value), "\n");
  }
  absl::StrAppend(&out, "target:\n  apiVersion: v1\n  kind: Node\n  name: ", JsonQuote(b.node), "\n");
  return out;
}

}  // namespace internal

using internal::AnnotationsJson;
using internal::BindingManifest;

std::string DecisionsToJson(const Decisions& d) {
  std::string out = "{\n";
  AppendArray(&out, "binds", d.binds, [](const Bind& b) {
    return absl::StrCat("{\"task\": ", JsonQuote(b.task), ", \"node\": ", JsonQuote(b.node),
                        b.annotations.empty() ? "" : absl::StrCat(", \"annotations\": ", AnnotationsJson(b.annotations)), "}");
  });
  AppendArray(&out, "pipelined", d.pipelined, [](const Pipelined& p) {
    return absl::StrCat("{\"task\": ", JsonQuote(p.task), ", \"node\": ", JsonQuote(p.node),
                        p.eviction_occurred ? ", \"evictionOccurred\": true}" : "}");
  });
  AppendArray(&out, "evictions", d.evictions, [](const Eviction& e) {
    return absl::StrCat("{\"task\": ", JsonQuote(e.task), ", \"action\": ", JsonQuote(e.action), ", \"preemptor\": ",
                        JsonQuote(e.preemptor), ", \"reason\": ", JsonQuote(e.reason), "}");
  });
  AppendArray(&out, "podGroups", d.pod_groups, [](const PodGroupStatus& g) {
    std::string conds;
    for (size_t i = 0; i < g.conditions.size(); ++i) {
      const PodGroupCondition& c = g.conditions[i];
      absl::StrAppend(&conds, i ? ", " : "", "{\"type\": ", JsonQuote(c.type), ", \"status\": ", JsonQuote(c.status),
                      ", \"reason\": ", JsonQuote(c.reason), ", \"message\": ", JsonQuote(c.message),
                      ", \"transitionID\": ", JsonQuote(c.transition_id), "}");
    }
    return absl::StrCat("{\"podGroup\": ", JsonQuote(g.job), ", \"oldPhase\": ", JsonQuote(g.old_phase), ", \"phase\": ",
                        JsonQuote(g.phase), ", \"running\": ", g.running, ", \"succeeded\": ", g.succeeded,
                        ", \"failed\": ", g.failed, ", \"conditions\": [", conds, "]}");
  });
  AppendArray(&out, "taskReasons", d.task_reasons, [](const TaskReason& r) {
    return absl::StrCat("{\"task\": ", JsonQuote(r.task), ", \"reason\": ", JsonQuote(r.reason), ", \"message\": ",
                        JsonQuote(r.message), "}");
  });
  AppendArray(&out, "volumeBindings", d.volume_bindings, [](const VolumeBinding& v) {
    return absl::StrCat("{\"claim\": ", JsonQuote(v.claim), ", \"task\": ", JsonQuote(v.task), ", \"volume\": ",
                        JsonQuote(v.volume), ", \"node\": ", JsonQuote(v.node), "}");
  });
  AppendArray(&out, "warnings", d.warnings, [](const std::string& w) { return JsonQuote(w); }, true);
  out += "}\n";
  return out;
}

std::string DecisionsToManifests(const Decisions& d) {
  std::string out;
  for (const Bind& b : d.binds) {
    const auto [ns, name] = SplitTaskKey(b.task);
    absl::StrAppend(&out, "---\n", BindingManifest(ns, name, b));
  }
  for (const Eviction& e : d.evictions) {
    absl::StrAppend(&out, "# evict ", e.task, " (", e.action, "): apply with `vcsched schedule -o kubectl`\n");
  }
  return out;
}

std::string DecisionsToText(const Decisions& d) {
  std::string out = d.ToString();
  absl::StrAppend(&out, "summary: ", d.binds.size(), " binds, ", d.pipelined.size(), " pipelined, ",
                  d.evictions.size(), " evictions, ", d.task_reasons.size(), " tasks not placed, ",
                  d.warnings.size(), " warnings\n");
  return out;
}

}  // namespace vcsched
