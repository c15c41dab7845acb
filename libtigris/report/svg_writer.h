// A minimal SVG text builder: elements with attributes, escaped text, compact numbers.
// Just enough for report/ charts; it writes well-formed XML by construction (every
// attribute value and text node goes through XmlEscape, every Open has its Close).
#ifndef TIGRIS_REPORT_SVG_WRITER_H_
#define TIGRIS_REPORT_SVG_WRITER_H_

#include <string>
#include <utility>
#include <vector>

namespace tigris::report {

// Escapes &, <, >, " and ' so any name (op, model) is safe in text and attributes.
std::string XmlEscape(const std::string& text);

// A coordinate with at most one decimal and no trailing zeros ("12", "12.5").
std::string Num(double value);

using Attrs = std::vector<std::pair<std::string, std::string>>;

class SvgWriter {
 public:
  SvgWriter(double width, double height);

  void Open(const std::string& tag, const Attrs& attrs = {});
  void Close();
  // <tag attrs/>
  void Empty(const std::string& tag, const Attrs& attrs);
  // <tag attrs>text</tag>
  void Text(const std::string& tag, const Attrs& attrs, const std::string& text);

  // Closes what is still open, then the root, and returns the document.
  std::string Finish();

 private:
  void Start(const std::string& tag, const Attrs& attrs);
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace tigris::report

#endif  // TIGRIS_REPORT_SVG_WRITER_H_
