// Turns a session's records, at close, into Explain's answer (docs/EXPLAIN.md).
#ifndef VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_
#define VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_

#include <string>
#include <vector>

#include "vcsched/explain.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// Every job's explanation (or only those of `jobs`, when given) and every queue's view,
// from an explaining session at close.
Explanation AssembleExplanation(const Session& ssn, const std::vector<std::string>* jobs = nullptr);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_EXPLAIN_ASSEMBLE_H_
