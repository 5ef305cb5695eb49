// Terminal-like cleanup of command output (see the header). Pure.
#include "tools/shell/terminal_text.h"

#include <algorithm>

namespace lathe::tools::shell {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence at text[i], or 0 when it is not valid.
size_t validSequence(std::string_view text, size_t i) {
  auto c = static_cast<unsigned char>(text[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if (!isContinuation(static_cast<unsigned char>(text[i + k]))) return 0;
  }
  if (len == 2 && c < 0xC2) return 0;  // overlong
  if (len == 3) {
    auto c1 = static_cast<unsigned char>(text[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) return 0;  // overlong, surrogate
  }
  if (len == 4) {
    auto c1 = static_cast<unsigned char>(text[i + 1]);
    if ((c == 0xF0 && c1 < 0x90) || c > 0xF4 || (c == 0xF4 && c1 >= 0x90)) return 0;
  }
  return len;
}

// Bytes an escape sequence starting at text[i] (ESC) spans.
size_t escapeLength(std::string_view text, size_t i) {
  size_t j = i + 1;
  if (j >= text.size()) return 1;
  char kind = text[j];
  if (kind == '[') {  // CSI: parameters, then a final byte in 0x40..0x7E
    for (++j; j < text.size(); ++j) {
      auto c = static_cast<unsigned char>(text[j]);
      if (c >= 0x40 && c <= 0x7E) return j + 1 - i;
    }
    return text.size() - i;
  }
  if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {  // strings, to BEL or ST
    for (++j; j < text.size(); ++j) {
      if (text[j] == '\a') return j + 1 - i;
      if (text[j] == '\x1b' && j + 1 < text.size() && text[j + 1] == '\\') return j + 2 - i;
    }
    return text.size() - i;
  }
  if (kind == '(' || kind == ')' || kind == '*' || kind == '+' || kind == '#' || kind == '%') {
    return std::min<size_t>(3, text.size() - i);
  }
  return 2;
}

}  // namespace

std::string terminalText(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  bool carriageReturn = false;  // the next character overwrites the current line
  for (size_t i = 0; i < raw.size();) {
    char c = raw[i];
    if (c == '\x1b') {
      i += escapeLength(raw, i);
      continue;
    }
    if (c == '\r') {
      carriageReturn = true;
      ++i;
      continue;
    }
    if (c == '\n') {
      carriageReturn = false;
      out += '\n';
      ++i;
      continue;
    }
    if (c == '\b') {
      while (!out.empty() && isContinuation(static_cast<unsigned char>(out.back()))) out.pop_back();
      if (!out.empty() && out.back() != '\n') out.pop_back();
      ++i;
      continue;
    }
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7F) {
      ++i;
      continue;
    }
    if (carriageReturn) {
      size_t lineStart = out.rfind('\n');
      out.resize(lineStart == std::string::npos ? 0 : lineStart + 1);
      carriageReturn = false;
    }
    size_t len = validSequence(raw, i);
    if (len == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(raw.substr(i, len));
    i += len;
  }
  return out;
}

size_t countChars(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += isContinuation(static_cast<unsigned char>(c)) ? 0 : 1;
  return n;
}

size_t utf8FloorBoundary(std::string_view text, size_t max) {
  if (max < text.size()) {
    size_t n = max;
    while (n > 0 && isContinuation(static_cast<unsigned char>(text[n]))) --n;
    return n;
  }
  // The whole text: leave out a last sequence that is not complete.
  size_t lead = text.size();
  while (lead > 0 && text.size() - lead < 4 && isContinuation(static_cast<unsigned char>(text[lead - 1]))) --lead;
  if (lead == 0) return text.size();
  auto c = static_cast<unsigned char>(text[lead - 1]);
  size_t want = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  return text.size() - (lead - 1) < want ? lead - 1 : text.size();
}

size_t utf8CeilBoundary(std::string_view text, size_t min) {
  size_t n = std::min(min, text.size());
  while (n < text.size() && isContinuation(static_cast<unsigned char>(text[n]))) ++n;
  return n;
}

}  // namespace lathe::tools::shell
