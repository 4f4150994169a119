// Scenario files (docs/FORMAT.md) and scheduler configurations from YAML text.
//
// This is the separate `vcsched_io` library: the only code that sees yaml-cpp. It does
// no file I/O; callers pass text and a name for messages.
//
//   absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", text}});
//   absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
//
// Errors name the source, document, line:column, object and field, and every error of
// the input is reported (one per line), not only the first. On error nothing is built.
#ifndef VCSCHED_IO_SCENARIO_H_
#define VCSCHED_IO_SCENARIO_H_

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/snapshot.h"
#include "vcsched/policy.h"
#include "vcsched/storage.h"
#include "vcsched/value.h"

namespace vcsched {

// The expected outcome of a test case (FORMAT.md "Expectation"). Absent keys are not
// checked.
struct Expectation {
  std::string source;
  bool has_binds = false;
  std::map<std::string, std::vector<std::string>> binds;  // pod -> allowed nodes
  std::optional<int64_t> bind_count;
  std::optional<std::vector<std::string>> evictions;
  std::optional<int64_t> eviction_count;
  Labels pod_group_phases;  // "namespace/name" -> phase
  // The new binds grouped by the lowest-tier HyperNode of their node, one count per
  // group, in any order (docs/FORMAT-hypernode.md).
  std::optional<std::vector<int64_t>> hyper_node_bind_counts;
  // Per bound pod, exactly the annotations its bind carries (Bind::annotations); `{}`
  // asks for none.
  std::map<std::string, Labels> bind_annotations;
};

struct Scenario {
  Snapshot snapshot;
  std::optional<SchedulerConfig> config;  // defaults applied
  std::optional<Expectation> expectation;
  std::vector<std::string> warnings;      // fields seen but not supported, duplicates merged
  std::vector<Value> volcano_jobs;        // ScenarioObjects::volcano_jobs
};

// The objects of scenario files, read and checked as LoadScenario reads them, before a
// snapshot is built of them (Volcano Jobs are expanded into their PodGroup and pods).
struct ScenarioObjects {
  std::vector<NodeSpec> nodes;
  std::deque<PodSpec> pods;
  std::vector<PodGroupSpec> pod_groups;
  std::vector<QueueSpec> queues;
  std::vector<PriorityClassSpec> priority_classes;
  std::vector<NamespaceSpec> namespaces;
  std::vector<HyperNodeSpec> hyper_nodes;
  std::vector<PersistentVolumeClaimSpec> claims;
  std::vector<PersistentVolumeSpec> volumes;
  std::vector<StorageClassSpec> storage_classes;
  std::vector<CSINodeSpec> csi_nodes;
  std::vector<ResourceQuotaSpec> quotas;
  std::vector<PodDisruptionBudgetSpec> disruption_budgets;
  std::vector<NodeShardSpec> node_shards;
  std::vector<NumatopologySpec> numatopologies;
  std::optional<SchedulerConfig> config;  // defaults applied
  std::optional<Expectation> expectation;
  // "namespace/name" of each PodGroup a Volcano Job was expanded into (its pods name it).
  std::vector<std::string> job_pod_groups;
  // The Volcano Jobs, as given (admitted, not defaulted): a Cluster keeps them so that
  // its state prints them as Jobs. A Job whose PodGroup the input also holds made
  // nothing: its controller had acted, and the input holds its current PodGroup and pods.
  std::vector<Value> volcano_jobs;
  std::vector<std::string> warnings;
};

struct ScenarioSource {
  std::string name;  // shown in messages, e.g. the file path
  std::string text;
  // Text the caller keeps alive for the call, read instead of `text` when set (a
  // memory-mapped file, say), so that it is never copied. `readable_past_end` is how
  // many bytes after it may be read: the JSON reader reads up to 64 bytes beyond the
  // last one, and copies the text when fewer are readable.
  absl::string_view borrowed_text = {};
  size_t readable_past_end = 0;
};

struct LoadOptions {
  // How pods, groups and queues are resolved. Default: SnapshotOptions{}.
  SnapshotOptions snapshot;
  // Largest accepted input in bytes. Default: 256 MiB.
  size_t max_bytes = size_t{256} << 20;
  // Deepest accepted nesting of YAML collections. Default: 200.
  int max_depth = 200;
  // Node label keys, widest domain first: HyperNodes are discovered from the nodes'
  // labels as Volcano's label discoverer makes them (vcsched/hyper_node_discovery.h)
  // and added to those of the input. Default: none.
  std::vector<std::string> hyper_node_labels;
  // Threads that may parse YAML documents, the caller's included: with more than one,
  // the loader starts the others for the length of the call (a stream of many documents
  // loads up to that many times faster; what it reads is the same). Default: 1 (no
  // thread is started).
  int threads = 1;
};

// Reads every document of every source into one scenario.
absl::StatusOr<Scenario> LoadScenario(const std::vector<ScenarioSource>& sources,
                                      const LoadOptions& options = {});
// The same, consuming the sources: their text is released before the snapshot is built,
// which lowers peak memory for large inputs.
absl::StatusOr<Scenario> LoadScenario(std::vector<ScenarioSource>&& sources, const LoadOptions& options = {});

// Reads every document of every source into objects, without building a snapshot.
absl::StatusOr<ScenarioObjects> LoadObjects(const std::vector<ScenarioSource>& sources,
                                            const LoadOptions& options = {});

// Reads one object held as a Value tree (a manifest built or changed in memory), as
// LoadObjects reads a document: a Volcano Job comes back as its PodGroup and pods.
// `where` names it in messages.
absl::StatusOr<ScenarioObjects> ReadObjectValue(const Value& object, const std::string& where);
// Reads a scheduler configuration: a plain volcano-scheduler.conf, a
// `kind: SchedulerConfiguration` document, or a ConfigMap holding volcano-scheduler.conf.
// Fields read but not applied (`nodeSelector`) are appended to `warnings` when given.
absl::StatusOr<SchedulerConfig> LoadSchedulerConfig(const ScenarioSource& source,
                                                    std::vector<std::string>* warnings = nullptr);

// Compares decisions with an expectation; returns the differences ("bind c1/p1: expected
// n1, got n2"), empty when they agree. hyperNodeBindCounts needs the snapshot the
// decisions were made on (a difference says so without it).
std::vector<std::string> CompareWithExpectation(const Decisions& decisions, const Expectation& expectation,
                                                const Snapshot* snapshot = nullptr);

}  // namespace vcsched

#endif  // VCSCHED_IO_SCENARIO_H_
