// Small text helpers.
#include "protocol/base/text.h"

namespace lathe::text {

std::string_view trimLeft(std::string_view text, std::string_view blanks) {
  size_t start = text.find_first_not_of(blanks);
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

std::string_view trimRight(std::string_view text, std::string_view blanks) {
  size_t end = text.find_last_not_of(blanks);
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

std::string_view trim(std::string_view text, std::string_view blanks) { return trimRight(trimLeft(text, blanks), blanks); }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

std::string firstLine(std::string_view text, size_t maxBytes) {
  std::string_view line = text.substr(0, text.find('\n'));
  if (line.size() <= maxBytes) return std::string(line);
  size_t cut = maxBytes;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return std::string(line.substr(0, cut)) + "…";
}

}  // namespace lathe::text
