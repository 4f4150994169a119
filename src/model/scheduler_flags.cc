// vc-scheduler's command-line flags, as a scenario's SchedulerConfiguration carries them
// (`schedulerArgs`, the container's args): read as pflag reads them, the ones that change
// decisions applied or refused by name (docs/FORMAT.md).
#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "vcsched/config.h"

namespace vcsched {
namespace {

enum class FlagKind { kValue, kBool };

// What each flag vcsched knows does. Every other flag is an error (a misspelling, or a
// flag of another program).
enum class Effect {
  kNone,          // addresses, periods, logging, leader election: no decision changes
  kSchedulerName, // repeatable: the pods this scheduler serves
  kDefaultQueue,
  kIgnoredProvisioners,
  kShardingMode,
  kShardingName,
  kOnlyDefault,   // changes decisions unless it has Volcano's default value
  kRefused,       // changes decisions; not followed
};

struct Flag {
  FlagKind kind;
  Effect effect;
  const char* defaults = "";  // kOnlyDefault: the values that change nothing, '|'-separated
};

const std::map<std::string, Flag>& Flags() {
  static const auto* const flags = new std::map<std::string, Flag>{
      {"scheduler-name", {FlagKind::kValue, Effect::kSchedulerName}},
      {"default-queue", {FlagKind::kValue, Effect::kDefaultQueue}},
      {"ignored-provisioners", {FlagKind::kValue, Effect::kIgnoredProvisioners}},
      // vcsched considers every node; Volcano does while a cluster has at most
      // minimum-feasible-nodes nodes, or with percentage-nodes-to-find 100.
      {"percentage-nodes-to-find", {FlagKind::kValue, Effect::kOnlyDefault, "0|100"}},
      {"minimum-feasible-nodes", {FlagKind::kValue, Effect::kOnlyDefault, "100"}},
      {"minimum-percentage-nodes-to-find", {FlagKind::kValue, Effect::kOnlyDefault, "5"}},
      {"priority-class", {FlagKind::kBool, Effect::kOnlyDefault, "true"}},
      {"scheduler-sharding-mode", {FlagKind::kValue, Effect::kShardingMode}},
      {"scheduler-sharding-name", {FlagKind::kValue, Effect::kShardingName}},
      {"node-selector", {FlagKind::kValue, Effect::kRefused}},
      {"feature-gates", {FlagKind::kValue, Effect::kRefused}},
      {"csi-storage", {FlagKind::kBool, Effect::kNone}},  // volumes are not modelled
      {"disable-default-scheduler-config", {FlagKind::kBool, Effect::kNone}},
      {"master", {FlagKind::kValue, Effect::kNone}},
      {"kubeconfig", {FlagKind::kValue, Effect::kNone}},
      {"ca-cert-file", {FlagKind::kValue, Effect::kNone}},
      {"tls-cert-file", {FlagKind::kValue, Effect::kNone}},
      {"tls-private-key-file", {FlagKind::kValue, Effect::kNone}},
      {"lock-object-namespace", {FlagKind::kValue, Effect::kNone}},
      {"scheduler-conf", {FlagKind::kValue, Effect::kNone}},
      {"schedule-period", {FlagKind::kValue, Effect::kNone}},
      {"resync-period", {FlagKind::kValue, Effect::kNone}},
      {"version", {FlagKind::kBool, Effect::kNone}},
      {"listen-address", {FlagKind::kValue, Effect::kNone}},
      {"healthz-address", {FlagKind::kValue, Effect::kNone}},
      {"kube-api-qps", {FlagKind::kValue, Effect::kNone}},
      {"kube-api-burst", {FlagKind::kValue, Effect::kNone}},
      {"plugins-dir", {FlagKind::kValue, Effect::kNone}},
      {"enable-healthz", {FlagKind::kBool, Effect::kNone}},
      {"enable-metrics", {FlagKind::kBool, Effect::kNone}},
      {"enable-pprof", {FlagKind::kBool, Effect::kNone}},
      {"cache-dumper", {FlagKind::kBool, Effect::kNone}},
      {"cache-dump-dir", {FlagKind::kValue, Effect::kNone}},
      {"node-worker-threads", {FlagKind::kValue, Effect::kNone}},
      {"gate-removal-worker-num", {FlagKind::kValue, Effect::kNone}},
      {"resource-sync-timeout", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect", {FlagKind::kBool, Effect::kNone}},
      {"leader-elect-lease-duration", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect-renew-deadline", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect-retry-period", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect-resource-lock", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect-resource-name", {FlagKind::kValue, Effect::kNone}},
      {"leader-elect-resource-namespace", {FlagKind::kValue, Effect::kNone}},
      {"v", {FlagKind::kValue, Effect::kNone}},
      {"vmodule", {FlagKind::kValue, Effect::kNone}},
      {"logtostderr", {FlagKind::kBool, Effect::kNone}},
      {"alsologtostderr", {FlagKind::kBool, Effect::kNone}},
      {"log-dir", {FlagKind::kValue, Effect::kNone}},
      {"log-file", {FlagKind::kValue, Effect::kNone}},
  };
  return *flags;
}

}  // namespace

absl::StatusOr<SchedulerFlags> ParseSchedulerArgs(const std::vector<std::string>& args) {
  SchedulerFlags out;
  bool names_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(absl::StrCat("schedulerArgs[", i, "]: \"", arg, "\": ", why));
    };
    const size_t dashes = absl::StartsWith(arg, "--") ? 2 : absl::StartsWith(arg, "-") ? 1 : 0;
    if (dashes == 0 || arg.size() == dashes) return bad("not a flag (flags start with --)");
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(dashes, eq == std::string::npos ? std::string::npos : eq - dashes);
    auto it = Flags().find(name);
    if (it == Flags().end()) return bad("not a vc-scheduler flag");
    const Flag& flag = it->second;
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (flag.kind == FlagKind::kBool) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return bad("needs a value");
    }
    if (flag.kind == FlagKind::kBool && value != "true" && value != "false") return bad("expected true or false");
    switch (flag.effect) {
      case Effect::kNone:
        break;
      case Effect::kSchedulerName:
        if (!names_given) out.scheduler_names.clear();  // the first one replaces the default
        names_given = true;
        out.scheduler_names.push_back(value);
        break;
      case Effect::kDefaultQueue:
        if (value.empty()) return bad("needs a queue name");
        out.default_queue = value;
        break;
      case Effect::kIgnoredProvisioners:
        for (absl::string_view p : absl::StrSplit(value, ',', absl::SkipEmpty())) out.ignored_provisioners.emplace_back(p);
        break;
      case Effect::kShardingMode:
        if (value == "none") out.sharding_mode = ShardingMode::kOff;
        else if (value == "hard") out.sharding_mode = ShardingMode::kHard;
        else if (value == "soft") out.sharding_mode = ShardingMode::kSoft;
        else return bad("expected none, hard or soft");
        break;
      case Effect::kShardingName:
        out.sharding_name = value;
        break;
      case Effect::kOnlyDefault: {
        const std::vector<absl::string_view> fine = absl::StrSplit(flag.defaults, '|');
        if (std::find(fine.begin(), fine.end(), value) == fine.end()) {
          return bad(absl::StrCat("changes decisions and vcsched does not follow it (only ", absl::StrJoin(fine, " or "),
                                  ", which change nothing, are accepted)"));
        }
        break;
      }
      case Effect::kRefused:
        return bad("changes decisions and vcsched does not follow it");
    }
  }
  return out;
}

}  // namespace vcsched
