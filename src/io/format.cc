#include "vcsched/io/format.h"

#include <cstdio>

#include "absl/strings/str_cat.h"

namespace vcsched {
namespace {

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::pair<absl::string_view, absl::string_view> Split(absl::string_view key) {
  const size_t slash = key.find('/');
  if (slash == absl::string_view::npos) return {"default", key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

template <typename T, typename F>
void AppendArray(std::string* out, const char* name, const std::vector<T>& items, F item, bool last = false) {
  absl::StrAppend(out, "  ", Quote(name), ": [");
  for (size_t i = 0; i < items.size(); ++i) absl::StrAppend(out, i ? ",\n    " : "\n    ", item(items[i]));
  absl::StrAppend(out, items.empty() ? "]" : "\n  ]", last ? "\n" : ",\n");
}

}  // namespace

std::string DecisionsToJson(const Decisions& d) {
  std::string out = "{\n";
  AppendArray(&out, "binds", d.binds, [](const Bind& b) {
    return absl::StrCat("{\"task\": ", Quote(b.task), ", \"node\": ", Quote(b.node), "}");
  });
  AppendArray(&out, "pipelined", d.pipelined, [](const Pipelined& p) {
    return absl::StrCat("{\"task\": ", Quote(p.task), ", \"node\": ", Quote(p.node), "}");
  });
  AppendArray(&out, "evictions", d.evictions, [](const Eviction& e) {
    return absl::StrCat("{\"task\": ", Quote(e.task), ", \"action\": ", Quote(e.action), ", \"preemptor\": ",
                        Quote(e.preemptor), ", \"reason\": ", Quote(e.reason), "}");
  });
  AppendArray(&out, "podGroups", d.pod_groups, [](const PodGroupStatus& g) {
    std::string conds;
    for (size_t i = 0; i < g.conditions.size(); ++i) {
      const PodGroupCondition& c = g.conditions[i];
      absl::StrAppend(&conds, i ? ", " : "", "{\"type\": ", Quote(c.type), ", \"status\": ", Quote(c.status),
                      ", \"reason\": ", Quote(c.reason), ", \"message\": ", Quote(c.message),
                      ", \"transitionID\": ", Quote(c.transition_id), "}");
    }
    return absl::StrCat("{\"podGroup\": ", Quote(g.job), ", \"oldPhase\": ", Quote(g.old_phase), ", \"phase\": ",
                        Quote(g.phase), ", \"running\": ", g.running, ", \"succeeded\": ", g.succeeded,
                        ", \"failed\": ", g.failed, ", \"conditions\": [", conds, "]}");
  });
  AppendArray(&out, "taskReasons", d.task_reasons, [](const TaskReason& r) {
    return absl::StrCat("{\"task\": ", Quote(r.task), ", \"reason\": ", Quote(r.reason), ", \"message\": ",
                        Quote(r.message), "}");
  });
  AppendArray(&out, "warnings", d.warnings, [](const std::string& w) { return Quote(w); }, true);
  out += "}\n";
  return out;
}

std::string DecisionsToManifests(const Decisions& d) {
  std::string out;
  for (const Bind& b : d.binds) {
    const auto [ns, name] = Split(b.task);
    absl::StrAppend(&out, "---\napiVersion: v1\nkind: Binding\nmetadata:\n  name: ", Quote(name),
                    "\n  namespace: ", Quote(ns), "\ntarget:\n  apiVersion: v1\n  kind: Node\n  name: ",
                    Quote(b.node), "\n");
  }
  for (const Eviction& e : d.evictions) {
    const auto [ns, name] = Split(e.task);
    absl::StrAppend(&out, "---\napiVersion: policy/v1\nkind: Eviction\nmetadata:\n  name: ", Quote(name),
                    "\n  namespace: ", Quote(ns), "\n");
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
