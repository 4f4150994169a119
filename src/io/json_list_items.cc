#include "src/io/json_list_items.h"

#include <utility>

namespace vcsched::io_internal {
namespace {

namespace od = simdjson::ondemand;

// Whether a top-level field other than the items is valid JSON: its text is parsed
// on its own (fields next to the items are few and small: apiVersion, kind, metadata).
bool ValidField(od::value value, simdjson::dom::parser& check) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return false;
  std::string_view raw;
  simdjson::error_code error = simdjson::SUCCESS;
  if (type == od::json_type::object) {
    od::object o;
    error = value.get_object().get(o);
    if (error == simdjson::SUCCESS) error = o.raw_json().get(raw);
  } else if (type == od::json_type::array) {
    od::array a;
    error = value.get_array().get(a);
    if (error == simdjson::SUCCESS) error = a.raw_json().get(raw);
  } else {
    raw = value.raw_json_token();
  }
  simdjson::dom::element ignored;
  // The text lies inside the padded input, so reading past its end is allowed.
  return error == simdjson::SUCCESS && check.parse(raw.data(), raw.size(), false).get(ignored) == simdjson::SUCCESS;
}

}  // namespace

std::optional<std::vector<std::string_view>> JsonListItems(simdjson::padded_string_view text, size_t max_depth) {
  od::parser parser;
  if (parser.allocate(text.length(), max_depth + 1) != simdjson::SUCCESS) return std::nullopt;
  od::document doc;
  od::object top;
  if (parser.iterate(text).get(doc) != simdjson::SUCCESS || doc.get_object().get(top) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  simdjson::dom::parser check;  // a field's value sits one level below the root
  if (check.allocate(size_t{1} << 12, max_depth) != simdjson::SUCCESS) return std::nullopt;
  std::vector<std::string_view> items;
  bool seen_kind = false, seen_api = false, seen_items = false;
  for (auto entry : top) {
    od::field field;
    std::string_view key;
    if (std::move(entry).get(field) != simdjson::SUCCESS || field.unescaped_key().get(key) != simdjson::SUCCESS) {
      return std::nullopt;
    }
    od::value value = field.value();
    if (key == "kind" || key == "apiVersion") {
      bool& seen = key == "kind" ? seen_kind : seen_api;
      std::string_view s;
      if (seen || value.get_string().get(s) != simdjson::SUCCESS) return std::nullopt;
      if (key == "kind" && s != "List") return std::nullopt;
      seen = true;
    } else if (key == "items") {
      od::array array;
      if (seen_items || value.get_array().get(array) != simdjson::SUCCESS) return std::nullopt;
      seen_items = true;
      for (auto element : array) {
        od::object item;
        std::string_view raw;
        if (element.get_object().get(item) != simdjson::SUCCESS || item.raw_json().get(raw) != simdjson::SUCCESS) {
          return std::nullopt;
        }
        items.push_back(raw);
      }
    } else if (!ValidField(value, check)) {
      return std::nullopt;
    }
  }
  // Nothing may follow the object (the pass stops at its end otherwise).
  const char* rest = nullptr;
  if (!seen_kind || !seen_items || doc.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) return std::nullopt;
  return items;
}

}  // namespace vcsched::io_internal
