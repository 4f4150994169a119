#include "src/actions/actions.h"

namespace vcsched::internal {

void RegisterBuiltInActions(Registry& r) {
  // A fresh registry cannot collide, so the statuses are known to be OK.
  (void)r.RegisterAction("enqueue", NewEnqueueAction);
  (void)r.RegisterAction("allocate", NewAllocateAction);
  (void)r.RegisterAction("backfill", NewBackfillAction);
  (void)r.RegisterAction("preempt", NewPreemptAction);
  (void)r.RegisterAction("reclaim", NewReclaimAction);
  (void)r.RegisterAction("shuffle", NewShuffleAction);
  (void)r.RegisterAction("gangpreempt", NewGangPreemptAction);
  (void)r.RegisterAction("gangreclaim", NewGangReclaimAction);
}

}  // namespace vcsched::internal
