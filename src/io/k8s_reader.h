// Kubernetes and Volcano objects from YAML or JSON documents.
#ifndef VCSCHED_SRC_IO_K8S_READER_H_
#define VCSCHED_SRC_IO_K8S_READER_H_

#include "src/io/yaml_reader.h"
#include "vcsched/objects.h"
#include "vcsched/policy.h"
#include "vcsched/storage.h"

namespace vcsched::io_internal {

// Each fills a default-constructed spec in place (a pod's is large: not moved after).
void ReadNode(ObjectReader& r, const DocNode& doc, NodeSpec* out);
void ReadPod(ObjectReader& r, const DocNode& doc, PodSpec* out);
void ReadPodGroup(ObjectReader& r, const DocNode& doc, PodGroupSpec* out);
void ReadHyperNode(ObjectReader& r, const DocNode& doc, HyperNodeSpec* out);
void ReadQueue(ObjectReader& r, const DocNode& doc, QueueSpec* out);
void ReadPriorityClass(ObjectReader& r, const DocNode& doc, PriorityClassSpec* out);
void ReadPersistentVolumeClaim(ObjectReader& r, const DocNode& doc, PersistentVolumeClaimSpec* out);
void ReadPersistentVolume(ObjectReader& r, const DocNode& doc, PersistentVolumeSpec* out);
void ReadStorageClass(ObjectReader& r, const DocNode& doc, StorageClassSpec* out);
void ReadCSINode(ObjectReader& r, const DocNode& doc, CSINodeSpec* out);
void ReadResourceQuota(ObjectReader& r, const DocNode& doc, ResourceQuotaSpec* out);
void ReadPodDisruptionBudget(ObjectReader& r, const DocNode& doc, PodDisruptionBudgetSpec* out);
void ReadNodeShard(ObjectReader& r, const DocNode& doc, NodeShardSpec* out);
void ReadNumatopology(ObjectReader& r, const DocNode& doc, NumatopologySpec* out);

// Shapes several kinds share: string lists, selectors and node selector terms.
std::vector<std::string> StringList(ObjectReader& r, const DocNode& parent, const char* key, absl::string_view field);
std::vector<LabelSelectorRequirement> Requirements(ObjectReader& r, const DocNode& parent, const char* key,
                                                   absl::string_view field);
LabelSelector Selector(ObjectReader& r, const DocNode& node, absl::string_view field);
NodeSelectorTerm Term(ObjectReader& r, const DocNode& node, absl::string_view field);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_K8S_READER_H_
