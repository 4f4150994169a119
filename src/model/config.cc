#include "vcsched/config.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/model/yaml_text.h"

namespace vcsched {
namespace {

// YAML keys, byte for byte as Volcano spells them, indexed by Switch.
constexpr const char* kSwitchKeys[kSwitchCount] = {
    "enableJobOrder",       "enableTaskOrder",        "enableQueueOrder",
    "enabledClusterOrder",  "enableJobReady",         "enableJobPipelined",
    "enableJobEnqueued",    "enableJobStarving",      "enablePredicate",
    "enableNodeOrder",      "enableBestNode",         "enablePreemptable",
    "enableReclaimable",    "enablePreemptive",       "enabledOverused",
    "enabledAllocatable",   "enabledVictim",          "enableTargetJob",
    "enableReservedNodes",  "enableHierarchy",        "enabledHyperNodeOrder",
    "enabledHyperNodeGradient", "enabledSubJobReady", "enabledSubJobPipelined",
    "enabledSubJobOrder",
};

bool DefaultOf(Switch s) { return s != Switch::kHierarchy && s != Switch::kClusterOrder; }

}  // namespace

const char* SwitchKey(Switch s) { return kSwitchKeys[static_cast<int>(s)]; }

std::optional<Switch> SwitchFromKey(absl::string_view key) {
  for (int i = 0; i < kSwitchCount; ++i) {
    if (key == kSwitchKeys[i]) return static_cast<Switch>(i);
  }
  return std::nullopt;
}

bool PluginOption::Enabled(Switch s) const {
  const auto& v = switches[static_cast<size_t>(s)];
  return v.has_value() ? *v : DefaultOf(s);
}

bool Tier::MixesHierarchicalDrfAndProportion() const {
  bool hierarchical_drf = false, proportion = false;
  for (const PluginOption& p : plugins) {
    hierarchical_drf |= p.name == "drf" && p.Enabled(Switch::kHierarchy);
    proportion |= p.name == "proportion";
  }
  return hierarchical_drf && proportion;
}

void SchedulerConfig::ApplyDefaults() {
  for (Tier& tier : tiers) {
    for (PluginOption& p : tier.plugins) {
      for (int i = 0; i < kSwitchCount; ++i) {
        auto& v = p.switches[static_cast<size_t>(i)];
        if (!v.has_value()) v = DefaultOf(static_cast<Switch>(i));
      }
    }
  }
}

const Arguments& SchedulerConfig::ActionArguments(absl::string_view name) const {
  static const Arguments* const kEmpty = new Arguments();
  for (const ActionConfiguration& c : configurations) {
    if (c.name == name) return c.arguments;
  }
  return *kEmpty;
}

std::string SchedulerConfig::ToYaml() const {
  using model_internal::YamlDoubleQuoted;
  using model_internal::YamlScalar;
  std::string joined;
  for (size_t i = 0; i < actions.size(); ++i) absl::StrAppend(&joined, i ? ", " : "", actions[i]);
  std::string out = absl::StrCat("actions: ", YamlDoubleQuoted(joined), "\ntiers:\n");
  for (const Tier& tier : tiers) {
    out += "- plugins:\n";
    for (const PluginOption& p : tier.plugins) {
      absl::StrAppend(&out, "  - name: ", YamlScalar(p.name), "\n");
      for (int i = 0; i < kSwitchCount; ++i) {
        const Switch s = static_cast<Switch>(i);
        if (p.Enabled(s) != DefaultOf(s)) {
          absl::StrAppend(&out, "    ", SwitchKey(s), ": ", p.Enabled(s) ? "true" : "false", "\n");
        }
      }
      if (!p.arguments.empty()) {
        out += "    arguments:\n";
        model_internal::AppendYamlMap(p.arguments.root(), 6, &out);
      }
    }
  }
  if (!configurations.empty()) {
    out += "configurations:\n";
    for (const ActionConfiguration& c : configurations) {
      absl::StrAppend(&out, "- name: ", YamlScalar(c.name), "\n");
      if (!c.arguments.empty()) {
        out += "  arguments:\n";
        model_internal::AppendYamlMap(c.arguments.root(), 4, &out);
      }
    }
  }
  if (!metrics.empty()) {
    out += "metrics:\n";
    for (const auto& [key, value] : metrics) absl::StrAppend(&out, "  ", YamlDoubleQuoted(key), ": ", YamlDoubleQuoted(value), "\n");
  }
  if (!scheduler_args.empty()) {
    out += "schedulerArgs:\n";
    for (const std::string& arg : scheduler_args) absl::StrAppend(&out, "- ", YamlDoubleQuoted(arg), "\n");
  }
  return out;
}

SchedulerConfig DefaultSchedulerConfig() {
  SchedulerConfig c;
  c.actions = {"enqueue", "allocate", "backfill"};
  Tier t1, t2;
  for (const char* n : {"priority", "gang", "conformance"}) t1.plugins.push_back({n, {}, {}});
  for (const char* n : {"overcommit", "drf", "predicates", "proportion", "nodeorder"}) {
    t2.plugins.push_back({n, {}, {}});
  }
  c.tiers = {t1, t2};
  c.ApplyDefaults();
  return c;
}

absl::StatusOr<std::vector<std::string>> ParseActionList(absl::string_view actions) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(actions, ',')) {
    const absl::string_view name = absl::StripAsciiWhitespace(part);
    if (name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("actions: empty action name in \"", actions, "\""));
    }
    out.emplace_back(name);
  }
  return out;
}

}  // namespace vcsched
