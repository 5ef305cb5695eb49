// Text format detection and the normalize/restore pair used by edit tools.
// Pure functions; any thread.
#include "tools/files/text_format.h"

#include <algorithm>
#include <cstring>

namespace lathe::tools {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

TextFormat detectFormat(std::string_view raw) {
  TextFormat format;
  format.bom = raw.substr(0, kBom.size()) == kBom;
  // Two vectorised passes: every LF, then the CRs (rare in LF files) that precede one.
  const size_t newlines = static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'));
  size_t crlf = 0;
  for (size_t at = raw.find('\r'); at != std::string_view::npos; at = raw.find('\r', at + 1)) {
    if (at + 1 < raw.size() && raw[at + 1] == '\n') ++crlf;
  }
  const size_t lf = newlines - crlf;
  format.lineEnding = crlf > lf ? LineEnding::crlf : LineEnding::lf;
  format.finalNewline = !raw.empty() && raw.back() == '\n';
  return format;
}

std::string normalize(std::string text) {
  const size_t from = text.compare(0, kBom.size(), kBom) == 0 ? kBom.size() : 0;
  size_t at = text.find("\r\n", from);
  if (at == std::string::npos) {
    text.erase(0, from);
    return text;
  }
  // Compact in place: the text only shrinks, so writing never overtakes reading.
  size_t out = 0;
  size_t read = from;
  for (;;) {
    const size_t end = at == std::string::npos ? text.size() : at;
    if (out != read) std::memmove(text.data() + out, text.data() + read, end - read);
    out += end - read;
    if (at == std::string::npos) break;
    text[out++] = '\n';
    read = at + 2;
    at = text.find("\r\n", read);
  }
  text.resize(out);
  return text;
}

std::string conformFinalNewline(std::string lfText, const TextFormat& original) {
  if (original.finalNewline && !lfText.empty() && lfText.back() != '\n') lfText += '\n';
  return lfText;
}

std::string restore(std::string_view lfText, const TextFormat& original) {
  const bool addNewline = original.finalNewline && !lfText.empty() && lfText.back() != '\n';
  std::string out;
  out.reserve(lfText.size() + (original.bom ? kBom.size() : 0) + 1 +
              (original.lineEnding == LineEnding::crlf ? lfText.size() / 32 : 0));
  if (original.bom) out += kBom;
  if (original.lineEnding == LineEnding::lf) {
    out.append(lfText);
    if (addNewline) out += '\n';
    return out;
  }
  size_t start = 0;
  for (size_t at = lfText.find('\n'); at != std::string_view::npos; at = lfText.find('\n', start)) {
    out.append(lfText, start, at - start);
    out += "\r\n";
    start = at + 1;
  }
  out.append(lfText, start);
  if (addNewline) out += "\r\n";
  return out;
}

}  // namespace lathe::tools
