#include "src/io/doc_node.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace vcsched::io_internal {

bool DocNode::IsDefined() const { return kind_ == kJson || (kind_ == kYaml && yaml_.IsDefined()); }

bool DocNode::IsNull() const {
  if (kind_ == kYaml) return yaml_.IsNull();
  return kind_ == kJson && json_.is_null();
}

bool DocNode::IsMap() const {
  if (kind_ == kYaml) return yaml_.IsMap();
  return kind_ == kJson && json_.is_object();
}

bool DocNode::IsSequence() const {
  if (kind_ == kYaml) return yaml_.IsSequence();
  return kind_ == kJson && json_.is_array();
}

bool DocNode::IsScalar() const {
  if (kind_ == kYaml) return yaml_.IsScalar();
  return kind_ == kJson && !json_.is_object() && !json_.is_array() && !json_.is_null();
}

std::string DocNode::Scalar() const {
  if (kind_ == kYaml) return yaml_.IsScalar() ? yaml_.Scalar() : std::string();
  if (kind_ != kJson) return "";
  std::string_view text;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  bool b = false;
  if (json_.get(text) == simdjson::SUCCESS) return std::string(text);
  if (json_.get(i) == simdjson::SUCCESS) return absl::StrCat(i);
  if (json_.get(u) == simdjson::SUCCESS) return absl::StrCat(u);
  if (json_.get(d) == simdjson::SUCCESS) return absl::StrFormat("%.17g", d);
  if (json_.get(b) == simdjson::SUCCESS) return b ? "true" : "false";
  return "";
}

size_t DocNode::size() const {
  if (kind_ == kYaml) return yaml_.IsMap() || yaml_.IsSequence() ? yaml_.size() : 0;
  if (kind_ != kJson) return 0;
  simdjson::dom::array arr;
  if (json_.get(arr) == simdjson::SUCCESS) return arr.size();
  simdjson::dom::object obj;
  if (json_.get(obj) == simdjson::SUCCESS) return obj.size();
  return 0;
}

DocNode DocNode::Get(const char* key) const {
  if (kind_ == kYaml) {
    if (!yaml_.IsMap()) return DocNode();
    const YAML::Node child = yaml_[key];
    return child.IsDefined() ? DocNode(child) : DocNode();
  }
  simdjson::dom::object obj;
  simdjson::dom::element child;
  if (kind_ != kJson || json_.get(obj) != simdjson::SUCCESS || obj.at_key(key).get(child) != simdjson::SUCCESS) {
    return DocNode();
  }
  return DocNode(child);
}

DocNode DocNode::operator[](size_t i) const {
  if (kind_ == kYaml) return yaml_.IsSequence() && i < yaml_.size() ? DocNode(yaml_[i]) : DocNode();
  simdjson::dom::array arr;
  simdjson::dom::element item;
  if (kind_ != kJson || json_.get(arr) != simdjson::SUCCESS || arr.at(i).get(item) != simdjson::SUCCESS) return DocNode();
  return DocNode(item);
}

std::string DocNode::Position(int line_offset) const {
  if (kind_ != kYaml || !yaml_.IsDefined()) return "";
  const YAML::Mark m = yaml_.Mark();
  if (m.line < 0) return "";
  return absl::StrCat("line ", m.line + 1 + line_offset, ":", m.column + 1);
}

YAML::Node DocNode::yaml() const {
  if (kind_ == kYaml) return yaml_;
  if (kind_ != kJson) return YAML::Node(YAML::NodeType::Undefined);
  return YAML::Load(simdjson::minify(json_));  // JSON is YAML
}

}  // namespace vcsched::io_internal
