// A Cluster to and from scenario text.
#ifndef VCSCHED_IO_CLUSTER_IO_H_
#define VCSCHED_IO_CLUSTER_IO_H_

#include <string>

#include "vcsched/cluster.h"
#include "absl/status/status.h"
#include "vcsched/config.h"
#include "vcsched/io/scenario.h"

namespace vcsched {

// The whole state as scenario text: every object as a Kubernetes manifest (Volcano Jobs
// as they were given, followed by the PodGroups and pods of the state) and, when
// `config` is given, a SchedulerConfiguration document. LoadObjects reads it back to the
// same objects (PutObjects makes the same cluster of them): a Job whose PodGroup is in
// the text makes nothing when read. A Job whose PodGroup the state lacks is made again.
std::string ClusterToYaml(const Cluster& cluster, const SchedulerConfig* config = nullptr);

// Every object of the cluster, copied, as LoadObjects would have read them: PutObjects
// makes the same cluster of them (what a simulation or an estimate starts from).
ScenarioObjects ClusterObjects(const Cluster& cluster);

// Puts every object into `cluster` (queues, priority classes and namespaces first, pods
// last); the first refusal is returned, naming the object, after the rest were tried.
absl::Status PutObjects(ScenarioObjects& objects, Cluster& cluster);

}  // namespace vcsched

#endif  // VCSCHED_IO_CLUSTER_IO_H_
