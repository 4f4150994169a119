// The scheduler's node shard (vc-scheduler's --scheduler-sharding-mode and
// --scheduler-sharding-name, with the snapshot's NodeShards): set up when a session opens.
#ifndef VCSCHED_SRC_FRAMEWORK_SESSION_SHARDING_H_
#define VCSCHED_SRC_FRAMEWORK_SESSION_SHARDING_H_

#include "absl/status/status.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// The text of a node the hard mode refuses, as Volcano words it.
inline constexpr const char* kNotInShardText = "node isn't in scheduler node shard";

// Reads the sharding flags of the session's configuration (scheduler_args) and marks the
// nodes of the scheduler's shard. In hard mode it registers, ahead of every plugin, the
// predicate that refuses the other nodes (Volcano checks it before any other); in soft
// mode it turns off the node-choice caches, whose ranks know only the idle and future-
// idle gradients. Call before the plugins open.
absl::Status OpenSharding(Session& ssn);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_FRAMEWORK_SESSION_SHARDING_H_
