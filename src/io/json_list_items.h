// The items of a `kubectl get -o json` listing, found without building the whole
// document: simdjson's On-Demand pass walks the top-level object and returns where each
// item's text is, so that the items can be parsed one at a time into a small DOM that
// stays in cache (and a 100 MB listing does not need a 100 MB tape).
#ifndef VCSCHED_SRC_IO_JSON_LIST_ITEMS_H_
#define VCSCHED_SRC_IO_JSON_LIST_ITEMS_H_

#include <optional>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace vcsched::io_internal {

// The text of each item when `text` is exactly one JSON object whose "kind" is "List",
// whose "apiVersion", if any, is a string, and whose one "items" field is an array of
// objects; every other top-level field must be valid JSON, and nothing may follow the
// object. Anything else (another shape, or JSON this pass cannot vouch for) gives
// nullopt: the caller then reads the text whole, which reports what is wrong. The
// items' own text is not validated here: each is parsed on its own afterwards.
std::optional<std::vector<std::string_view>> JsonListItems(simdjson::padded_string_view text, size_t max_depth);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_JSON_LIST_ITEMS_H_
