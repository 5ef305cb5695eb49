// UTF-8 validation (RFC 3629: no surrogates, no overlong forms, at most U+10FFFF).
#include "protocol/base/utf8.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace lathe::utf8 {
namespace {

// The length of the valid sequence starting at text[i], or 0.
size_t validSequence(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    need = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + need > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < need; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return need;
}

}  // namespace

bool isValid(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
#ifdef __SSE2__
    // Sixteen ASCII bytes at a time: most text is ASCII.
    while (i + 16 <= text.size() &&
           _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i))) == 0) {
      i += 16;
    }
    if (i >= text.size()) break;
#endif
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = validSequence(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string sanitize(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    size_t n = validSequence(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      // An encoded surrogate (what a lone \udc00 escape decodes to) is one
      // character gone; any other bad byte is replaced on its own.
      bool surrogate = i + 2 < text.size() && static_cast<unsigned char>(text[i]) == 0xED &&
                       (static_cast<unsigned char>(text[i + 1]) & 0xE0) == 0xA0 &&
                       (static_cast<unsigned char>(text[i + 2]) & 0xC0) == 0x80;
      i += surrogate ? 3 : 1;
      continue;
    }
    out.append(text.data() + i, n);
    i += n;
  }
  return out;
}

size_t wholeLength(std::string_view text) {
  // A sequence is at most four bytes: only the last three can start a cut one.
  for (size_t back = 1; back <= 3 && back <= text.size(); ++back) {
    const auto c = static_cast<unsigned char>(text[text.size() - back]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    const size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > back ? text.size() - back : text.size();
  }
  return text.size();
}

}  // namespace lathe::utf8
