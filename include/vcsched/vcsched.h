// Umbrella header: the whole public core API (the YAML loader is io/scenario.h).
#ifndef VCSCHED_VCSCHED_H_
#define VCSCHED_VCSCHED_H_

#include "vcsched/action.h"
#include "vcsched/arguments.h"
#include "vcsched/cluster.h"
#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/explain.h"
#include "vcsched/fit.h"
#include "vcsched/hyper_node_discovery.h"
#include "vcsched/objects.h"
#include "vcsched/plugin.h"
#include "vcsched/quantity.h"
#include "vcsched/registry.h"
#include "vcsched/resource.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"
#include "vcsched/snapshot.h"
#include "vcsched/statement.h"
#include "vcsched/version.h"

#endif  // VCSCHED_VCSCHED_H_
