// DecisionsToKubectlScript: the decisions as kubectl commands (include/vcsched/io/format.h).
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "src/io/binding_text.h"
#include "src/model/output_text.h"
#include "vcsched/io/format.h"

namespace vcsched {
namespace {

// Single-quoted for the shell: a quote inside ends the string, adds \' and reopens it.
std::string ShellQuote(absl::string_view s) {
  return absl::StrCat("'", absl::StrReplaceAll(s, {{"'", "'\\''"}}), "'");
}

// A here-document's end marker no line of ours can equal (every body line is indented
// YAML or JSON text that starts with a brace or a key).
constexpr absl::string_view kEnd = "VCSCHED_END";

std::string EvictionBody(absl::string_view ns, absl::string_view name) {
  return absl::StrCat("{\"apiVersion\": \"policy/v1\", \"kind\": \"Eviction\", \"metadata\": {\"name\": ",
                      JsonQuote(name), ", \"namespace\": ", JsonQuote(ns), "}}");
}

std::string PodGroupStatusPatch(const PodGroupStatus& g, const KubectlScriptOptions& options) {
  std::string conditions;
  const std::string time =
      options.now_seconds != 0
          ? absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(options.now_seconds), absl::UTCTimeZone())
          : "";
  for (const PodGroupCondition& c : g.conditions) {
    absl::StrAppend(&conditions, conditions.empty() ? "" : ", ", "{\"type\": ", JsonQuote(c.type),
                    ", \"status\": ", JsonQuote(c.status), ", \"transitionID\": ", JsonQuote(c.transition_id));
    if (!time.empty()) absl::StrAppend(&conditions, ", \"lastTransitionTime\": ", JsonQuote(time));
    absl::StrAppend(&conditions, ", \"reason\": ", JsonQuote(c.reason), ", \"message\": ", JsonQuote(c.message), "}");
  }
  std::string status = absl::StrCat("\"phase\": ", JsonQuote(g.phase), ", \"running\": ", g.running,
                                    ", \"succeeded\": ", g.succeeded, ", \"failed\": ", g.failed);
  // A merge patch replaces a list whole: conditions are sent only when the session wrote some.
  if (!g.conditions.empty()) absl::StrAppend(&status, ", \"conditions\": [", conditions, "]");
  return absl::StrCat("{\"status\": {", status, "}}");
}

}  // namespace

std::string DecisionsToKubectlScript(const Decisions& d, const KubectlScriptOptions& options) {
  std::string out = absl::StrCat(
      "#!/bin/sh\n"
      "# The decisions of one vcsched session, applied with kubectl: ",
      d.binds.size(), " bindings, ", d.evictions.size(), " evictions, ", d.pod_groups.size(),
      " PodGroup statuses.\n"
      "# Every command runs even when one fails; the script exits 1 if any failed.\n"
      "# Volcano's released PodGroup CRD declares no status subresource: on such a cluster drop\n"
      "# --subresource=status from the patches (the merge patch then goes to the object).\n"
      "status=0\n");
  if (!d.binds.empty()) {
    absl::StrAppend(&out, "\n# Bindings (pods/binding)\nkubectl create -f - <<'", kEnd, "' || status=1\n");
    for (const Bind& b : d.binds) {
      const auto [ns, name] = SplitTaskKey(b.task);
      absl::StrAppend(&out, "---\n", internal::BindingManifest(ns, name, b));
    }
    absl::StrAppend(&out, kEnd, "\n");
  }
  if (!d.evictions.empty()) absl::StrAppend(&out, "\n# Evictions (pods/eviction)\n");
  for (const Eviction& e : d.evictions) {
    const auto [ns, name] = SplitTaskKey(e.task);
    absl::StrAppend(&out, "# ", e.action, e.preemptor.empty() ? "" : absl::StrCat(" for ", e.preemptor), "\n",
                    "kubectl create --raw ", ShellQuote(absl::StrCat("/api/v1/namespaces/", ns, "/pods/", name, "/eviction")),
                    " -f - <<'", kEnd, "' || status=1\n", EvictionBody(ns, name), "\n", kEnd, "\n");
  }
  if (!d.pod_groups.empty()) absl::StrAppend(&out, "\n# PodGroup phases and conditions (podgroups/status)\n");
  for (const PodGroupStatus& g : d.pod_groups) {
    const auto [ns, name] = SplitTaskKey(g.job);
    absl::StrAppend(&out, "kubectl patch podgroup ", ShellQuote(name), " -n ", ShellQuote(ns),
                    " --subresource=status --type=merge -p ", ShellQuote(PodGroupStatusPatch(g, options)),
                    " || status=1\n");
  }
  absl::StrAppend(&out, "exit $status\n");
  return out;
}

}  // namespace vcsched
