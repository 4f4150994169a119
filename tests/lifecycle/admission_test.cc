#include <catch2/catch.hpp>

#include "tests/lifecycle/test_manifests.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/jobflow.h"

namespace vcsched::lifecycle {
namespace {

using testing::LifecycleData;
using testing::ManifestFromText;
using testing::Manifests;

Findings AdmitJob(const Value& doc, const AdmissionContext& context = {}) {
  Findings f;
  AdmitJobDocument(doc, context, &f);
  return f;
}

bool HasError(const Findings& f, const std::string& field, const std::string& fragment) {
  for (const Violation& v : f.errors) {
    if (v.field == field && v.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("Volcano's invalid_jobs are rejected with Volcano's reasons") {
  struct Case {
    const char* file;
    const char* field;
    const char* fragment;
  } cases[] = {
      {"invalid_jobs/duplicatedPolicyEvent-webhook-deny.yaml", "spec.policies[1].event",
       "duplicate event PodFailed  across different policy"},
      {"invalid_jobs/duplicatedTaskName-webhook-deny.yaml", "spec.tasks[1].name", "duplicated task name task-1;"},
      {"invalid_jobs/minAvailable-webhook-deny.yaml", "spec.minAvailable",
       "job 'minAvailable' should not be greater than total replicas in tasks;"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    std::vector<Manifest> m = Manifests(LifecycleData(std::string("volcano-examples/") + c.file));
    REQUIRE(m.size() == 1);
    const Findings f = AdmitJob(m[0].object);
    CHECK_FALSE(f.ok());
    CHECK(HasError(f, c.field, c.fragment));
  }
}

TEST_CASE("every valid Volcano object in the examples and the seeds is accepted") {
  int checked = 0;
  for (const std::string& dir : {"volcano-examples", "seed-examples"}) {
    for (const std::string& file : testing::YamlFiles(dir)) {
      if (file.find("invalid_jobs") != std::string::npos) continue;
      const std::vector<Manifest> all = Manifests(file);
      std::vector<const Value*> queue_objects;
      for (const Manifest& m : all) {
        if (m.kind == "Queue") queue_objects.push_back(&m.object);
      }
      const std::vector<VolcanoQueue> queues = ClusterQueues(queue_objects);
      for (const Manifest& m : all) {
        INFO(m.where << " " << m.kind);
        const std::optional<Findings> f = AdmitObject(m.api_version, m.kind, m.object, {}, queues);
        if (!f) continue;
        ++checked;
        for (const Violation& v : f->errors) UNSCOPED_INFO(v.field << ": " << v.message);
        CHECK(f->ok());
      }
    }
  }
  CHECK(checked >= 50);
}

TEST_CASE("admission reports every violation of a job, each with its field") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: Bad_Name}
spec:
  minAvailable: 9
  plugins: {nosuch: []}
  policies:
  - {event: PodFailed, exitCode: 3, action: RestartJob}
  volumes:
  - {mountPath: /data}
  tasks:
  - name: a
    replicas: 1
    minAvailable: 2
    template: {spec: {containers: [{name: c, image: busybox}]}}
    policies: [{event: NoSuchEvent, action: RestartJob}]
  - name: b
    replicas: 1
    dependsOn: {name: [c]}
    template: {spec: {containers: [{name: c, image: busybox}]}}
)");
  REQUIRE(m.size() == 1);
  const Findings f = AdmitJob(m[0].object);
  CHECK(HasError(f, "spec.tasks[0].minAvailable", "'minAvailable' is greater than 'replicas' in task: a"));
  CHECK(HasError(f, "spec.tasks[0].policies[0].event", "invalid policy event"));
  CHECK(HasError(f, "spec.policies[0]", "must not specify event and exitCode simultaneously"));
  CHECK(HasError(f, "spec.plugins.nosuch", "unable to find job plugin: nosuch;"));
  CHECK(HasError(f, "spec.volumes[0]", "either VolumeClaim or VolumeClaimName must be specified;"));
  CHECK(HasError(f, "spec.minAvailable", "should not be greater than total replicas"));
  CHECK(HasError(f, "metadata.name", "a lowercase RFC 1123 subdomain"));
  CHECK(HasError(f, "spec.tasks", "doesn't form a directed acyclic graph(DAG)"));
  CHECK(f.errors.size() >= 8);
}

TEST_CASE("restartPolicy OnFailure with an exitCode policy is accepted with a warning naming both") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: retry}
spec:
  policies:
  - {exitCode: 137, action: RestartJob}
  tasks:
  - name: a
    replicas: 1
    template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}}
  - name: b
    replicas: 1
    template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}
)");
  REQUIRE(m.size() == 1);
  const Findings f = AdmitJob(m[0].object);
  CHECK(f.ok());
  int lint = 0;
  for (const Violation& w : f.warnings) {
    CAPTURE(w.field, w.message);
    if (w.message.find("can never fire") == std::string::npos) continue;
    ++lint;
    CHECK(w.field == "spec.tasks[0].template.spec.restartPolicy");
    CHECK(w.message.find("exitCode 137 policy in spec.policies can never fire") != std::string::npos);
  }
  CHECK(lint == 1);  // task b (restartPolicy Never) is fine
}

TEST_CASE("a job name too long for its pod names is rejected") {
  const std::string name(60, 'j');
  const auto m = ManifestFromText("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: " + name +
                                  "}, spec: {tasks: [{name: t, replicas: 1, template: {spec: {containers: "
                                  "[{name: c, image: i}]}}}]}}");
  const Findings f = AdmitJob(m.at(0).object);
  CHECK(HasError(f, "spec.tasks[0].name", "create pod with name " + name + "-t-0 validate failed"));
}

TEST_CASE("mutation applies Volcano's defaults in order") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  plugins: {mpi: []}
  tasks:
  - replicas: 2
    template: {spec: {hostNetwork: true, containers: [{name: c, image: i}]}}
  - name: worker
    replicas: 3
    minAvailable: 1
    template: {spec: {containers: [{name: c, image: i}]}}
)");
  Findings f;
  VolcanoJob job = ReadJob(m[0].object, &f);
  MutateJob(job, {});
  CHECK(job.queue == "default");
  CHECK(job.scheduler_name == "volcano");
  CHECK(job.max_retry == 3);
  CHECK(job.tasks[0].name == "default0");
  CHECK(job.tasks[0].min_available == 2);
  CHECK(job.tasks[1].min_available == 1);
  CHECK(job.min_available == 3);
  CHECK(FindPath(job.tasks[0].pod_template, "spec.dnsPolicy")->text() == "ClusterFirstWithHostNet");
  CHECK(job.HasPlugin("svc"));
  CHECK(job.HasPlugin("ssh"));
  // The mpi master task ("master" by default) is missing: rejected.
  CHECK(HasError(ValidateJob(job, {}), "spec.plugins.mpi", "The specified mpi master task was not found"));
}

TEST_CASE("policy rules") {
  auto policies = [](std::vector<LifecyclePolicy> p) { return ValidatePolicies(p, "spec"); };
  CHECK(policies({{{"*"}, "RestartJob", {}, {}}, {{"PodFailed"}, "AbortJob", {}, {}}}).errors.at(0).message.find(
            "if there's * here, no other policy should be here") == 0);
  CHECK(policies({{{}, "RestartJob", 0, {}}}).errors.at(0).message.find("0 is not a valid error code") == 0);
  CHECK(policies({{{}, "RestartJob", 137, {}}, {{}, "AbortJob", 137, {}}}).errors.at(0).message.find(
            "duplicate exitCode 137") == 0);
  CHECK(policies({{{}, "", {}, {}}}).errors.at(0).message.find("either event and exitCode should be specified") == 0);
  CHECK(policies({{{"PodFailed"}, "Explode", {}, {}}}).errors.at(0).message.find("invalid policy action") == 0);
  CHECK(policies({{{"PodEvicted", "PodFailed"}, "RestartJob", {}, {}}, {{}, "RestartJob", 137, {}}}).ok());
}

TEST_CASE("job queue rules need the cluster's queues") {
  const auto m = ManifestFromText(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  queue: parent
  tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}]
)");
  AdmissionContext none;
  Findings unknown = AdmitJob(m[0].object, none);
  CHECK(unknown.ok());
  CHECK(unknown.warnings.size() == 1);
  AdmissionContext cluster;
  cluster.queues.emplace(3);
  (*cluster.queues)[0].metadata.name = "root";
  (*cluster.queues)[1].metadata.name = "parent";
  (*cluster.queues)[1].state = "Closed";
  (*cluster.queues)[2].metadata.name = "child";
  (*cluster.queues)[2].parent = "parent";
  const Findings f = AdmitJob(m[0].object, cluster);
  CHECK(HasError(f, "spec.queue", "can only submit job to queue with state `Open`, queue `parent` status is `Closed`;"));
  CHECK(HasError(f, "spec.queue", "can only submit job to leaf queue, queue `parent` has 1 child queues;"));
  (*cluster.queues).pop_back();
  (*cluster.queues).erase(cluster.queues->begin() + 1);
  CHECK(HasError(AdmitJob(m[0].object, cluster), "spec.queue", "unable to find job queue"));
}

TEST_CASE("pod-template problems are warnings, or errors when strict") {
  std::vector<Manifest> m = Manifests(LifecycleData("seed-examples/000-job-distributed-mnist.yaml"));
  REQUIRE(m.size() == 1);
  AdmissionContext lenient;
  const Findings f = AdmitJob(m[0].object, lenient);
  CHECK(f.ok());
  CHECK_FALSE(f.warnings.empty());
  AdmissionContext strict;
  strict.strict_pod_templates = true;
  const Findings g = AdmitJob(m[0].object, strict);
  CHECK(HasError(g, "spec.tasks[1].template.spec.containers", "Required value"));
  CHECK(HasError(g, "spec.tasks[0].template.spec.containers[0].name", "Required value"));
}

TEST_CASE("queue admission and the queue state machine") {
  auto queue = [](const std::string& text) {
    Findings f;
    VolcanoQueue q = ReadQueue(ManifestFromText(text).at(0).object, &f);
    MutateQueue(q);
    return q;
  };
  VolcanoQueue bad = queue(R"(
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q}
spec: {capability: {cpu: "4"}, deserved: {cpu: "8"}, guarantee: {resource: {cpu: "10"}}}
status: {state: Sleeping}
)");
  const Findings f = ValidateQueue(bad, {});
  CHECK(HasError(f, "spec.deserved.cpu", "deserved[cpu]=8 must be <= capability[cpu]=4"));
  CHECK(HasError(f, "spec.deserved.cpu", "deserved[cpu]=8 must be >= guarantee[cpu]=10"));
  CHECK(HasError(f, "status.state", "queue state must be in [Open Closed]"));
  CHECK(bad.weight == 1);
  CHECK(bad.reclaimable == true);
  VolcanoQueue orphan = queue("{apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: o}, spec: {parent: nope}}");
  CHECK(HasError(ValidateQueue(orphan, {}), "spec.parent", "parent queue nope does not exist"));
  CHECK_FALSE(ValidateQueueDelete(queue("{kind: Queue, metadata: {name: default}}"), {}).ok());
  CHECK(NextQueueState("Open", "CloseQueue", true) == "Closing");
  CHECK(NextQueueState("Open", "CloseQueue", false) == "Closed");
  CHECK(NextQueueState("Closing", "SyncQueue", false) == "Closed");
  CHECK(NextQueueState("Closed", "OpenQueue", false) == "Open");
  CHECK(NextQueueState("Unknown", "SyncQueue", true) == "Unknown");
}

TEST_CASE("job updates may change only minAvailable, replicas and priorityClassName") {
  const std::string base = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: u}
spec:
  minAvailable: 2
  priorityClassName: low
  tasks:
  - {name: t, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
)";
  const Value old_doc = ManifestFromText(base).at(0).object;
  auto update = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    text.replace(text.find(from), from.size(), to);
    return AdmitJobUpdate(old_doc, ManifestFromText(text).at(0).object);
  };
  CHECK(update("replicas: 2", "replicas: 5").ok());
  CHECK(update("priorityClassName: low", "priorityClassName: high").ok());
  CHECK(HasError(update("image: i", "image: j"), "spec", "job updates may not change fields other than"));
  CHECK(HasError(update("minAvailable: 2", "minAvailable: 3"), "spec.minAvailable",
                 "job 'minAvailable' must not be greater than total replicas"));
  CHECK(HasError(update("replicas: 2", "replicas: -1"), "spec.tasks[0].replicas", "'replicas' must be >= 0 in task: t"));
  CHECK(HasError(update("  - {name: t", "  - {name: x, replicas: 1, template: {}}\n  - {name: t"), "spec.tasks",
                 "job updates may not add or remove tasks"));
}

TEST_CASE("pod and PodGroup admission") {
  const auto pod = [](const std::string& annotations) {
    return ManifestFromText("{apiVersion: v1, kind: Pod, metadata: {name: p, annotations: " + annotations +
                            "}, spec: {schedulerName: volcano, containers: [{name: c, image: i}]}}")
        .at(0)
        .object;
  };
  CHECK(ValidatePod(pod("{volcano.sh/jdb-min-available: \"2\"}"), {}).ok());
  CHECK(ValidatePod(pod("{volcano.sh/jdb-max-unavailable: \"30%\"}"), {}).ok());
  CHECK(HasError(ValidatePod(pod("{volcano.sh/jdb-max-unavailable: \"100%\"}"), {}),
                 "metadata.annotations.volcano.sh/jdb-max-unavailable", "between 1% and 99%"));
  CHECK(HasError(ValidatePod(pod("{volcano.sh/jdb-min-available: \"1\", volcano.sh/jdb-max-unavailable: \"1\"}"), {}),
                 "metadata.annotations", "not allow configure multiple annotations"));
  Value other = pod("{volcano.sh/jdb-min-available: \"0\"}");
  other["spec"].Set("schedulerName", Value::String("default-scheduler"));
  CHECK(ValidatePod(other, {}).ok());  // not Volcano's pod

  Value pg = ManifestFromText("{apiVersion: scheduling.volcano.sh/v1beta1, kind: PodGroup, metadata: {name: g}, "
                              "spec: {minMember: 1, queue: default, networkTopology: {mode: hard, "
                              "highestTierAllowed: 1, highestTierName: x}}}")
                 .at(0)
                 .object;
  MutatePodGroup(pg, {{"scheduling.volcano.sh/queue-name", "team-a"}});
  CHECK(FindPath(pg, "spec.queue")->text() == "team-a");
  AdmissionContext cluster;
  cluster.queues = ClusterQueues({});
  const Findings f = ValidatePodGroup(pg, cluster);
  CHECK(HasError(f, "spec.queue", "unable to find queue"));
  CHECK(HasError(f, "spec.networkTopology", "must not specify 'highestTierAllowed' and 'highestTierName'"));
}

TEST_CASE("regression (job_fuzz): a queue that is its own parent does not hang admission") {
  std::vector<VolcanoQueue> qs(2);
  qs[0].metadata.name = "a";
  qs[0].parent = "a";
  qs[1].metadata.name = "b";
  qs[1].parent = "c";
  VolcanoQueue c;
  c.metadata.name = "c";
  c.parent = "b";  // b -> c -> b
  c.weight = 1;
  c.capability["cpu"] = "4";
  qs.push_back(c);
  CHECK(HasError(ValidateQueue(qs[0], qs), "spec.parent", "cannot use itself as parent"));
  CHECK_NOTHROW(ValidateQueue(c, qs));  // returns: the cycle is not walked forever
}

TEST_CASE("queue actions cascade through the hierarchy") {
  std::vector<VolcanoQueue> qs(4);
  qs[0].metadata.name = "root";
  qs[1].metadata.name = "eng";
  qs[2].metadata.name = "ml";
  qs[2].parent = "eng";
  qs[3].metadata.name = "infra";
  qs[3].parent = "eng";
  qs[3].state = "Closed";  // closed on its own: stays closed when eng reopens
  absl::StatusOr<std::vector<QueueStateChange>> closed = ApplyQueueAction(qs, "eng", "CloseQueue", {{"ml", 2}});
  REQUIRE(closed.ok());
  REQUIRE(closed->size() == 2);
  CHECK((*closed)[0].queue == "eng");
  CHECK((*closed)[0].to == "Closed");
  CHECK((*closed)[1].queue == "ml");
  CHECK((*closed)[1].to == "Closing");  // it still has PodGroups
  CHECK((*closed)[1].by_parent);
  CHECK_FALSE(ApplyQueueAction(qs, "ml", "OpenQueue", {}).ok());  // parent is Closed
  absl::StatusOr<std::vector<QueueStateChange>> opened = ApplyQueueAction(qs, "eng", "OpenQueue", {});
  REQUIRE(opened.ok());
  CHECK(opened->size() == 2);
  CHECK(qs[2].state == "Open");
  CHECK(qs[3].state == "Closed");
  CHECK_FALSE(ApplyQueueAction(qs, "nope", "OpenQueue", {}).ok());
  CHECK_FALSE(ApplyQueueAction(qs, "eng", "Explode", {}).ok());
}

TEST_CASE("names follow Kubernetes' rules") {
  CHECK(QualifiedNameProblems("job-task-0").empty());
  CHECK_FALSE(QualifiedNameProblems(std::string(64, 'a')).empty());
  CHECK_FALSE(QualifiedNameProblems("-bad").empty());
  CHECK(Dns1123LabelProblems("worker").empty());
  CHECK_FALSE(Dns1123LabelProblems("Worker").empty());
  CHECK(Dns1123SubdomainProblems("a.b-c").empty());
}

}  // namespace
}  // namespace vcsched::lifecycle
