#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "absl/strings/escaping.h"
#include "tests/lifecycle/test_manifests.h"
#include "vcsched/io/scenario.h"
#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/expand.h"
#include "vcsched/lifecycle/job_simulator.h"
#include "vcsched/quantity.h"
#include "vcsched/scheduler.h"

namespace vcsched::lifecycle {
namespace {

using testing::LifecycleData;
using testing::ManifestFromText;
using testing::Manifests;

VolcanoJob Admitted(const Value& doc) {
  Findings f;
  VolcanoJob job = ReadJob(doc, &f);
  MutateJob(job, {});
  f.Append(ValidateJob(job, {}));
  REQUIRE(f.ok());
  return job;
}

ExpandOptions FixedKeys() {
  ExpandOptions o;
  o.ssh_keys = [](const VolcanoJob&) -> absl::StatusOr<SshKeyPair> { return SshKeyPair{"PRIVATE", "PUBLIC"}; };
  return o;
}

const Value* FindObject(const Expansion& e, const std::string& kind, const std::string& name) {
  for (const Value* v : e.All()) {
    if (v->Find("kind")->text() == kind && FindPath(*v, "metadata.name")->text() == name) return v;
  }
  return nullptr;
}

std::string EnvOf(const Value& pod, const std::string& var) {
  for (const Value& c : FindPath(pod, "spec")->Find("containers")->items()) {
    const Value* env = c.Find("env");
    for (size_t i = 0; env != nullptr && i < env->size(); ++i) {
      const Value& e = env->items()[i];
      if (e.Find("name")->text() != var) continue;
      if (const Value* v = e.Find("value")) return v->text();
      return "<from " + FindPath(e, "valueFrom.configMapKeyRef.key")->text() + ">";
    }
  }
  return "";
}

TEST_CASE("job-plugin.yaml expands to Volcano's objects") {
  const VolcanoJob job = Admitted(Manifests(LifecycleData("volcano-examples/job-plugin.yaml")).at(0).object);
  absl::StatusOr<Expansion> e = ExpandJob(job, FixedKeys());
  REQUIRE(e.ok());
  // PodGroup
  const Value& pg = e->pod_group;
  CHECK(FindPath(pg, "metadata.name")->text() == PodGroupNameOf(job));
  CHECK(FindPath(pg, "spec.minMember")->text() == "3");
  CHECK(FindPath(pg, "spec.minTaskMember.default-nginx")->text() == "3");
  CHECK(FindPath(pg, "spec.queue")->text() == "default");
  CHECK(FindPath(pg, "spec.minResources.cpu")->text() == "3");
  CHECK(FindPath(pg, "spec.minResources.pods")->text() == "3");
  // Pods
  REQUIRE(e->pods.size() == 3);
  const Value& pod = e->pods[1];
  CHECK(FindPath(pod, "metadata.name")->text() == "test-job-plugin-default-nginx-1");
  CHECK(FindPath(pod, "metadata.annotations")->Find("scheduling.k8s.io/group-name")->text() == PodGroupNameOf(job));
  CHECK(FindPath(pod, "metadata.annotations")->Find("volcano.sh/task-spec")->text() == "default-nginx");
  CHECK(FindPath(pod, "metadata.labels")->Find("volcano.sh/job-name")->text() == "test-job-plugin");
  CHECK(FindPath(pod, "spec.schedulerName")->text() == "volcano");
  CHECK(FindPath(pod, "spec.hostname")->text() == "test-job-plugin-default-nginx-1");
  CHECK(FindPath(pod, "spec.subdomain")->text() == "test-job-plugin");
  // env plugin
  CHECK(EnvOf(pod, "VC_TASK_INDEX") == "1");
  CHECK(EnvOf(pod, "VK_TASK_INDEX") == "1");
  // svc plugin: hosts ConfigMap, env from it, mount at /etc/volcano
  const Value* cm = FindObject(*e, "ConfigMap", "test-job-plugin-svc");
  REQUIRE(cm != nullptr);
  CHECK(FindPath(*cm, "data")->Find("default-nginx.host")->text() ==
        "test-job-plugin-default-nginx-0.test-job-plugin\ntest-job-plugin-default-nginx-1.test-job-plugin\n"
        "test-job-plugin-default-nginx-2.test-job-plugin\n");
  CHECK(FindPath(*cm, "data")->Find("VC_DEFAULT_NGINX_NUM")->text() == "3");
  CHECK(EnvOf(pod, "VC_DEFAULT_NGINX_HOSTS") == "<from VC_DEFAULT_NGINX_HOSTS>");
  CHECK(FindObject(*e, "Service", "test-job-plugin") != nullptr);
  CHECK(FindPath(*FindObject(*e, "Service", "test-job-plugin"), "spec.clusterIP")->text() == "None");
  CHECK(FindObject(*e, "NetworkPolicy", "test-job-plugin") != nullptr);
  // ssh plugin: the Secret's layout and the mount at the configured key path
  const Value* secret = FindObject(*e, "Secret", "test-job-plugin-ssh");
  REQUIRE(secret != nullptr);
  std::string decoded;
  REQUIRE(absl::Base64Unescape(FindPath(*secret, "data")->Find("authorized_keys")->text(), &decoded));
  CHECK(decoded == "PUBLIC");
  REQUIRE(absl::Base64Unescape(FindPath(*secret, "data")->Find("config")->text(), &decoded));
  CHECK(decoded.find("Host test-job-plugin-default-nginx-2\n  HostName test-job-plugin-default-nginx-2.test-job-plugin\n  Port 22") !=
        std::string::npos);
  bool mounted = false;
  for (const Value& m : FindPath(pod, "spec")->Find("containers")->items()[0].Find("volumeMounts")->items()) {
    mounted = mounted || m.Find("mountPath")->text() == "/home/user/.ssh";
  }
  CHECK(mounted);
}

TEST_CASE("expansion without a key source fails for ssh, and is deterministic") {
  const VolcanoJob job = Admitted(Manifests(LifecycleData("volcano-examples/job.yaml")).at(0).object);
  CHECK_FALSE(ExpandJob(job, {}).ok());
  absl::StatusOr<Expansion> a = ExpandJob(job, FixedKeys()), b = ExpandJob(job, FixedKeys());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(ToYaml(a->All()) == ToYaml(b->All()));
}

TEST_CASE("framework plugins: mpi, pytorch and tensorflow environment") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: pt}
spec:
  plugins: {pytorch: ["--master=master", "--worker=worker", "--port=23456"]}
  tasks:
  - {name: master, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: worker, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
)");
  absl::StatusOr<Expansion> e = ExpandJob(Admitted(m.at(0).object), FixedKeys());
  REQUIRE(e.ok());
  REQUIRE(e->pods.size() == 3);
  CHECK(EnvOf(e->pods[0], "MASTER_ADDR") == "pt-master-0.pt");
  CHECK(EnvOf(e->pods[0], "RANK") == "0");
  CHECK(EnvOf(e->pods[2], "RANK") == "2");
  CHECK(EnvOf(e->pods[2], "WORLD_SIZE") == "3");
  CHECK(FindObject(*e, "Service", "pt") != nullptr);  // pytorch implies svc

  const VolcanoJob tf = Admitted(Manifests(LifecycleData("seed-examples/004-job-tensorflow-ps.yaml")).at(0).object);
  absl::StatusOr<Expansion> t = ExpandJob(tf, FixedKeys());
  REQUIRE(t.ok());
  bool has_tf_config = false;
  for (const Value& p : t->pods) has_tf_config = has_tf_config || !EnvOf(p, "TF_CONFIG").empty();
  CHECK(has_tf_config == tf.HasPlugin("tensorflow"));

  const auto mpi = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: m}
spec:
  plugins: {mpi: ["--master=head", "--worker=w"]}
  tasks:
  - {name: head, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
  - {name: w, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
)");
  absl::StatusOr<Expansion> mp = ExpandJob(Admitted(mpi.at(0).object), FixedKeys());
  REQUIRE(mp.ok());
  CHECK(EnvOf(mp->pods[0], "MPI_HOST") == "m-w-0.m,m-w-1.m");
  CHECK(EnvOf(mp->pods[1], "MPI_HOST").empty());
  CHECK(FindObject(*mp, "Secret", "m-ssh") != nullptr);  // mpi implies ssh and svc
  CHECK(FindObject(*mp, "ConfigMap", "m-svc") != nullptr);
  CHECK(FindPath(mp->pods[1], "spec")->Find("containers")->items()[0].Find("ports")->items()[0].Find("containerPort")->text() == "22");
}

TEST_CASE("huge jobs are refused, huge quantities saturate") {
  const auto big = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: big}
spec:
  tasks: [{name: t, replicas: 2000000000, template: {spec: {containers: [{name: c, image: i}]}}}]
)");
  const VolcanoJob job = Admitted(big.at(0).object);
  absl::StatusOr<Expansion> e = ExpandJob(job, FixedKeys());
  REQUIRE_FALSE(e.ok());
  CHECK(std::string(e.status().message()).find("over the expansion limit of 100000") != std::string::npos);
  CHECK_FALSE(JobSimulator::Create(job, 0).ok());
  const auto heavy = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: heavy}
spec:
  tasks: [{name: t, replicas: 8, template: {spec: {containers: [{name: c, image: i, resources: {requests: {memory: 2Pi}}}]}}}]
)");
  absl::StatusOr<Expansion> h = ExpandJob(Admitted(heavy.at(0).object), FixedKeys());
  REQUIRE(h.ok());
  // 8 x 2Pi in milli-units is past int64: the sum stops at its largest value.
  const Value* memory = FindPath(h->pod_group, "spec.minResources.memory");
  REQUIRE(memory != nullptr);
  CHECK(memory->text() == FormatMilli(INT64_MAX));
}

TEST_CASE("minResources takes the first minAvailable pods, highest priority task first") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: mr}
spec:
  minAvailable: 3
  tasks:
  - name: low
    replicas: 4
    template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}
  - name: high
    replicas: 2
    template: {spec: {priorityClassName: high, containers: [{name: c, image: i, resources: {limits: {cpu: "2", memory: 2Gi}}}]}}
)");
  ExpandOptions o = FixedKeys();
  o.priority_classes["high"] = 1000;
  absl::StatusOr<Expansion> e = ExpandJob(Admitted(m.at(0).object), o);
  REQUIRE(e.ok());
  // 2 pods of "high" (limits taken as requests) + 1 pod of "low".
  CHECK(FindPath(e->pod_group, "spec.minResources.cpu")->text() == "5");
  CHECK(FindPath(e->pod_group, "spec.minResources.memory")->text() == "5Gi");
  CHECK(FindPath(e->pod_group, "spec.minResources")->Find("limits.cpu")->text() == "4");
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("every valid Job of the examples and seeds expands and schedules on the example cluster") {
  const std::string cluster = ReadText(std::string(VCSCHED_TEST_DATA_DIR) + "/../../examples/lifecycle/cluster.yaml");
  int jobs = 0;
  for (const std::string& dir : {"volcano-examples", "seed-examples"}) {
    for (const std::string& file : testing::YamlFiles(dir)) {
      if (file.find("invalid_jobs") != std::string::npos) continue;
      int in_file = 0;
      for (const Manifest& m : Manifests(file)) {
        if (m.kind != "Job" || m.api_version.rfind("batch.volcano.sh/", 0) != 0) continue;
        INFO(m.where);
        const VolcanoJob job = Admitted(m.object);
        absl::StatusOr<Expansion> e = ExpandJob(job, FixedKeys());
        REQUIRE(e.ok());
        CHECK(static_cast<int64_t>(e->pods.size()) == job.TotalReplicas());
        ++in_file;
      }
      if (in_file == 0) continue;
      jobs += in_file;
      // Queues the file's jobs name come from a neighbouring queues.yaml when there is one.
      std::vector<ScenarioSource> sources = {{"cluster.yaml", cluster}, {file, ReadText(file)}};
      const std::string queues = file.substr(0, file.rfind('/')) + "/queues.yaml";
      if (std::ifstream(queues).good() && queues != file) sources.push_back({queues, ReadText(queues)});
      absl::StatusOr<Scenario> sc = LoadScenario(sources);
      INFO(file);
      REQUIRE(sc.ok());
      absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
      REQUIRE(d.ok());
      // Every pod the controller has created by now (dependsOn holds some back) is bound,
      // but for a pod whose PersistentVolumeClaim the input lacks: Volcano's VolumeBinding
      // refuses it everywhere (persistentvolumeclaim "..." not found).
      std::set<std::string> bound;
      for (const Bind& b : d->binds) bound.insert(std::string(b.task));
      for (const TaskInfo& t : sc->snapshot.tasks()) {
        bool missing_claim = false;
        for (const PodVolumeClaim& v : t.pod->volume_claims) {
          missing_claim = missing_claim || !sc->snapshot.storage().claims.count(t.pod->namespace_ + "/" + v.claim);
        }
        INFO(t.key);
        CHECK(bound.count(t.key) == (missing_claim ? 0u : 1u));
      }
    }
  }
  CHECK(jobs >= 30);
}

TEST_CASE("in a scenario, pods of tasks waiting on dependsOn are not created yet") {
  const std::string file = LifecycleData("seed-examples/004-job-ci-pipeline.yaml");
  absl::StatusOr<Scenario> sc = LoadScenario({{file, ReadText(file)}});
  REQUIRE(sc.ok());
  REQUIRE(sc->snapshot.tasks().size() == 1);
  CHECK(sc->snapshot.tasks()[0].key == "default/ci-pipeline-lint-0");
  bool warned = false;
  for (const std::string& w : sc->warnings) {
    warned = warned || w.find("waiting on dependsOn are not created yet: unit-test, build-image") != std::string::npos;
  }
  CHECK(warned);
}

TEST_CASE("a scenario may hold Volcano Jobs: they are expanded and scheduled") {
  std::ifstream in(std::string(VCSCHED_TEST_DATA_DIR) + "/../../examples/lifecycle/cluster.yaml");
  std::stringstream cluster;
  cluster << in.rdbuf();
  std::ifstream jin(LifecycleData("volcano-examples/job.yaml"));
  std::stringstream job;
  job << jin.rdbuf();
  absl::StatusOr<Scenario> sc = LoadScenario({{"cluster.yaml", cluster.str()}, {"job.yaml", job.str()}});
  REQUIRE(sc.ok());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
  REQUIRE(d.ok());
  CHECK(d->binds.size() == 6);
  for (const auto& b : d->binds) CHECK(b.task.rfind("default/test-job-default-nginx-", 0) == 0);

  // A rejected job is an error naming the job and the field; nothing is built.
  std::ifstream bad(LifecycleData("volcano-examples/invalid_jobs/minAvailable-webhook-deny.yaml"));
  std::stringstream bad_text;
  bad_text << bad.rdbuf();
  absl::StatusOr<Scenario> rejected = LoadScenario({{"cluster.yaml", cluster.str()}, {"bad.yaml", bad_text.str()}});
  REQUIRE_FALSE(rejected.ok());
  CHECK(std::string(rejected.status().message()).find("Job \"default/test-job-webhook-disallow\"") != std::string::npos);
  CHECK(std::string(rejected.status().message()).find("spec.minAvailable") != std::string::npos);
}

}  // namespace
}  // namespace vcsched::lifecycle
