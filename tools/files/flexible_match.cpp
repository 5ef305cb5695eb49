// Line-wise matching without surrounding whitespace, and re-indentation.
// Pure; any thread.
#include "tools/files/flexible_match.h"
#include "protocol/base/text.h"

#include <cctype>
#include <map>

namespace lathe::tools {
namespace {

// Blanks around a line's text (a line holds no newline).
constexpr std::string_view kLineBlanks = " \t\r";

struct Line {
  size_t begin = 0;
  size_t end = 0;  // excluding '\n'
  std::string_view text;
};

std::vector<Line> splitLines(std::string_view text) {
  std::vector<Line> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    lines.push_back(Line{start, end, text.substr(start, end - start)});
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string_view indentOf(std::string_view line) { return line.substr(0, line.find_first_not_of(" \t")); }

// new_string's lines moved from old_string's indentation to the file's: an
// indentation seen on a matched old_string line becomes the file's for that
// line; others keep their depth relative to the first matched line.
std::string reindent(std::string_view newString, const std::map<std::string_view, std::string_view>& indents,
                     std::string_view oldIndent, std::string_view fileIndent) {
  std::string out;
  std::vector<Line> lines = splitLines(newString);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i].text;
    if (i > 0) out += '\n';
    if (text::trim(line, kLineBlanks).empty()) {
      out.append(line);
      continue;
    }
    std::string_view indent = indentOf(line);
    std::string_view body = line.substr(indent.size());
    if (auto it = indents.find(indent); it != indents.end()) {
      out.append(it->second).append(body);
    } else if (indent.substr(0, oldIndent.size()) == oldIndent) {
      out.append(fileIndent).append(indent.substr(oldIndent.size())).append(body);
    } else {
      out.append(fileIndent).append(body);
    }
  }
  return out;
}

}  // namespace

std::string looseLine(std::string_view line) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); };
  std::string out;
  bool blank = false;
  for (char c : text::trim(line, kLineBlanks)) {
    if (c == ' ' || c == '\t' || c == '\r') {
      blank = true;
      continue;
    }
    // A blank between two word characters separates them; elsewhere it is noise.
    if (blank && !out.empty() && word(out.back()) && word(c)) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

std::vector<FlexibleMatch> flexibleMatches(std::string_view text, std::string_view oldString,
                                           std::string_view newString, LineMatch how) {
  auto same = [how](std::string_view a, std::string_view b) {
    return how == LineMatch::trimmed ? text::trim(a, kLineBlanks) == text::trim(b, kLineBlanks) : looseLine(a) == looseLine(b);
  };
  std::vector<Line> wanted = splitLines(oldString);
  while (!wanted.empty() && text::trim(wanted.back().text, kLineBlanks).empty()) wanted.pop_back();
  size_t first = 0;
  while (first < wanted.size() && text::trim(wanted[first].text, kLineBlanks).empty()) ++first;
  wanted.erase(wanted.begin(), wanted.begin() + static_cast<std::ptrdiff_t>(first));
  std::vector<FlexibleMatch> matches;
  if (wanted.empty()) return matches;
  std::string_view newTrimmed = newString;
  while (!newTrimmed.empty() && newTrimmed.back() == '\n') newTrimmed.remove_suffix(1);

  std::vector<Line> lines = splitLines(text);
  for (size_t i = 0; i + wanted.size() <= lines.size();) {
    bool equal = true;
    for (size_t j = 0; j < wanted.size() && equal; ++j) equal = same(lines[i + j].text, wanted[j].text);
    if (!equal) {
      ++i;
      continue;
    }
    FlexibleMatch match;
    match.begin = lines[i].begin;
    match.end = lines[i + wanted.size() - 1].end;
    std::map<std::string_view, std::string_view> indents;
    for (size_t j = 0; j < wanted.size(); ++j) {
      if (!text::trim(wanted[j].text, kLineBlanks).empty()) indents.emplace(indentOf(wanted[j].text), indentOf(lines[i + j].text));
    }
    match.replacement = reindent(newTrimmed, indents, indentOf(wanted.front().text), indentOf(lines[i].text));
    matches.push_back(std::move(match));
    i += wanted.size();
  }
  return matches;
}

}  // namespace lathe::tools
