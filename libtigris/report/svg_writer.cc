#include "report/svg_writer.h"

#include <cstdio>

namespace tigris::report {

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even escaped; a name carrying one
        // (ONNX allows any string) shows a replacement instead of breaking the file.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string Num(double value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", value);
  std::string s(buf);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

SvgWriter::SvgWriter(double width, double height) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  Open("svg", {{"xmlns", "http://www.w3.org/2000/svg"},
               {"width", Num(width)},
               {"height", Num(height)},
               {"viewBox", "0 0 " + Num(width) + " " + Num(height)},
               {"font-family", "Helvetica, Arial, sans-serif"}});
}

void SvgWriter::Start(const std::string& tag, const Attrs& attrs) {
  out_ += std::string(open_.size() * 2, ' ') + "<" + tag;
  for (const auto& [name, value] : attrs) out_ += " " + name + "=\"" + XmlEscape(value) + "\"";
}

void SvgWriter::Open(const std::string& tag, const Attrs& attrs) {
  Start(tag, attrs);
  out_ += ">\n";
  open_.push_back(tag);
}

void SvgWriter::Close() {
  if (open_.empty()) return;
  std::string tag = open_.back();
  open_.pop_back();
  out_ += std::string(open_.size() * 2, ' ') + "</" + tag + ">\n";
}

void SvgWriter::Empty(const std::string& tag, const Attrs& attrs) {
  Start(tag, attrs);
  out_ += "/>\n";
}

void SvgWriter::Text(const std::string& tag, const Attrs& attrs, const std::string& text) {
  Start(tag, attrs);
  out_ += ">" + XmlEscape(text) + "</" + tag + ">\n";
}

std::string SvgWriter::Finish() {
  while (!open_.empty()) Close();
  return std::move(out_);
}

}  // namespace tigris::report
