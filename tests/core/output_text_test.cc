// Issue 57, class 3: names reach CSV and SVG/HTML outputs; no name may shift a CSV column,
// become a spreadsheet formula, or make a document ill-formed.
#include <catch2/catch.hpp>

#include "src/model/output_text.h"

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
