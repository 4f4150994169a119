// Turns a session's records, at close, into Explain's answer (docs/EXPLAIN.md).
#ifndef VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_
#define VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_

#include <functional>

#include "absl/strings/string_view.h"
#include "vcsched/explain.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// Every job's explanation (those `explain_job` says yes to, when set) and every queue's
// view, from an explaining session at close.
Explanation AssembleExplanation(const Session& ssn,
                                const std::function<bool(absl::string_view job_key)>& explain_job = nullptr);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_
