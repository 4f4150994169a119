// Prints a random property-test scenario and its decisions: describe_random_scenario SEED
#include <iostream>
#include "tests/testing/random_scenario.h"
#include "vcsched/scheduler.h"
using namespace vcsched;
int main(int argc, char** argv) {
  testing::Choices c(std::stoull(argv[1]));
  auto sc = testing::MakeRandomScenario(c);
  auto snap = sc.Build();
  std::cout << sc.config.ToYaml();
  for (auto& q : snap.queues()) std::cout << "queue " << q.spec.name << " w" << q.spec.weight << " cap " << q.capability.ToString(snap.space()) << " parent=" << q.spec.parent << " state=" << q.spec.state << "\n";
  for (auto& j : snap.jobs()) std::cout << "job " << j.key << " min " << j.pod_group.min_member << " q " << (j.queue>=0? snap.queues()[j.queue].spec.name : "-") << " phase " << j.pod_group.phase << " prio " << j.priority << "\n";
  for (auto& t : snap.tasks()) std::cout << "task " << t.key << " " << TaskStatusName(t.status) << " node " << t.node << " req " << t.resreq.ToString(snap.space()) << "\n";
  auto d = RunSession(snap, sc.config);
  std::cout << d->ToString();
}
