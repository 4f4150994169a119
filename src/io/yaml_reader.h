// Typed reading of yaml-cpp nodes with error collection. Every failure is recorded
// with its place ("case.yaml: document 3, line 12:5: Pod \"c1/p1\": spec.priority:
// expected an integer, got \"high\"") and reading goes on, so one pass reports all.
#ifndef VCSCHED_SRC_IO_YAML_READER_H_
#define VCSCHED_SRC_IO_YAML_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "absl/strings/string_view.h"
#include "src/io/doc_node.h"
#include "src/io/field_path.h"
#include "vcsched/arguments.h"
#include "vcsched/objects.h"

namespace vcsched::io_internal {

struct Diagnostics {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

// Where a document is, for messages: "case.yaml: document 3", or with `item`
// "case.json: document 1, items[12]" (an object of a List). Put together only when a
// message needs it; `document` must outlive every use.
struct Place {
  const std::string* document = nullptr;
  int64_t item = -1;
  // A document a Volcano Job's controller makes (its PodGroup and pods), not one of the
  // input's: `document` is then the Job's own label, one per Job.
  bool made_for_job = false;
  std::string str() const;
};

// Reads fields of one object. `where` is "source: document N" and `object` names it.
class ObjectReader {
 public:
  // `line_offset` is added to yaml-cpp's line numbers (the document's first line in the
  // source when documents are parsed one at a time).
  ObjectReader(Diagnostics* diag, std::string where, std::string object, int line_offset = 0)
      : diag_(diag), where_(std::move(where)), object_(std::move(object)), line_offset_(line_offset) {}
  ObjectReader(Diagnostics* diag, Place where, int line_offset)
      : diag_(diag), place_(where), line_offset_(line_offset) {}

  // The object errors are reported against; an absurdly long label (a huge name) is cut
  // so that messages stay readable.
  void set_object(std::string object);
  // The same as set_object(kind + " \"" + ObjectKey(doc, namespaced) + "\""), put
  // together only for a message.
  void set_object(const char* kind, const DocNode& doc, bool namespaced);
  void Fail(const DocNode& at, const FieldPath& field, absl::string_view message);
  // A problem that names its object and field itself (ObjectProblems), placed at `at`.
  void FailPlaced(const DocNode& at, absl::string_view problem);
  void Warn(const FieldPath& field, absl::string_view message);
  size_t error_count() const { return diag_->errors.size(); }

  // Each returns nullopt when the key is absent or null, and records an error (also
  // returning nullopt) when the value has the wrong shape. `field` is the path for
  // messages, e.g. "spec.minMember".
  std::optional<std::string> String(const DocNode& parent, const char* key, const FieldPath& field);
  std::optional<int64_t> Int(const DocNode& parent, const char* key, const FieldPath& field);
  // An int32 field of the Kubernetes API: a value outside its range is an error.
  std::optional<int32_t> Int32(const DocNode& parent, const char* key, const FieldPath& field);
  std::optional<bool> Bool(const DocNode& parent, const char* key, const FieldPath& field);
  // A map node (nullopt-like: an undefined node when absent).
  DocNode Map(const DocNode& parent, const char* key, const FieldPath& field);
  DocNode List(const DocNode& parent, const char* key, const FieldPath& field);
  // A map of strings (labels, annotations, nodeSelector).
  Labels StringMap(const DocNode& parent, const char* key, const FieldPath& field);
  // A Kubernetes ResourceList, converted to stored units.
  ResourceList Resources(const DocNode& parent, const char* key, const FieldPath& field);
  // A ResourceList under every name, in quota units (QuotaList: ResourceQuota, minResources).
  QuotaList Quotas(const DocNode& parent, const char* key, const FieldPath& field);
  // An RFC 3339 time as seconds since the epoch, 0 when absent.
  int64_t Time(const DocNode& parent, const char* key, const FieldPath& field);

  // The same for a value already looked up (DocNode::Fields): an undefined or null
  // value is absent.
  std::optional<std::string> AsString(const DocNode& value, const FieldPath& field);
  // AsString(...).value_or(absent) written into *out, without the optional's copies: a
  // pod's reading sets a dozen strings this way.
  void AsStringInto(const DocNode& value, const FieldPath& field, absl::string_view absent, std::string* out);
  std::optional<int64_t> AsInt(const DocNode& value, const FieldPath& field);
  std::optional<int32_t> AsInt32(const DocNode& value, const FieldPath& field);
  std::optional<bool> AsBool(const DocNode& value, const FieldPath& field);
  DocNode AsMap(const DocNode& value, const FieldPath& field);
  DocNode AsList(const DocNode& value, const FieldPath& field);
  Labels AsStringMap(const DocNode& value, const FieldPath& field);
  ResourceList AsResources(const DocNode& value, const FieldPath& field);
  int64_t AsTime(const DocNode& value, const FieldPath& field);
  // A scalar Kubernetes reads as a number or a boolean, where the field is a string:
  // reported (the API server refuses it) and true.
  bool NotAString(const DocNode& value, const FieldPath& field);

 private:
  std::string Where() const { return place_.document != nullptr ? place_.str() : where_; }
  std::string Object() const;

  Diagnostics* diag_;
  std::string where_;
  Place place_;  // used instead of where_ when it names a document
  std::string object_;
  const char* object_kind_ = nullptr;  // with object_doc_: the label, put together lazily
  DocNode object_doc_;
  bool object_namespaced_ = false;
  int line_offset_;
};

// parent[key], or a valid undefined node when parent is not a map or lacks the key
// (yaml-cpp's own lookup returns an invalid node that throws on use).
YAML::Node Get(const YAML::Node& parent, const char* key);
// Splits a multi-document stream at its document markers ("---" or "..." starting a
// line), so that each document can be parsed, read and dropped in turn. Each piece
// keeps its first line number (0-based).
struct DocumentText {
  absl::string_view text;
  int first_line;
};
// The same, one piece at a time (a stream of millions of tiny documents is not held
// as a list of its pieces).
class DocumentSplitter {
 public:
  explicit DocumentSplitter(absl::string_view stream) : stream_(stream) {}
  // The next piece; false when there is none left.
  bool Next(DocumentText* piece);

 private:
  absl::string_view stream_;
  size_t pos_ = 0;         // the next line to look at
  size_t start_ = 0;       // where the current piece began
  int line_ = 0;           // pos_'s line
  int start_line_ = 0;     // start_'s line
  bool done_ = false;
};
std::vector<DocumentText> SplitDocuments(absl::string_view stream);
// metadata.namespace/name for messages and keys ("default" when no namespace).
std::string ObjectKey(const DocNode& doc, bool namespaced);
// The scalar text of a node, or "a map" / "a list" / "null".
std::string Describe(const DocNode& node);
// Parses `text` once without building nodes, under a budget of documents and events,
// and returns false (with `why`) when it runs out: yaml-cpp 0.7 loops forever on some
// malformed input (a document that starts with ','), so LoadAll runs only after this.
bool YamlParsesWithinBudget(const std::string& text, std::string* why);
// Byte offset of the first invalid UTF-8 sequence or control character YAML and JSON
// text may not hold (all of C0 but tab, line feed and carriage return, and DEL), or -1.
int64_t FirstInvalidUtf8(absl::string_view text);
// "invalid UTF-8 at byte 12 (line 2, column 3)" or "a control character (0x13) at ...":
// what FirstInvalidUtf8 found at `offset`.
std::string DescribeInvalidByte(absl::string_view text, int64_t offset);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_YAML_READER_H_
