#include "vcsched/lifecycle/admit.h"

#include <algorithm>

#include "vcsched/lifecycle/jobflow.h"

namespace vcsched::lifecycle {

namespace {

bool ApiGroup(const std::string& api_version, const char* group) {
  const std::string prefix = std::string(group) + "/";
  return api_version.rfind(prefix, 0) == 0;
}

}  // namespace

VolcanoJob AdmitJobDocument(const Value& doc, const AdmissionContext& context, Findings* findings) {
  VolcanoJob job = ReadJob(doc, findings);
  MutateJob(job, context);
  findings->Append(ValidateJob(job, context));
  return job;
}

Findings AdmitJobUpdate(const Value& old_doc, const Value& new_doc) {
  Findings f;
  const VolcanoJob old_job = ReadJob(old_doc, &f);
  const VolcanoJob new_job = ReadJob(new_doc, &f);
  if (f.ok()) f.Append(ValidateJobUpdate(old_job, new_job));
  return f;
}

std::optional<Findings> AdmitObject(const std::string& api_version, const std::string& kind, const Value& object,
                                    const AdmissionContext& context, const std::vector<VolcanoQueue>& queues,
                                    const TimeZoneResolver& zones) {
  const bool batch = ApiGroup(api_version, "batch.volcano.sh");
  const bool sched = ApiGroup(api_version, "scheduling.volcano.sh") || ApiGroup(api_version, "scheduling.incubator.k8s.io");
  const bool flow = ApiGroup(api_version, "flow.volcano.sh");
  Findings f;
  if (kind == "Job" && batch) {
    AdmitJobDocument(object, context, &f);
  } else if (kind == "CronJob" && batch) {
    VolcanoCronJob cron = ReadCronJob(object, &f);
    f.Append(ValidateCronJob(cron, zones));
  } else if (kind == "Queue" && sched) {
    VolcanoQueue q = ReadQueue(object, &f);
    MutateQueue(q);
    f.Append(ValidateQueue(q, queues));
  } else if (kind == "PodGroup" && sched) {
    f.Append(ValidatePodGroup(object, context));
  } else if (kind == "Pod" && api_version == "v1") {
    f.Append(ValidatePod(object, context));
  } else if (kind == "JobFlow" && flow) {
    VolcanoJobFlow jf = ReadJobFlow(object, &f);
    f.Append(ValidateJobFlow(jf));
  } else if (kind == "JobTemplate" && flow) {
    const Value* spec = object.Find("spec");
    VolcanoJob job = ReadJobSpec(spec != nullptr ? *spec : Value::Map(), "spec", ReadObjectMeta(object, &f), &f);
    MutateJob(job, context);
    f.Append(ValidateJob(job, context));
  } else {
    return std::nullopt;
  }
  return f;
}

std::vector<VolcanoQueue> ClusterQueues(const std::vector<const Value*>& queue_objects) {
  std::vector<VolcanoQueue> queues(2);
  queues[0].metadata.name = "root";
  queues[1].metadata.name = "default";
  for (const Value* doc : queue_objects) {
    Findings ignored;
    VolcanoQueue q = ReadQueue(*doc, &ignored);
    MutateQueue(q);
    queues.erase(std::remove_if(queues.begin(), queues.end(),
                                [&](const VolcanoQueue& e) { return e.metadata.name == q.metadata.name; }),
                 queues.end());
    queues.push_back(std::move(q));
  }
  return queues;
}

}  // namespace vcsched::lifecycle
