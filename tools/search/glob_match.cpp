// Glob compilation and matching: braces are expanded up front, each
// alternative becomes a list of path segments (`**` or a token list), and
// common shapes (`*.ext`, `**/*.ext`, `**/name`, plain paths) take a fast
// path. Matching never allocates. Pure; any thread.
#include "tools/search/glob_match.h"

#include <cstring>

namespace lathe::tools {
namespace {

constexpr size_t npos = std::string_view::npos;

char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
char asciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

// Bytes in the UTF-8 sequence that starts with `lead` (1 for stray bytes).
size_t utf8Length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

// Position of the '}' closing the '{' at `open`, with the top-level commas
// between them; npos when unclosed. Escapes are skipped.
size_t findClosingBrace(std::string_view s, size_t open, std::vector<size_t>& commas) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) return i;
    } else if (c == ',' && depth == 1) {
      commas.push_back(i);
    }
  }
  return npos;
}

Status expandInto(std::string_view s, size_t from, size_t limit, std::vector<std::string>& out) {
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] != '{') continue;
    std::vector<size_t> commas;
    size_t close = findClosingBrace(s, i, commas);
    if (close == npos) continue;  // an unclosed brace is a literal '{'
    std::string_view prefix = s.substr(0, i);
    std::string_view suffix = s.substr(close + 1);
    size_t start = i + 1;
    commas.push_back(close);
    for (size_t end : commas) {
      std::string next;
      next.reserve(prefix.size() + (end - start) + suffix.size());
      next.append(prefix).append(s.substr(start, end - start)).append(suffix);
      // The prefix holds no expandable brace, so scanning resumes after it.
      if (auto st = expandInto(next, prefix.size(), limit, out); !st) return st;
      start = end + 1;
    }
    return {};
  }
  if (out.size() >= limit) {
    return makeError(Errc::invalid_params, "the braces expand to more than " + std::to_string(limit) + " alternatives");
  }
  out.emplace_back(s);
  return {};
}

bool endsWith(std::string_view s, std::string_view suffix, bool fold) {
  if (s.size() < suffix.size()) return false;
  const char* a = s.data() + (s.size() - suffix.size());
  if (!fold) return std::memcmp(a, suffix.data(), suffix.size()) == 0;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (asciiLower(a[i]) != suffix[i]) return false;
  }
  return true;
}

bool equalFolded(std::string_view s, std::string_view lit, bool fold) {
  if (s.size() != lit.size()) return false;
  return endsWith(s, lit, fold);
}

}  // namespace

Result<std::vector<std::string>> expandBraces(std::string_view pattern, size_t limit) {
  std::vector<std::string> out;
  if (auto st = expandInto(pattern, 0, limit, out); !st) return st.error();
  return out;
}

std::string escapeGlob(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    if (std::strchr("*?[]{}\\,!", c) != nullptr && c != '\0') out += '\\';
    out += c;
  }
  return out;
}

Result<GlobPattern> GlobPattern::compile(std::string_view pattern, GlobCase sensitivity) {
  if (pattern.empty()) return makeError(Errc::invalid_params, "the glob pattern is empty");
  GlobPattern glob;
  glob.text_ = std::string(pattern);
  glob.sensitivity_ = sensitivity;
  auto alternatives = expandBraces(pattern);
  if (!alternatives) return alternatives.error();
  for (const auto& alt : *alternatives) {
    if (auto st = glob.compileAlternative(alt); !st) return st.error();
  }
  return glob;
}

char GlobPattern::fold(char c) const { return sensitivity_ == GlobCase::insensitive ? asciiLower(c) : c; }

Status GlobPattern::compileAlternative(std::string_view alt) {
  Alternative out;
  const bool insensitive = sensitivity_ == GlobCase::insensitive;
  size_t i = 0;
  while (i <= alt.size()) {
    // One segment: up to the next unescaped '/'.
    size_t end = i;
    while (end < alt.size() && alt[end] != '/') end += (alt[end] == '\\' && end + 1 < alt.size()) ? 2 : 1;
    std::string_view text = alt.substr(i, end - i);
    i = end + 1;
    if (text.empty()) continue;
    Segment seg;
    if (text == "**") {
      if (!out.segments.empty() && out.segments.back().globstar) continue;
      seg.globstar = true;
      out.segments.push_back(std::move(seg));
      continue;
    }
    for (size_t k = 0; k < text.size();) {
      char c = text[k];
      if (c == '\\') {
        char lit = k + 1 < text.size() ? text[k + 1] : '\\';
        seg.tokens.push_back(Token{Token::literal, fold(lit), 0});
        k += 2;
      } else if (c == '*') {
        if (seg.tokens.empty() || seg.tokens.back().kind != Token::star) seg.tokens.push_back(Token{Token::star, 0, 0});
        ++k;
      } else if (c == '?') {
        seg.tokens.push_back(Token{Token::any_char, 0, 0});
        ++k;
      } else if (c == '[') {
        CharClass cls;
        size_t j = k + 1;
        if (j < text.size() && (text[j] == '!' || text[j] == '^')) {
          cls.negated = true;
          ++j;
        }
        bool closed = false;
        bool first = true;
        while (j < text.size()) {
          char lo = text[j];
          if (lo == ']' && !first) {
            closed = true;
            break;
          }
          first = false;
          if (lo == '\\' && j + 1 < text.size()) lo = text[++j];
          ++j;
          char hi = lo;
          if (j + 1 < text.size() && text[j] == '-' && text[j + 1] != ']') {
            hi = text[j + 1];
            if (hi == '\\' && j + 2 < text.size()) {
              hi = text[j + 2];
              ++j;
            }
            j += 2;
          }
          for (unsigned v = static_cast<unsigned char>(lo); v <= static_cast<unsigned char>(hi); ++v) {
            cls.set(static_cast<unsigned char>(v));
            if (insensitive) {
              cls.set(static_cast<unsigned char>(asciiLower(static_cast<char>(v))));
              cls.set(static_cast<unsigned char>(asciiUpper(static_cast<char>(v))));
            }
          }
        }
        if (!closed) {  // an unclosed '[' is a literal
          seg.tokens.push_back(Token{Token::literal, '[', 0});
          ++k;
          continue;
        }
        classes_.push_back(cls);
        seg.tokens.push_back(Token{Token::char_class, 0, static_cast<uint32_t>(classes_.size() - 1)});
        k = j + 1;
      } else {
        seg.tokens.push_back(Token{Token::literal, fold(c), 0});
        ++k;
      }
    }
    seg.isLiteral = true;
    for (const auto& t : seg.tokens) {
      if (t.kind != Token::literal) {
        seg.isLiteral = false;
        break;
      }
      seg.literal += t.ch;
    }
    out.segments.push_back(std::move(seg));
  }
  if (out.segments.empty()) return makeError(Errc::invalid_params, "the glob pattern \"" + text_ + "\" names no path");

  // Recognise the shapes that can skip the general matcher.
  auto starThenLiteral = [](const Segment& s, std::string& suffix) {
    if (s.globstar || s.tokens.empty() || s.tokens[0].kind != Token::star) return false;
    suffix.clear();
    for (size_t k = 1; k < s.tokens.size(); ++k) {
      if (s.tokens[k].kind != Token::literal) return false;
      suffix += s.tokens[k].ch;
    }
    return true;
  };
  const auto& segs = out.segments;
  bool allLiteral = true;
  for (const auto& s : segs) allLiteral = allLiteral && !s.globstar && s.isLiteral;
  if (allLiteral) {
    out.shape = Shape::exact;
    for (const auto& s : segs) out.fast += (out.fast.empty() ? "" : "/") + s.literal;
  } else if (segs.size() == 2 && segs[0].globstar && segs[1].isLiteral) {
    out.shape = Shape::basename_any_depth;
    out.fast = segs[1].literal;
  } else if (segs.size() == 2 && segs[0].globstar && starThenLiteral(segs[1], out.fast)) {
    out.shape = Shape::suffix_any_depth;
  } else if (segs.size() == 1 && starThenLiteral(segs[0], out.fast)) {
    out.shape = Shape::suffix_one_segment;
  }
  alternatives_.push_back(std::move(out));
  return {};
}

bool GlobPattern::matchSegment(const Segment& seg, std::string_view name) const {
  const bool insensitive = sensitivity_ == GlobCase::insensitive;
  if (seg.isLiteral) return equalFolded(name, seg.literal, insensitive);
  const auto& toks = seg.tokens;
  size_t ti = 0, si = 0, starTi = npos, starSi = 0;
  while (si < name.size()) {
    if (ti < toks.size()) {
      const Token& t = toks[ti];
      char c = name[si];
      switch (t.kind) {
        case Token::star:
          starTi = ti++;
          starSi = si;
          continue;
        case Token::literal:
          if ((insensitive ? asciiLower(c) : c) == t.ch) {
            ++ti;
            ++si;
            continue;
          }
          break;
        case Token::any_char:
          si = std::min(name.size(), si + utf8Length(static_cast<unsigned char>(c)));
          ++ti;
          continue;
        case Token::char_class: {
          const CharClass& cls = classes_[t.classIndex];
          auto u = static_cast<unsigned char>(c);
          if (cls.test(u) != cls.negated) {
            si = std::min(name.size(), si + (cls.negated ? utf8Length(u) : 1));
            ++ti;
            continue;
          }
          break;
        }
      }
    }
    if (starTi == npos) return false;
    ti = starTi + 1;
    si = ++starSi;
  }
  while (ti < toks.size() && toks[ti].kind == Token::star) ++ti;
  return ti == toks.size();
}

bool GlobPattern::matchAlternative(const Alternative& alt, std::string_view path) const {
  const bool insensitive = sensitivity_ == GlobCase::insensitive;
  switch (alt.shape) {
    case Shape::exact:
      return equalFolded(path, alt.fast, insensitive);
    case Shape::basename_any_depth:
      return endsWith(path, alt.fast, insensitive) &&
             (path.size() == alt.fast.size() || path[path.size() - alt.fast.size() - 1] == '/');
    case Shape::suffix_any_depth:
      return endsWith(path, alt.fast, insensitive);
    case Shape::suffix_one_segment:
      return endsWith(path, alt.fast, insensitive) &&
             path.substr(0, path.size() - alt.fast.size()).find('/') == npos;
    case Shape::general:
      break;
  }
  // Segment-level matching: each pattern segment takes exactly one path
  // segment except `**`, which takes any number, so remembering the last `**`
  // is enough to backtrack.
  const auto& segs = alt.segments;
  const size_t n = path.size();
  auto segEnd = [&](size_t p) {
    size_t e = path.find('/', p);
    return e == npos ? n : e;
  };
  size_t pi = 0, pos = 0, starPi = npos, starPos = 0;
  while (true) {
    if (pi == segs.size() && pos > n) return true;
    if (pi < segs.size() && segs[pi].globstar) {
      if (pi + 1 == segs.size()) return pos <= n;  // a trailing `**` takes one or more segments
      starPi = pi++;
      starPos = pos;
      continue;
    }
    if (pi < segs.size() && pos <= n) {
      size_t e = segEnd(pos);
      if (matchSegment(segs[pi], path.substr(pos, e - pos))) {
        ++pi;
        pos = e + 1;
        continue;
      }
    }
    if (starPi == npos || starPos > n) return false;
    starPos = segEnd(starPos) + 1;
    pos = starPos;
    pi = starPi + 1;
  }
}

bool GlobPattern::matches(std::string_view path) const {
  if (path.empty()) return false;
  for (const auto& alt : alternatives_) {
    if (matchAlternative(alt, path)) return true;
  }
  return false;
}

bool GlobPattern::prefixCouldMatch(const Alternative& alt, std::string_view dir) const {
  size_t pi = 0, pos = 0;
  while (pos <= dir.size()) {
    size_t e = dir.find('/', pos);
    if (e == npos) e = dir.size();
    if (pi == alt.segments.size()) return false;
    const Segment& seg = alt.segments[pi];
    if (seg.globstar) return true;
    if (!matchSegment(seg, dir.substr(pos, e - pos))) return false;
    ++pi;
    pos = e + 1;
  }
  return pi < alt.segments.size();
}

bool GlobPattern::couldMatchInside(std::string_view dir) const {
  if (dir.empty()) return true;
  for (const auto& alt : alternatives_) {
    if (prefixCouldMatch(alt, dir)) return true;
  }
  return false;
}

std::optional<size_t> GlobPattern::maxSegments() const {
  size_t most = 0;
  for (const auto& alt : alternatives_) {
    for (const auto& seg : alt.segments) {
      if (seg.globstar) return std::nullopt;
    }
    most = std::max(most, alt.segments.size());
  }
  return most;
}

bool GlobPattern::isLiteral() const {
  for (const auto& alt : alternatives_) {
    if (alt.shape != Shape::exact) return false;
  }
  return true;
}

}  // namespace lathe::tools
