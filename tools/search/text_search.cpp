// Line matching for grep_search: a literal finder (memchr on the needle's
// rarest byte, verified in place), PCRE2 with JIT for regexes, and a literal
// prefilter taken from the regex when it has a required run of plain
// characters. pcre2.h stays in this file. Compiled state is immutable; the
// per-thread MatchScratch holds everything a match writes.
#include "tools/search/text_search.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "protocol/base/enum_names.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lathe::tools {
namespace {

constexpr size_t npos = std::string_view::npos;

char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
char asciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }
bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiAlnum(char c) { return isAsciiLetter(c) || (c >= '0' && c <= '9'); }

// How common a byte is in source code and prose (higher is more common): the
// literal finder scans for the needle's least common byte.
int byteRank(unsigned char c) {
  static const char* kCommon = " etaoinsr\nlcdupm\t();._f=h,gb";
  static const char* kMedium = "ywkvxjqz0123456789\"'/{}-:*<>[]";
  if (c >= 0x80) return 20;
  if (const char* p = std::strchr(kCommon, c); p && c != 0) return 255 - static_cast<int>(p - kCommon);
  if (const char* p = std::strchr(kMedium, c); p && c != 0) return 180 - static_cast<int>(p - kMedium);
  if (c >= 'A' && c <= 'Z') return std::strchr("STEACIRNLOPDM", c) ? 130 : 100;
  return 60;
}

// A needle and how to find it quickly: two of its rarest bytes are compared
// 16 positions at a time (SSE2), and only positions where both agree are
// verified. Case-insensitive needles are ASCII, stored in lower case; a
// letter is compared with its 0x20 bit forced on.
class LiteralFinder {
 public:
  LiteralFinder() = default;
  LiteralFinder(std::string needle, bool insensitive) : needle_(std::move(needle)), insensitive_(insensitive) {
    if (insensitive_) {
      for (char& c : needle_) c = asciiLower(c);
    }
    // The two rarest positions, preferring different bytes.
    auto rank = [&](size_t i) {
      char c = needle_[i];
      int r = byteRank(static_cast<unsigned char>(c));
      if (insensitive_ && isAsciiLetter(c)) r = std::min(255, r + byteRank(static_cast<unsigned char>(asciiUpper(c))) / 2);
      return r;
    };
    for (size_t i = 0; i < needle_.size(); ++i) {
      if (rank(i) <= rank(first_)) first_ = i;  // ties go to the later byte
    }
    auto secondKey = [&](size_t i) { return (needle_[i] == needle_[first_] ? 1000 : 0) + rank(i); };
    second_ = first_;
    for (size_t i = 0; i < needle_.size(); ++i) {
      if (i != first_ && (second_ == first_ || secondKey(i) < secondKey(second_))) second_ = i;
    }
    if (!needle_.empty()) {
      byte1_ = needle_[first_];
      byte2_ = needle_[second_];
      fold1_ = insensitive_ && isAsciiLetter(byte1_) ? 0x20 : 0;
      fold2_ = insensitive_ && isAsciiLetter(byte2_) ? 0x20 : 0;
    }
  }

  // Position of the first occurrence at or after `from`, or npos.
  size_t find(std::string_view hay, size_t from) const {
    const size_t m = needle_.size();
    if (m == 0) return from <= hay.size() ? from : npos;
    if (hay.size() < m || from > hay.size() - m) return npos;
    const char* base = hay.data();
    if (m == 1) return findByte(base, from, hay.size());
    const size_t last = hay.size() - m;  // the last possible start
    size_t pos = from;
#if defined(__SSE2__)
    const __m128i want1 = _mm_set1_epi8(byte1_), want2 = _mm_set1_epi8(byte2_);
    const __m128i fold1 = _mm_set1_epi8(fold1_), fold2 = _mm_set1_epi8(fold2_);
    while (pos + 15 <= last) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + pos + first_));
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + pos + second_));
      a = _mm_cmpeq_epi8(_mm_or_si128(a, fold1), want1);
      b = _mm_cmpeq_epi8(_mm_or_si128(b, fold2), want2);
      auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(a, b)));
      while (mask != 0) {
        size_t at = pos + static_cast<size_t>(__builtin_ctz(mask));
        if (verify(base + at)) return at;
        mask &= mask - 1;
      }
      pos += 16;
    }
#endif
    for (; pos <= last; ++pos) {
      if ((base[pos + first_] | fold1_) == byte1_ && (base[pos + second_] | fold2_) == byte2_ && verify(base + pos)) {
        return pos;
      }
    }
    return npos;
  }

 private:
  size_t findByte(const char* base, size_t from, size_t size) const {
    const void* p = std::memchr(base + from, byte1_, size - from);
    size_t hit = p ? static_cast<const char*>(p) - base : npos;
    if (fold1_ == 0) return hit;
    const void* q = std::memchr(base + from, asciiUpper(byte1_), (hit == npos ? size : hit) - from);
    return q ? static_cast<const char*>(q) - base : hit;
  }

  bool verify(const char* at) const {
    if (!insensitive_) return std::memcmp(at, needle_.data(), needle_.size()) == 0;
    for (size_t i = 0; i < needle_.size(); ++i) {
      if (asciiLower(at[i]) != needle_[i]) return false;
    }
    return true;
  }

  std::string needle_;
  bool insensitive_ = false;
  size_t first_ = 0;
  size_t second_ = 0;
  char byte1_ = 0, byte2_ = 0;
  char fold1_ = 0, fold2_ = 0;
};

bool hasNonAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

// The text a regex matches when it is a plain string (escaped punctuation
// allowed), else nullopt.
std::optional<std::string> regexAsLiteral(std::string_view p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size()) return std::nullopt;
      char e = p[i + 1];
      if (isAsciiAlnum(e) || static_cast<unsigned char>(e) >= 0x80) return std::nullopt;
      out += e;
      ++i;
    } else if (std::strchr("^$.|?*+()[]{}", c) != nullptr && c != '\0') {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  return out;
}

// Position after the character class starting at p[i] == '[', or npos.
size_t skipClass(std::string_view p, size_t i) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;
  while (j < p.size()) {
    if (p[j] == '\\') {
      j += 2;
    } else if (p[j] == '[' && j + 1 < p.size() && p[j + 1] == ':') {
      size_t close = p.find(":]", j + 2);
      if (close == npos) return npos;
      j = close + 2;
    } else if (p[j] == ']') {
      return j + 1;
    } else {
      ++j;
    }
  }
  return npos;
}

void popLastChar(std::string& run) {
  while (!run.empty() && (static_cast<unsigned char>(run.back()) & 0xC0) == 0x80) run.pop_back();
  if (!run.empty()) run.pop_back();
}

// The longest run of plain characters every match must contain, found only
// in the top-level concatenation of the regex; nullopt when unsure.
std::optional<std::string> requiredLiteral(std::string_view p) {
  if (p.find("(?") != npos || p.find("\\Q") != npos) return std::nullopt;  // flags or quoting change meaning
  std::string best, run;
  auto endRun = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  int depth = 0;
  for (size_t i = 0; i < p.size();) {
    char c = p[i];
    if (depth > 0) {  // inside a group: skipped whole
      if (c == '\\') {
        i += 2;
      } else if (c == '[') {
        i = skipClass(p, i);
        if (i == npos) return std::nullopt;
      } else {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        ++i;
      }
      continue;
    }
    switch (c) {
      case '|':
        return std::nullopt;
      case ')':
        return std::nullopt;
      case '(':
        endRun();
        depth = 1;
        ++i;
        continue;
      case '[':
        endRun();
        i = skipClass(p, i);
        if (i == npos) return std::nullopt;
        continue;
      case '.':
      case '^':
      case '$':
        endRun();
        ++i;
        continue;
      case '?':
      case '*':
      case '+':
      case '{': {
        // The atom before is quantified: optional unless '+'.
        if (c != '+') popLastChar(run);
        endRun();
        if (c == '{') {
          size_t close = p.find('}', i);
          i = close == npos ? i + 1 : close + 1;
        } else {
          ++i;
        }
        if (i < p.size() && (p[i] == '?' || p[i] == '+')) ++i;
        continue;
      }
      case '\\': {
        if (i + 1 >= p.size()) return std::nullopt;
        char e = p[i + 1];
        if (isAsciiAlnum(e)) {
          // Escapes that take arguments or refer back could hide characters.
          if (std::strchr("dDwWsSbBAzZGhHvVRXKntrfea", e) == nullptr) return std::nullopt;
          endRun();
        } else {
          run += e;
        }
        i += 2;
        continue;
      }
      default:
        run += c;
        ++i;
    }
  }
  endRun();
  if (best.size() < 2) return std::nullopt;
  return best;
}

// The regex that matches exactly `text` (for non-ASCII case-insensitive literals).
std::string escapeRegex(std::string_view text) {
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && !isAsciiAlnum(c) && c != ' ') out += '\\';
    out += c;
  }
  return out;
}

std::string pcreErrorText(int code) {
  PCRE2_UCHAR buffer[256];
  int n = pcre2_get_error_message(code, buffer, sizeof buffer);
  return n < 0 ? "error " + std::to_string(code) : std::string(reinterpret_cast<const char*>(buffer), static_cast<size_t>(n));
}

}  // namespace

struct MatchScratch {
  pcre2_match_data* data = nullptr;
  pcre2_match_context* context = nullptr;
  pcre2_jit_stack* stack = nullptr;
  ~MatchScratch() {
    if (data) pcre2_match_data_free(data);
    if (context) pcre2_match_context_free(context);
    if (stack) pcre2_jit_stack_free(stack);
  }
};

struct TextMatcher::Impl {
  enum class Mode { literal, regex, prefiltered } mode = Mode::literal;
  LiteralFinder literal;  // the needle (literal) or the prefilter (prefiltered)
  pcre2_code* code = nullptr;
  bool jit = false;

  ~Impl() {
    if (code) pcre2_code_free(code);
  }

  // PCRE2 match of text from `offset`: the match start and end, or false.
  bool regexMatch(std::string_view text, size_t offset, MatchScratch& s, size_t& start, size_t& end) const {
    auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    int rc = jit ? pcre2_jit_match(code, subject, text.size(), offset, 0, s.data, s.context)
                 : pcre2_match(code, subject, text.size(), offset, 0, s.data, s.context);
    if (rc < 0) return false;
    PCRE2_SIZE* ov = pcre2_get_ovector_pointer(s.data);
    start = ov[0];
    end = ov[1];
    return true;
  }

  bool lineMatches(std::string_view line, MatchScratch& s) const {
    size_t a = 0, b = 0;
    return regexMatch(line, 0, s, a, b);
  }
};

namespace {

LineSpan lineAround(std::string_view text, size_t pos) {
  LineSpan line;
  const void* before = pos == 0 ? nullptr : ::memrchr(text.data(), '\n', pos);
  line.start = before ? static_cast<const char*>(before) - text.data() + 1 : 0;
  const void* after = pos >= text.size() ? nullptr : std::memchr(text.data() + pos, '\n', text.size() - pos);
  line.end = after ? static_cast<const char*>(after) - text.data() : text.size();
  return line;
}

}  // namespace

Result<TextMatcher> TextMatcher::compile(const TextQuery& query) {
  auto impl = std::make_shared<Impl>();
  const bool insensitive = !query.caseSensitive;
  std::optional<std::string> literal =
      query.fixedStrings ? std::optional<std::string>(query.pattern) : regexAsLiteral(query.pattern);
  if (literal && !(insensitive && hasNonAscii(*literal))) {
    impl->mode = Impl::Mode::literal;
    impl->literal = LiteralFinder(*literal, insensitive);
    TextMatcher m;
    m.impl_ = std::move(impl);
    return m;
  }
  std::string regex = literal ? escapeRegex(*literal) : query.pattern;
  uint32_t options = PCRE2_MULTILINE | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  if (insensitive) options |= PCRE2_CASELESS;
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(regex.data()), regex.size(), options, &errorCode,
                             &errorOffset, nullptr);
  if (!impl->code) {
    return makeError(Errc::invalid_params, "invalid regular expression \"" + query.pattern + "\": " +
                                               pcreErrorText(errorCode) + " at offset " + std::to_string(errorOffset));
  }
  impl->jit = pcre2_jit_compile(impl->code, PCRE2_JIT_COMPLETE) == 0;
  impl->mode = Impl::Mode::regex;
  if (!literal) {
    if (auto required = requiredLiteral(query.pattern); required && !(insensitive && hasNonAscii(*required))) {
      impl->mode = Impl::Mode::prefiltered;
      impl->literal = LiteralFinder(*required, insensitive);
    }
  }
  TextMatcher m;
  m.impl_ = std::move(impl);
  return m;
}

std::shared_ptr<MatchScratch> TextMatcher::makeScratch() const {
  auto s = std::make_shared<MatchScratch>();
  if (impl_->code) {
    s->data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
    s->context = pcre2_match_context_create(nullptr);
    if (impl_->jit) {
      s->stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, nullptr);
      if (s->stack) pcre2_jit_stack_assign(s->context, nullptr, s->stack);
    }
  }
  return s;
}

std::optional<LineSpan> TextMatcher::nextMatchingLine(std::string_view text, size_t from, MatchScratch& scratch) const {
  const Impl& m = *impl_;
  while (from < text.size()) {
    if (m.mode == Impl::Mode::literal || m.mode == Impl::Mode::prefiltered) {
      size_t hit = m.literal.find(text, from);
      if (hit == npos) return std::nullopt;
      LineSpan line = lineAround(text, hit);
      if (m.mode == Impl::Mode::literal) return line;
      if (m.lineMatches(text.substr(line.start, line.end - line.start), scratch)) return line;
      from = line.end + 1;
      continue;
    }
    size_t start = 0, end = 0;
    if (!m.regexMatch(text, from, scratch, start, end)) return std::nullopt;
    LineSpan line = lineAround(text, start);
    // A match that runs past its line (\s or [^x] taking a '\n') counts only
    // if the line alone matches.
    if (end <= line.end || m.lineMatches(text.substr(line.start, line.end - line.start), scratch)) return line;
    from = line.end + 1;
  }
  return std::nullopt;
}

bool TextMatcher::matchesLine(std::string_view line, MatchScratch& scratch) const {
  if (impl_->mode == Impl::Mode::literal) return impl_->literal.find(line, 0) != npos;
  return impl_->lineMatches(line, scratch);
}

std::string TextMatcher::strategy() const {
  using Mode = Impl::Mode;
  static constexpr EnumName<Mode> kStrategies[] = {
      {Mode::literal, "literal"}, {Mode::regex, "regex"}, {Mode::prefiltered, "regex+prefilter"}};
  return nameOf(kStrategies, impl_->mode);
}

size_t countNewlines(std::string_view text) {
  const char* p = text.data();
  size_t n = text.size();
  size_t count = 0;
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
  constexpr uint64_t kNewlines = kOnes * '\n';
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    uint64_t x = word ^ kNewlines;  // zero bytes where '\n' was
    uint64_t t = ~(((x & kLow7) + kLow7) | x | kLow7);
    count += static_cast<size_t>(__builtin_popcountll(t));
  }
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

}  // namespace lathe::tools
