#include "src/framework/session_sharding.h"

#include "absl/strings/str_cat.h"
#include "src/framework/session_state.h"
#include "vcsched/policy.h"

namespace vcsched::internal {

absl::Status OpenSharding(Session& ssn) {
  Session::State& s = SessionInternals::Of(ssn);
  absl::StatusOr<SchedulerFlags> flags = ParseSchedulerArgs(ssn.config().scheduler_args);
  if (!flags.ok()) return absl::InvalidArgumentError(absl::StrCat("configuration: ", flags.status().message()));
  s.sharding_mode = flags->sharding_mode;
  if (s.sharding_mode == ShardingMode::kOff) return absl::OkStatus();
  const Snapshot& snapshot = ssn.snapshot();
  const auto in_shard = NodesInShard(snapshot.policy(), flags->sharding_name);
  s.shard_name = flags->sharding_name;
  s.node_in_shard.assign(snapshot.nodes().size(), 0);
  for (size_t i = 0; i < snapshot.nodes().size(); ++i) {
    s.node_in_shard[i] = in_shard.count(snapshot.nodes()[i].spec.name) != 0;
    s.shard_nodes += s.node_in_shard[i];
  }
  if (s.sharding_mode == ShardingMode::kSoft) {
    s.node_choice_cache = false;
    return absl::OkStatus();
  }
  const FitResult refused = FitResult::Fail(FitCode::kError, ssn.InternReason(kNotInShardText));
  const Session& view = ssn;
  ssn.AddPredicateFn([&view, refused](TaskIndex, NodeIndex n) {
    return view.NodeInShard(n) ? FitResult::Success() : refused;
  });
  ssn.AddSimulatePredicateFn([&view, refused](TaskIndex, NodeIndex n, absl::Span<const TaskIndex>) {
    return view.NodeInShard(n) ? FitResult::Success() : refused;
  });
  return absl::OkStatus();
}

}  // namespace vcsched::internal
