// A scheduler configuration in Volcano's format: actions, tiers of plugins, switches,
// plugin arguments and per-action configurations.
//
// The switches keep Volcano's spellings (enableJobOrder but enabledOverused). A switch
// left unset defaults to true, except enableHierarchy and enabledClusterOrder (false);
// ApplyDefaults() does that once, at load.
#ifndef VCSCHED_CONFIG_H_
#define VCSCHED_CONFIG_H_

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/arguments.h"

namespace vcsched {

// One gate per kind of callback (docs/reference/scheduler.md §4.3).
enum class Switch : int {
  kJobOrder,
  kTaskOrder,
  kQueueOrder,
  kClusterOrder,
  kJobReady,
  kJobPipelined,
  kJobEnqueued,
  kJobStarving,
  kPredicate,
  kNodeOrder,
  kBestNode,
  kPreemptable,
  kReclaimable,
  kPreemptive,
  kOverused,
  kAllocatable,
  kVictim,
  kTargetJob,
  kReservedNodes,
  kHierarchy,
  kHyperNodeOrder,
  kHyperNodeGradient,
  kSubJobReady,
  kSubJobPipelined,
  kSubJobOrder,
};
inline constexpr int kSwitchCount = 25;
// The YAML key of a switch, e.g. "enabledOverused".
const char* SwitchKey(Switch s);
// The switch a YAML key names, or nullopt.
std::optional<Switch> SwitchFromKey(absl::string_view key);

struct PluginOption {
  std::string name;
  std::array<std::optional<bool>, kSwitchCount> switches{};
  Arguments arguments;

  // Whether switch `s` is on; an unset switch reads as its default, so this holds
  // before ApplyDefaults() as after.
  bool Enabled(Switch s) const;
};

struct Tier {
  std::vector<PluginOption> plugins;

  // drf with enableHierarchy and proportion both in this tier: Volcano's configuration
  // file loader refuses it, its framework runs it.
  bool MixesHierarchicalDrfAndProportion() const;
};

struct ActionConfiguration {
  std::string name;
  Arguments arguments;
};

struct SchedulerConfig {
  std::vector<std::string> actions;  // in execution order
  std::vector<Tier> tiers;
  std::vector<ActionConfiguration> configurations;
  // vc-scheduler's command-line flags (a scenario's `schedulerArgs`, as the scheduler
  // container's args hold them); ParseSchedulerArgs reads them.
  std::vector<std::string> scheduler_args;
  // The `metrics` section (Volcano's metrics source: type, address, interval, ...). No
  // source is read here; the usage plugin reads `interval` (docs/FORMAT.md "Node metrics").
  std::map<std::string, std::string> metrics;
  // Where the configuration was read ("volcano-scheduler.conf: document 1"); errors and
  // warnings about it begin with this. Empty for a configuration built in code.
  std::string origin;

  // Sets every unset switch to its default.
  void ApplyDefaults();
  // The arguments of action `name` (empty when none are configured).
  const Arguments& ActionArguments(absl::string_view name) const;
  // Renders the configuration as volcano-scheduler.conf YAML.
  std::string ToYaml() const;
};

// Volcano's built-in default: enqueue, allocate, backfill; priority, gang, conformance;
// overcommit, drf, predicates, proportion, nodeorder. Defaults applied.
SchedulerConfig DefaultSchedulerConfig();

// vc-scheduler's --scheduler-sharding-mode: whether the scheduler keeps to the nodes of
// its NodeShard (hard), prefers them (soft: its shard's nodes first, then the others, at
// each step that ranks nodes), or ignores shards (none).
enum class ShardingMode { kOff, kHard, kSoft };  // kOff: "none"

// The vc-scheduler flags that change decisions, as ParseSchedulerArgs reads them.
struct SchedulerFlags {
  std::vector<std::string> scheduler_names = {"volcano"};  // --scheduler-name (repeatable)
  std::string default_queue = "default";                   // --default-queue
  // --ignored-provisioners: their claims are not counted against CSI attach limits
  // (volumes are not modelled yet, so nothing is counted either way).
  std::vector<std::string> ignored_provisioners;
  ShardingMode sharding_mode = ShardingMode::kOff;  // --scheduler-sharding-mode
  std::string sharding_name = "volcano";             // --scheduler-sharding-name: the NodeShard's name
};
// Reads flags as vc-scheduler's command line does (--name=value, --name value, a bare
// --bool). Flags that change no decision (addresses, periods, logging, leader election)
// are accepted; one that changes decisions and that vcsched does not follow (a node
// selector, feature gates, node sampling other than Volcano's default) is an error
// naming it, as is an unknown flag or a sharding mode other than none, hard and soft.
absl::StatusOr<SchedulerFlags> ParseSchedulerArgs(const std::vector<std::string>& args);

// Splits Volcano's comma-separated action string ("enqueue, allocate") into names;
// empty entries are errors.
absl::StatusOr<std::vector<std::string>> ParseActionList(absl::string_view actions);

}  // namespace vcsched

#endif  // VCSCHED_CONFIG_H_
