// A watch event's Pod is read by a shorter route than a file's documents (ReadPlainPod in
// the loader), which hands anything it would have to report to the general reading.
// Both must agree: the same pod, the same warnings, the same error, word for word.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tests/testing/read_outcome.h"
#include "vcsched/io/manifests.h"
#include "vcsched/io/scenario.h"

namespace vcsched {
namespace {

// A pod document with `fields` added to its metadata, spec and status.
std::string Pod(const std::string& meta, const std::string& spec, const std::string& status,
                const std::string& head = R"("apiVersion": "v1", "kind": "Pod")") {
  return absl::StrCat("{", head, R"(, "metadata": {"name": "p1", "namespace": "ns1")", meta,
                      R"(}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}])",
                      spec, R"(}, "status": {"phase": "Pending")", status, "}}");
}

TEST_CASE("One pod read alone agrees with the same pod read as a file's document", "[io][loader]") {
  const std::vector<std::string> docs = {
      Pod("", "", ""),
      Pod(R"(, "uid": "u1", "labels": {"a": "b", "n": null}, "annotations": {"scheduling.k8s.io/group-name": "g"})",
          R"(, "schedulerName": "volcano", "nodeName": "n1", "priority": 5, "priorityClassName": "high")",
          R"(, "nominatedNodeName": "n2")"),
      Pod(R"(, "creationTimestamp": "2026-01-02T03:04:05Z", "deletionTimestamp": "2026-01-02T03:05:00Z")", "", ""),
      Pod(R"(, "ownerReferences": [{"uid": "o1", "controller": true}, {"uid": "o2"}])", "", ""),
      Pod("", R"(, "nodeSelector": {"zone": "a"}, "tolerations": [{"key": "k", "operator": "Exists"}])", ""),
      Pod("", R"(, "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "zone"}]}})", ""),
      Pod("", R"(, "affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": ""}]}})", ""),
      Pod("", R"(, "initContainers": [{"name": "i", "restartPolicy": "Always", "resources": {"limits": {"cpu": "2"}}}])", ""),
      Pod("", R"(, "overhead": {"cpu": "100m"}, "schedulingGates": [{"name": "x"}], "hostNetwork": true)", ""),
      Pod("", R"(, "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "c"}}])", ""),
      Pod("", R"(, "volumes": [{"name": "v", "ephemeral": {"volumeClaimTemplate": {}}}])", ""),
      Pod("", R"(, "initContainers": [{"name": "i", "resources": {"claims": [{"name": "gpu"}]}}])", ""),
      Pod("", R"(, "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": 7}}])", ""),
      Pod("", R"(, "initContainers": [{"name": "i", "ports": [{"containerPort": 80, "hostPort": 80, "protocol": "SCTP"}]}])", ""),
      Pod("", R"(, "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}])", ""),
      Pod("", R"(, "unknownField": {"deep": [1, 2]})", R"(, "conditions": [{"type": "x"}])"),
      Pod("", "", "", R"("apiVersion": "v1/extra", "kind": "Pod")"),
      // What must be refused, each its own way.
      Pod("", R"(, "priority": "high")", ""),
      Pod("", R"(, "priority": 4294967296)", ""),
      Pod(R"(, "creationTimestamp": "yesterday")", "", ""),
      Pod(R"(, "labels": {"a": {"b": "c"}})", "", ""),
      Pod("", R"(, "tolerations": [{"key": "k", "operator": "Within"}])", ""),
      Pod("", R"(, "overhead": {"cpu": "lots"})", ""),
      Pod("", R"(, "overhead": {"cpu": "-1"})", ""),
      Pod("", "", "", R"("apiVersion": "v2", "kind": "Pod")"),
      Pod("", "", "", R"("apiVersion": "v1", "kind": ["Pod"])"),
      Pod("", "", "", R"("apiVersion": "v1", "kind": "Pods")"),
      Pod("", "", "", R"("kind": "Pod")"),
  };
  std::vector<std::string> names = {R"("name": "p1")", R"("name": "")", R"("name": "bad\nname")",
                                    absl::StrCat(R"("name": ")", std::string(254, 'a'), "\"")};
  std::vector<std::string> all = docs;
  for (size_t i = 1; i < names.size(); ++i) {
    all.push_back(absl::StrReplaceAll(docs[1], {{names[0], names[i]}}));
  }
  all.push_back(absl::StrReplaceAll(docs[0], {{R"("namespace": "ns1")", R"("namespace": "NS_1")"}}));
  all.push_back(absl::StrReplaceAll(docs[0], {{R"("namespace": "ns1")", R"("namespace": 7)"}}));
  all.push_back(absl::StrReplaceAll(docs[0], {{R"("phase": "Pending")", R"("phase": "Sleeping")"}}));
  all.push_back(absl::StrReplaceAll(docs[0], {{R"("containers": [)", R"("containers": "none", "x": [)"}}));
  int refused = 0, warned = 0;
  for (const std::string& doc : all) {
    INFO(doc);
    absl::StatusOr<std::vector<Manifest>> manifests = LoadManifests({{"pod.json", doc}});
    REQUIRE(manifests.ok());
    REQUIRE(manifests->size() == 1);
    const Manifest& m = manifests->front();
    const std::string alone = testing::ReadOutcome(ReadObjectValue(m.object, m.where));
    const std::string in_file = testing::ReadOutcome(LoadObjects({{"pod.json", doc}}));
    CHECK(alone == in_file);
    refused += alone.rfind("error: ", 0) == 0;
    warned += alone.rfind("warning: ", 0) == 0;
  }
  // The list covers both sides of the route: pods it reads, and pods it hands over.
  CHECK(refused >= 15);
  CHECK(warned >= 2);
}

}  // namespace
}  // namespace vcsched
