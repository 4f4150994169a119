// The session's side of Explain: the combined questions' bookkeeping while explaining
// (session.cc calls these only when the session keeps an ExplainLog).
#ifndef VCSCHED_SRC_FRAMEWORK_SESSION_EXPLAIN_H_
#define VCSCHED_SRC_FRAMEWORK_SESSION_EXPLAIN_H_

#include <cstddef>
#include <string>
#include <utility>

#include "vcsched/session.h"

namespace vcsched::internal {

// Makes the log a session keeps while explaining.
void StartExplaining(Session& ssn, bool keep_by_node = false);

// JobEnqueueable while explaining: the vote as usual; a refused job keeps what its
// plugins recorded, or gets a record naming the plugin that voted against it.
bool ExplainedEnqueueable(const Session& ssn, JobIndex j);
// Allocatable while explaining, the same way for a refused task's job.
bool ExplainedAllocatable(const Session& ssn, QueueIndex q, TaskIndex t);
// A JobValid failure, recorded as NotEnoughTasks.
void NoteInvalidJob(const Session& ssn, JobIndex j, const std::string& plugin,
                    const std::pair<std::string, std::string>& reason);
// An Overused queue without a plugin's own record gets one naming the plugin.
void NoteOverusedQueue(const Session& ssn, QueueIndex q, const std::string& plugin);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_FRAMEWORK_SESSION_EXPLAIN_H_
