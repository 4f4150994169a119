// Issue 57, class 3: names reach CSV and SVG/HTML outputs; no name may shift a CSV column,
// become a spreadsheet formula, or make a document ill-formed.
#include <catch2/catch.hpp>

#include "src/model/output_text.h"
#include "vcsched/decisions.h"

namespace vcsched {
namespace {

TEST_CASE("CSV cells: RFC 4180 quoting and the CSV-injection rule", "[output]") {
  CHECK(CsvCell("nvidia.com/gpu") == "nvidia.com/gpu");
  CHECK(CsvCell("a,b") == "\"a,b\"");
  CHECK(CsvCell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(CsvCell("two\nlines") == "\"two\nlines\"");
  CHECK(CsvCell("cr\r") == "\"cr\r\"");
  for (const char* formula : {"=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"}) {
    INFO(formula);
    const std::string cell = CsvCell(formula);
    CHECK(cell.substr(0, 2) == "\"'");
    CHECK(cell.back() == '"');
  }
  CHECK(CsvCell("=a,\"b\"") == "\"'=a,\"\"b\"\"\"");
  CHECK(CsvCell("") == "");
}

// Every byte of `text` is allowed in an XML 1.0 document and no markup character is raw.
bool WellFormedText(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    if (c == 0x7F || c == '<' || c == '>' || c == '"' || c == '\'') return false;
    if (c == '&' && text.compare(i, 4, "&lt;") != 0 && text.compare(i, 4, "&gt;") != 0 &&
        text.compare(i, 5, "&amp;") != 0 && text.compare(i, 6, "&quot;") != 0 && text.compare(i, 5, "&#39;") != 0) {
      return false;
    }
  }
  return true;
}

TEST_CASE("XML text: markup escaped, forbidden characters and bad UTF-8 replaced", "[output]") {
  CHECK(XmlText("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(XmlText("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(XmlText("tab\there\nnew") == "tab\there\nnew");
  CHECK(XmlText(std::string("nul\0x", 5)) == "nul\xEF\xBF\xBDx");
  CHECK(XmlText("esc\x1b[31m") == "esc\xEF\xBF\xBD[31m");
  CHECK(XmlText("\xff\xfe") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(XmlText("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate: three bad bytes
  CHECK(XmlText("\xef\xbf\xbe") == "\xEF\xBF\xBD");                          // U+FFFE
  std::string every;
  for (int c = 0; c < 256; ++c) every += static_cast<char>(c);
  CHECK(WellFormedText(XmlText(every)));
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

// Issue 57, class 2: free text (a host plugin's reason, a name quoted from the input) must
// not forge a line of the text output.
TEST_CASE("Printable: control characters are written out, nothing else changes", "[output]") {
  CHECK(Printable("plain text / with \\ and caf\xc3\xa9") == "plain text / with \\ and caf\xc3\xa9");
  CHECK(Printable("a\nbind x -> y") == "a\\nbind x -> y");
  CHECK(Printable("cr\rtab\tesc\x1b[2J del\x7f") == "cr\\rtab\\tesc\\x1b[2J del\\x7f");
  CHECK(Printable("c1 \xc2\x9b" "31m") == "c1 \\u009b31m");
  CHECK(Printable(std::string("nul\0", 4)) == "nul\\x00");
}

TEST_CASE("Decisions text: a forged line in a reason stays inside its own line", "[output]") {
  Decisions d;
  d.task_reasons.push_back({d.Keep("ns/p"), d.Keep("Unschedulable"),
                            d.Keep("no room\nbind ns/evil -> n1\nsummary: 99 binds")});
  d.warnings.push_back("Queue \"q\": note\r\nbind ns/other -> n2");
  const std::string text = d.ToString();
  size_t lines = 0;
  for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos; ++at) ++lines;
  CHECK(lines == 2);
  CHECK(text.find("\nbind ") == std::string::npos);
  CHECK(text.rfind("bind ", 0) == std::string::npos);
}

}  // namespace
}  // namespace vcsched
