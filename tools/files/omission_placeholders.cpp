// Recognising omission placeholders line by line. Pure; any thread.
#include "tools/files/omission_placeholders.h"
#include "protocol/base/text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace lathe::tools {
namespace {

// The comment's words: the line without comment markers, lower-cased.
std::string commentWords(std::string_view line) {
  for (std::string_view lead : {"//", "#", "/*", "<!--", "--", ";", "*", "{/*"}) {
    if (line.substr(0, lead.size()) == lead) {
      line = text::trim(line.substr(lead.size()));
      break;
    }
  }
  for (std::string_view tail : {"*/}", "*/", "-->"}) {
    if (line.size() >= tail.size() && line.substr(line.size() - tail.size()) == tail) {
      line = text::trim(line.substr(0, line.size() - tail.size()));
      break;
    }
  }
  std::string out(line);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool isComment(std::string_view line) {
  for (std::string_view lead : {"//", "#", "/*", "<!--", "--", ";", "*", "{/*"}) {
    if (line.substr(0, lead.size()) == lead) return true;
  }
  return false;
}

// "(rest of methods ...)", "[... existing code ...]": a note in brackets,
// written where code belongs. Nullopt when the line is not one.
std::optional<std::string_view> bracketed(std::string_view line) {
  static constexpr std::array<std::pair<char, char>, 3> kPairs{{{'(', ')'}, {'[', ']'}, {'{', '}'}}};
  for (auto [open, close] : kPairs) {
    if (line.size() >= 2 && line.front() == open && line.back() == close) return text::trim(line.substr(1, line.size() - 2));
  }
  return std::nullopt;
}

// The words alone, single-spaced: "... rest unchanged ..." is "rest unchanged".
std::string lettersOnly(std::string_view words) {
  std::string out;
  for (char c : words) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool isPlaceholder(std::string_view raw) {
  std::string_view line = text::trim(raw);
  if (line.size() < 6 || line.size() > 160) return false;
  const auto inBrackets = bracketed(line);
  const bool comment = isComment(line) || inBrackets.has_value();
  std::string words = commentWords(inBrackets ? *inBrackets : line);
  const bool dots = words.find("...") != std::string::npos || words.find("\xE2\x80\xA6") != std::string::npos;
  static constexpr std::array<std::string_view, 12> kPhrases = {
      "existing code", "rest of", "remaining code", "unchanged", "omitted", "same as before",
      "previous code", "other methods", "other code", "code continues", "as before", "keep existing"};
  bool phrase = std::any_of(kPhrases.begin(), kPhrases.end(),
                            [&](std::string_view p) { return words.find(p) != std::string::npos; });
  if (words.empty()) return false;
  // Dots with words about omitted text: "// ... existing code ...".
  if (phrase && dots) return comment || words.front() == '.' || words.back() == '.';
  // A comment that is nothing but the omission: "// rest of the code".
  for (std::string_view start : {"rest of the ", "existing code", "remaining code", "other methods"}) {
    if (comment && words.rfind(start, 0) == 0 && words.size() < 60) return true;
  }
  // Nothing but the omission, in a comment or brackets: "// rest unchanged",
  // "(unchanged)", "# code omitted" (not "# sign unchanged": real comments say more).
  static constexpr std::array<std::string_view, 10> kWhole = {
      "unchanged",     "rest unchanged", "rest is unchanged", "code omitted",   "omitted",
      "rest omitted",  "same as before", "previous code",     "remaining code", "existing code"};
  const std::string bare = lettersOnly(words);
  return comment && std::find(kWhole.begin(), kWhole.end(), bare) != kWhole.end();
}

}  // namespace

// The notes Lathe itself puts where it cut a long text for the model: a
// model that copies what it was shown would write them into the file.
bool isLatheCutNote(std::string_view line) {
  static constexpr std::array<std::string_view, 3> kNotes = {
      "were left out by Lathe afterwards", "an older tool output, shortened to keep the conversation small",
      " characters omitted; "};
  return line.starts_with("[... ") &&
         std::any_of(kNotes.begin(), kNotes.end(), [&](std::string_view n) { return line.find(n) != std::string_view::npos; });
}

std::optional<std::string> newOmissionPlaceholder(std::string_view text, std::string_view before) {
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if ((isPlaceholder(line) || isLatheCutNote(text::trim(line))) && before.find(text::trim(line)) == std::string_view::npos) {
      return std::string(text::trim(line));
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return std::nullopt;
}

std::string omissionMessage(const std::string& line) {
  return "The new text contains an omission placeholder instead of real code: \"" + line +
         "\". The tool writes exactly the text it is given, so the placeholder would replace the real code. Write "
         "the complete text (for a large file, change it in parts with replace, giving enough unchanged lines "
         "around each change to make old_string unique).";
}

}  // namespace lathe::tools
