#include "src/actions/actions.h"

namespace vcsched::internal {

void RegisterBuiltInActions(Registry& r) {
  // A fresh registry cannot collide, so the statuses are known to be OK.
  (void)r.RegisterAction("enqueue", NewEnqueueAction);
  (void)r.RegisterAction("allocate", NewAllocateAction);
  (void)r.RegisterAction("backfill", NewBackfillAction);
}

}  // namespace vcsched::internal
