// Explain's output forms: JSON with the field names docs/EXPLAIN.md fixes, and text.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "src/model/output_text.h"
#include "vcsched/explain.h"

namespace vcsched {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// A double the same way on every machine: up to six significant digits.
std::string Number(double v) { return absl::StrFormat("%.6g", v); }

std::string StringObject(const Pairs& pairs) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : pairs) parts.push_back(absl::StrCat(JsonQuote(k), ": ", JsonQuote(v)));
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

std::string StringList(const std::vector<std::string>& items) {
  std::vector<std::string> parts;
  for (const std::string& s : items) parts.push_back(JsonQuote(s));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

std::string JobJson(const JobExplanation& e) {
  std::vector<std::string> nodes;
  for (const auto& [cause, count] : e.nodes) nodes.push_back(absl::StrCat(JsonQuote(cause), ": ", count));
  std::vector<std::string> by_node;
  for (const auto& [node, causes] : e.node_causes) by_node.push_back(absl::StrCat(JsonQuote(node), ": ", StringList(causes)));
  std::vector<std::string> hints;
  for (const Hint& h : e.hints) {
    hints.push_back(absl::StrCat("{\"kind\": ", JsonQuote(h.kind), ", \"change\": ", JsonQuote(h.change),
                                 ", \"target\": ", JsonQuote(h.target), ", \"amount\": ", h.amount, "}"));
  }
  return absl::StrCat("    {\"job\": ", JsonQuote(e.job), ", \"volcanoJob\": ", JsonQuote(e.volcano_job),
                      ", \"queue\": ", JsonQuote(e.queue),
                      ", \"stage\": ", JsonQuote(e.stage), ", \"reason\": ", JsonQuote(e.reason),
                      ",\n     \"causes\": ", StringList(e.causes), ", \"message\": ", JsonQuote(e.message),
                      ",\n     \"minMember\": ", e.min_member, ", \"pods\": ", e.pods, ", \"placed\": ", e.placed,
                      ", \"pipelined\": ", e.pipelined, ", \"fit\": ", e.fit,
                      ",\n     \"check\": ", StringObject(e.check), ",\n     \"nodesPod\": ", JsonQuote(e.nodes_task),
                      ", \"nodes\": {", absl::StrJoin(nodes, ", "), "}, \"nodeVerdicts\": {", absl::StrJoin(by_node, ", "),
                      "},\n     \"hints\": [", absl::StrJoin(hints, ", "), "]",
                      e.eta.empty() ? "" : absl::StrCat(", \"eta\": ", JsonQuote(e.eta)), "}");
}

std::string QueueJson(const QueueView& q) {
  return absl::StrCat("    {\"name\": ", JsonQuote(q.name), ", \"state\": ", JsonQuote(q.state), ", \"weight\": ", q.weight,
                      ", \"parent\": ", JsonQuote(q.parent), ", \"plugin\": ", JsonQuote(q.plugin),
                      ",\n     \"deserved\": ", StringObject(q.deserved), ", \"allocated\": ", StringObject(q.allocated),
                      ",\n     \"capability\": ", StringObject(q.capability), ", \"guarantee\": ", StringObject(q.guarantee),
                      ", \"inqueue\": ", StringObject(q.inqueue), ", \"share\": ", Number(q.share), "}");
}

std::string QueuesJsonList(const std::vector<QueueView>& queues) {
  std::vector<std::string> parts;
  for (const QueueView& q : queues) parts.push_back(QueueJson(q));
  return absl::StrCat("[\n", absl::StrJoin(parts, ",\n"), queues.empty() ? "" : "\n", "  ]");
}

std::string Amounts(const Pairs& pairs) {
  if (pairs.empty()) return "-";
  std::vector<std::string> parts;
  for (const auto& [k, v] : pairs) parts.push_back(absl::StrCat(Printable(k), "=", Printable(v)));
  return absl::StrJoin(parts, " ");
}

// The text forms print every field through Printable: nothing from the input starts a line.
std::string QueueText(const QueueView& q) {
  return absl::StrCat("queue ", Printable(q.name), " (", Printable(q.state), ", weight ", q.weight,
                      q.parent.empty() ? "" : ", parent ", Printable(q.parent), q.plugin.empty() ? "" : ", by ",
                      Printable(q.plugin), ")\n", "  deserved:   ", Amounts(q.deserved),
                      "\n  allocated:  ", Amounts(q.allocated), "\n  capability: ", Amounts(q.capability),
                      "\n  guarantee:  ", Amounts(q.guarantee), "\n  inqueue:    ", Amounts(q.inqueue),
                      "\n  share:      ", Number(q.share), "\n");
}

}  // namespace

std::string ExplanationToJson(const Explanation& explanation) {
  std::vector<std::string> jobs;
  for (const JobExplanation& e : explanation.jobs) jobs.push_back(JobJson(e));
  return absl::StrCat("{\n  \"jobs\": [\n", absl::StrJoin(jobs, ",\n"), explanation.jobs.empty() ? "" : "\n",
                      "  ],\n  \"queues\": ", QueuesJsonList(explanation.queues),
                      ",\n  \"podsOfOtherSchedulers\": ", explanation.other_scheduler_pods, "\n}\n");
}

std::string ExplanationToText(const Explanation& explanation) {
  std::string out;
  for (const JobExplanation& e : explanation.jobs) {
    const std::string who = e.volcano_job.empty() || e.volcano_job == e.job
                                ? absl::StrCat("job ", Printable(e.job), " (queue ", Printable(e.queue), ")")
                                : absl::StrCat("job ", Printable(e.volcano_job), " (Volcano Job; PodGroup ",
                                               Printable(e.job), ", queue ", Printable(e.queue), ")");
    absl::StrAppend(&out, who, ": ", Printable(e.reason),
                    e.stage.empty() ? "" : " at ", Printable(e.stage), "\n  ", Printable(e.message), "\n  pods ",
                    e.pods, ", minMember ", e.min_member, ", placed ", e.placed, ", pipelined ", e.pipelined, ", fit ",
                    e.fit, "\n");
    if (e.causes.size() > 1) {
      std::vector<std::string> causes;
      for (const std::string& c : e.causes) causes.push_back(Printable(c));
      absl::StrAppend(&out, "  causes: ", absl::StrJoin(causes, ", "), "\n");
    }
    if (!e.check.empty()) absl::StrAppend(&out, "  check: ", Amounts(e.check), "\n");
    if (!e.nodes.empty()) {
      absl::StrAppend(&out, "  nodes for ", Printable(e.nodes_task), ":\n");
      for (const auto& [cause, count] : e.nodes) absl::StrAppend(&out, "    ", count, " ", Printable(cause), "\n");
    }
    for (const Hint& h : e.hints) absl::StrAppend(&out, "  hint (", Printable(h.kind), "): ", Printable(h.change), "\n");
    if (!e.eta.empty()) absl::StrAppend(&out, "  eta: ", Printable(e.eta), "\n");
  }
  for (const QueueView& q : explanation.queues) absl::StrAppend(&out, QueueText(q));
  if (explanation.other_scheduler_pods > 0) {
    absl::StrAppend(&out, "note: ", explanation.other_scheduler_pods,
                    " pending pod(s) left out: another scheduler serves their schedulerName (for example ",
                    Printable(explanation.other_scheduler_example), ")\n");
  }
  return out;
}

std::string QueuesToJson(const std::vector<QueueView>& queues) {
  return absl::StrCat("{\n  \"queues\": ", QueuesJsonList(queues), "\n}\n");
}

std::string QueuesToText(const std::vector<QueueView>& queues) {
  std::string out;
  for (const QueueView& q : queues) absl::StrAppend(&out, QueueText(q));
  return out;
}

std::string ScoresToJson(absl::string_view task, const std::vector<NodeScore>& scores) {
  std::vector<std::string> rows;
  for (const NodeScore& s : scores) {
    std::vector<std::string> parts;
    for (const auto& [plugin, v] : s.plugins) parts.push_back(absl::StrCat(JsonQuote(plugin), ": ", Number(v)));
    rows.push_back(absl::StrCat("    {\"node\": ", JsonQuote(s.node), ", \"plugins\": {", absl::StrJoin(parts, ", "),
                                "}, \"total\": ", Number(s.total), "}"));
  }
  return absl::StrCat("{\n  \"task\": ", JsonQuote(task), ",\n  \"nodes\": [\n", absl::StrJoin(rows, ",\n"),
                      scores.empty() ? "" : "\n", "  ]\n}\n");
}

std::string ScoresToText(absl::string_view task, const std::vector<NodeScore>& scores) {
  std::string out = absl::StrCat("scores for ", Printable(task), " (", scores.size(), " feasible nodes)\n");
  for (const NodeScore& s : scores) {
    std::vector<std::string> parts;
    for (const auto& [plugin, v] : s.plugins) parts.push_back(absl::StrCat(Printable(plugin), "=", Number(v)));
    absl::StrAppend(&out, "  ", Printable(s.node), "  total ", Number(s.total), "  ", absl::StrJoin(parts, " "), "\n");
  }
  return out;
}

}  // namespace vcsched
