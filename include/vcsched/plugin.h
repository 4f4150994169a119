// The plugin interface. A plugin registers callbacks when a session opens and may
// report when it closes. Host programs implement Plugin and register a factory in a
// Registry (registry.h); configurations name it in their tiers like a built-in.
//
//   class PreferNode : public Plugin {
//    public:
//     absl::Status OnSessionOpen(Session& ssn) override {
//       ssn.AddNodeOrderFn([&ssn](TaskIndex, NodeIndex n) {
//         return ssn.snapshot().nodes()[n].spec.name == "n1" ? 100.0 : 0.0; });
//       return absl::OkStatus();
//     }
//   };
#ifndef VCSCHED_PLUGIN_H_
#define VCSCHED_PLUGIN_H_

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "vcsched/arguments.h"
#include "vcsched/session.h"

namespace vcsched {

class Plugin {
 public:
  virtual ~Plugin() = default;
  // Registers callbacks. An error ends the session with that error.
  virtual absl::Status OnSessionOpen(Session& session) = 0;
  // Called in tier order after the actions ran, before PodGroup statuses are written.
  virtual void OnSessionClose(Session& session) { (void)session; }
};

// Builds a plugin from its arguments; a wrongly typed argument is kInvalidArgument
// naming the key. Called once per session (and once by config validation).
using PluginFactory = std::function<absl::StatusOr<std::unique_ptr<Plugin>>(const Arguments&)>;

// What a plugin promises the framework, declared when it is registered.
struct PluginTraits {
  // The plugin's predicates and node scores for a task depend only on the task's
  // resource shape and placement flags and on each node's own state, except for the
  // tasks its Session::AddNodeChoiceVetoFn names. Allocate may then reuse one node
  // choice for every task of a shape. A plugin that registers predicates or scores
  // without this trait turns that reuse off for the session (the safe default).
  bool node_local_answers = false;
};

}  // namespace vcsched

#endif  // VCSCHED_PLUGIN_H_
