// Kubernetes and Volcano objects from YAML or JSON documents.
#ifndef VCSCHED_SRC_IO_K8S_READER_H_
#define VCSCHED_SRC_IO_K8S_READER_H_

#include "src/io/yaml_reader.h"
#include "vcsched/objects.h"

namespace vcsched::io_internal {

NodeSpec ReadNode(ObjectReader& r, const DocNode& doc);
PodSpec ReadPod(ObjectReader& r, const DocNode& doc);
PodGroupSpec ReadPodGroup(ObjectReader& r, const DocNode& doc);
QueueSpec ReadQueue(ObjectReader& r, const DocNode& doc);
PriorityClassSpec ReadPriorityClass(ObjectReader& r, const DocNode& doc);

// metadata.namespace/name for messages and keys ("default" when no namespace).
std::string ObjectKey(const DocNode& doc, bool namespaced);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_K8S_READER_H_
