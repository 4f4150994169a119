#include "src/io/json_documents.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <simdjson.h>
#include "absl/strings/str_cat.h"
#include "src/io/doc_node.h"
#include "src/io/expansion_limits.h"
#include "src/io/json_stream_parser.h"
#include "src/io/value_yaml.h"

namespace vcsched::io_internal {

bool LooksLikeJson(absl::string_view text) {
  const size_t at = text.find_first_not_of(" \t\r\n");
  return at != absl::string_view::npos && (text[at] == '{' || text[at] == '[');
}

namespace {

// `e` as a Value: strings stay strings; numbers and booleans are plain, in the spelling
// the object readers give them (DocNode::Scalar). False past the budget.
bool JsonToValue(simdjson::dom::element e, Value* out, int64_t* budget) {
  if (--*budget < 0) return false;
  switch (e.type()) {
    case simdjson::dom::element_type::OBJECT: {
      *out = Value::Map();
      for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e)) {
        Value child;
        if (!JsonToValue(kv.value, &child, budget)) return false;
        out->entries().emplace_back(std::string(kv.key), std::move(child));
      }
      return true;
    }
    case simdjson::dom::element_type::ARRAY: {
      *out = Value::List();
      for (simdjson::dom::element item : simdjson::dom::array(e)) {
        Value child;
        if (!JsonToValue(item, &child, budget)) return false;
        out->Push(std::move(child));
      }
      return true;
    }
    case simdjson::dom::element_type::NULL_VALUE:
      *out = Value::Null();
      return true;
    case simdjson::dom::element_type::STRING:
      *out = Value::String(std::string(std::string_view(e)));
      return true;
    default:
      *out = Value::Plain(DocNode(e).Scalar());
      return true;
  }
}

// A document as a Value, or why it is not one (a repeated key, as the loader refuses it).
JsonDocument ReadOne(simdjson::dom::element e, int number) {
  JsonDocument d;
  d.number = number;
  if (std::string path, key; DocNode(e).FindDuplicateJsonKey(&path, &key)) {
    d.error = absl::StrCat(path.empty() ? "" : absl::StrCat(path, ": "), "duplicate key \"", key, "\"");
    return d;
  }
  int64_t budget = kMaxManifestValues;
  if (!JsonToValue(e, &d.value, &budget)) {
    d.value = Value();
    d.error = absl::StrCat("the document holds more than ", kMaxManifestValues, " values");
  }
  return d;
}

}  // namespace

std::optional<std::vector<JsonDocument>> ReadJsonStream(absl::string_view text) {
  const simdjson::padded_string copy(text.data(), text.size());
  simdjson::dom::parser parser;
  const size_t batch = PrepareStreamParser(parser, text.size(), static_cast<size_t>(kMaxValueDepth));
  if (batch == 0) return std::nullopt;
  simdjson::dom::document_stream stream;
  if (parser.parse_many(copy, batch).get(stream) != simdjson::SUCCESS) return std::nullopt;
  std::vector<JsonDocument> out;
  int number = 0;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    simdjson::dom::element doc;
    if ((*it).get(doc) != simdjson::SUCCESS) return std::nullopt;
    if (doc.is_array()) {
      for (simdjson::dom::element item : simdjson::dom::array(doc)) {
        ++number;
        if (!item.is_null()) out.push_back(ReadOne(item, number));
      }
    } else if (++number; !doc.is_null()) {
      out.push_back(ReadOne(doc, number));
    }
  }
  if (stream.truncated_bytes() > 0) return std::nullopt;  // parse_many stops quietly before it
  return out;
}

}  // namespace vcsched::io_internal
