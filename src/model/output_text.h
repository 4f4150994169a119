// Text helpers shared by the output formats.
#ifndef VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_
#define VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_

#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace vcsched {

// `s` as a double-quoted JSON string: quotes, backslashes and control bytes escaped.
// Also a valid YAML double-quoted scalar.
std::string JsonQuote(absl::string_view s);

// `s` as it may stand inside one line of a text output: every control character (line
// feeds, carriage returns, escape sequences; C0, DEL and C1) written as \n, \r, \t or \xNN
// (\u00NN for C1), so that no text from the input can start a line of its own or drive a
// terminal. Everything else, backslashes and UTF-8 included, is kept.
std::string Printable(absl::string_view s);

// `s` as XML or HTML character data or attribute value: & < > " ' escaped, and every
// character XML 1.0 forbids (control characters but tab, line feed and carriage return;
// bytes that are not UTF-8) replaced by U+FFFD, so that a document holding any name stays
// well-formed.
std::string XmlText(absl::string_view s);

// `s` as one CSV cell (RFC 4180): quoted where it holds a comma, quote or line break, and
// a cell a spreadsheet would read as a formula (starting with = + - @, tab or carriage
// return) is prefixed with an apostrophe and quoted (the usual CSV-injection rule).
std::string CsvCell(absl::string_view s);

// A task key "namespace/name" as (namespace, name); a key without a slash is in "default".
std::pair<absl::string_view, absl::string_view> SplitTaskKey(absl::string_view key);

}  // namespace vcsched

#endif  // VCSCHED_SRC_MODEL_OUTPUT_TEXT_H_
