// What admission found in an object: errors (Volcano's webhook would reject it) and
// warnings (accepted, but worth knowing). Each names the field it is about with a
// Kubernetes-style path such as `spec.tasks[1].policies[0].event`.
#ifndef VCSCHED_LIFECYCLE_FINDINGS_H_
#define VCSCHED_LIFECYCLE_FINDINGS_H_

#include <string>
#include <vector>

namespace vcsched::lifecycle {

struct Violation {
  std::string field;    // path inside the object; empty for the object as a whole
  std::string message;  // Volcano's wording where Volcano has one
};

struct Findings {
  std::vector<Violation> errors;
  std::vector<Violation> warnings;

  bool ok() const { return errors.empty(); }
  void Error(std::string field, std::string message) { errors.push_back({std::move(field), std::move(message)}); }
  void Warn(std::string field, std::string message) { warnings.push_back({std::move(field), std::move(message)}); }
  void Append(const Findings& other);
};

// One line per finding: `<object>: <field>: <message>` (warnings prefixed "warning: ").
std::string FormatFindings(const std::string& object, const Findings& findings);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_FINDINGS_H_
