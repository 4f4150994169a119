#include "src/io/config_reader.h"

#include "absl/strings/str_cat.h"
#include "src/io/value_yaml.h"

namespace vcsched::io_internal {

SchedulerConfig ReadSchedulerConfig(ObjectReader& r, const YAML::Node& body) {
  SchedulerConfig c;
  if (!body.IsMap()) {
    r.Fail(body, "", absl::StrCat("expected a scheduler configuration map, got ", Describe(body)));
    return c;
  }
  for (const auto& kv : body) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (key == "nodeSelector") {
      // Volcano's scheduler sharding: that scheduler caches only nodes with these labels.
      r.Warn("nodeSelector", "scheduler sharding is not applied: every node of the snapshot is scheduled "
                             "(give only the nodes this scheduler owns)");
    } else if (key == "schedulerArgs") {
      const YAML::Node args = r.List(body, "schedulerArgs", "schedulerArgs").yaml();
      for (size_t i = 0; args.IsDefined() && i < args.size(); ++i) {
        std::optional<std::string> arg = r.AsString(DocNode(args[i]), absl::StrCat("schedulerArgs[", i, "]"));
        if (arg) c.scheduler_args.push_back(std::move(*arg));
      }
      if (absl::StatusOr<SchedulerFlags> flags = ParseSchedulerArgs(c.scheduler_args); !flags.ok()) {
        r.Fail(kv.second, "schedulerArgs", flags.status().message());
      }
    } else if (key == "metrics") {
      // Volcano reads this section as a map of strings.
      const YAML::Node m = r.Map(body, "metrics", "metrics").yaml();
      for (const auto& entry : m) {
        const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : "";
        if (entry.second.IsScalar()) {
          c.metrics[name] = entry.second.Scalar();  // a number too: Volcano's YAML reader takes it as text
        } else {
          r.Fail(DocNode(entry.second), absl::StrCat("metrics.", name),
                 absl::StrCat("expected a string, got ", Describe(entry.second)));
        }
      }
    } else if (key != "actions" && key != "tiers" && key != "configurations" &&
               key != "apiVersion" && key != "kind" && key != "metadata") {
      r.Fail(kv.first, key, "unknown field of a scheduler configuration");
    }
  }
  if (std::optional<std::string> actions = r.String(body, "actions", "actions")) {
    absl::StatusOr<std::vector<std::string>> list = ParseActionList(*actions);
    if (list.ok()) c.actions = *list;
    else r.Fail(Get(body, "actions"), "actions", list.status().message());
  } else {
    r.Fail(body, "actions", "is required");
  }
  const YAML::Node tiers = r.List(body, "tiers", "tiers").yaml();
  for (size_t ti = 0; tiers.IsDefined() && ti < tiers.size(); ++ti) {
    const std::string tf = absl::StrCat("tiers[", ti, "]");
    Tier tier;
    if (!tiers[ti].IsMap()) {
      r.Fail(tiers[ti], tf, absl::StrCat("expected a tier (a map with a plugins list), got ", Describe(tiers[ti])));
      continue;
    }
    const YAML::Node plugins = r.List(tiers[ti], "plugins", absl::StrCat(tf, ".plugins")).yaml();
    for (size_t pi = 0; plugins.IsDefined() && pi < plugins.size(); ++pi) {
      const YAML::Node p = plugins[pi];
      const std::string pf = absl::StrCat(tf, ".plugins[", pi, "]");
      if (!p.IsMap()) {
        r.Fail(p, pf, absl::StrCat("expected a plugin entry, got ", Describe(p)));
        continue;
      }
      PluginOption opt;
      opt.name = r.String(p, "name", absl::StrCat(pf, ".name")).value_or("");
      if (opt.name.empty()) r.Fail(p, absl::StrCat(pf, ".name"), "is required");
      for (const auto& kv : p) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        if (key == "name") continue;
        if (key == "arguments") {
          if (!kv.second.IsNull() && !kv.second.IsMap()) {
            r.Fail(kv.second, absl::StrCat(pf, ".arguments"), absl::StrCat("expected a map, got ", Describe(kv.second)));
          } else if (kv.second.IsMap()) {
            Value args;
            int64_t budget = io_internal::kMaxArgumentValues;
            if (!io_internal::ToValue(kv.second, &args, &budget)) {
              r.Fail(kv.second, absl::StrCat(pf, ".arguments"),
                     absl::StrCat("too large (more than ", io_internal::kMaxArgumentValues,
                                  " values, aliases included) or nested deeper than ",
                                  io_internal::kMaxValueDepth, " levels"));
            } else {
              opt.arguments = Arguments(std::move(args));
            }
          }
          continue;
        }
        const std::optional<Switch> sw = SwitchFromKey(key);
        if (!sw) {
          r.Fail(kv.first, absl::StrCat(pf, ".", key), "unknown plugin switch");
          continue;
        }
        if (std::optional<bool> v = r.Bool(p, key.c_str(), absl::StrCat(pf, ".", key))) {
          opt.switches[static_cast<size_t>(*sw)] = *v;
        }
      }
      tier.plugins.push_back(std::move(opt));
    }
    c.tiers.push_back(std::move(tier));
  }
  const YAML::Node confs = r.List(body, "configurations", "configurations").yaml();
  for (size_t i = 0; confs.IsDefined() && i < confs.size(); ++i) {
    const std::string f = absl::StrCat("configurations[", i, "]");
    ActionConfiguration ac;
    ac.name = r.String(confs[i], "name", absl::StrCat(f, ".name")).value_or("");
    if (ac.name.empty()) r.Fail(confs[i], absl::StrCat(f, ".name"), "is required");
    const YAML::Node args = r.Map(confs[i], "arguments", absl::StrCat(f, ".arguments")).yaml();
    if (args.IsDefined()) {
      Value value;
      int64_t budget = io_internal::kMaxArgumentValues;
      if (!io_internal::ToValue(args, &value, &budget)) {
        r.Fail(args, absl::StrCat(f, ".arguments"),
               absl::StrCat("too large (more than ", io_internal::kMaxArgumentValues,
                                  " values, aliases included) or nested deeper than ",
                            io_internal::kMaxValueDepth, " levels"));
      } else {
        ac.arguments = Arguments(std::move(value));
      }
    }
    c.configurations.push_back(std::move(ac));
  }
  c.ApplyDefaults();
  return c;
}

void CheckAsVolcanoFile(ObjectReader& r, const YAML::Node& body, const SchedulerConfig& c) {
  for (size_t ti = 0; ti < c.tiers.size(); ++ti) {
    if (c.tiers[ti].MixesHierarchicalDrfAndProportion()) {
      const YAML::Node tiers = Get(body, "tiers");
      r.Fail(tiers.IsSequence() && ti < tiers.size() ? tiers[ti] : body, absl::StrCat("tiers[", ti, "]"),
             "drf with enableHierarchy and proportion in one tier: Volcano's scheduler refuses such a configuration "
             "file (a scenario's SchedulerConfiguration document may hold it, as Volcano's own tests do)");
    }
  }
}

}  // namespace vcsched::io_internal
