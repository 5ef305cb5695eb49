// Splitting and filling a custom command's prompt.
#include "engine/commands/command_template.h"

#include <optional>

#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr std::string_view kArgs = "{{args}}";
constexpr std::string_view kFile = "@{";
constexpr std::string_view kShell = "!{";

struct Injection {
  size_t start = 0;  // of the trigger
  size_t end = 0;    // past the closing brace
  std::string content;
};

// The injections of one trigger, braces balanced inside each.
Result<std::vector<Injection>> findInjections(std::string_view text, std::string_view trigger,
                                              const std::string& commandName) {
  std::vector<Injection> out;
  for (size_t at = text.find(trigger); at != std::string_view::npos; at = text.find(trigger, at)) {
    int depth = 1;
    size_t i = at + trigger.size();
    for (; i < text.size() && depth > 0; ++i) {
      if (text[i] == '{') ++depth;
      if (text[i] == '}') --depth;
    }
    if (depth > 0) {
      return makeError(Errc::invalid_params, "the prompt of /" + commandName + " opens " + std::string(trigger) +
                                                 " at character " + std::to_string(at) +
                                                 " and never closes it: the braces inside must balance");
    }
    std::string_view inside = text.substr(at + trigger.size(), i - 1 - (at + trigger.size()));
    out.push_back({at, i, std::string(text::trim(inside))});
    at = i;
  }
  return out;
}

std::string replaceAll(std::string_view text, std::string_view what, std::string_view with) {
  std::string out;
  size_t from = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, from)) {
    out.append(text.substr(from, at - from)).append(with);
    from = at + what.size();
  }
  out.append(text.substr(from));
  return out;
}

// JavaScript's \s, which shell-quote tests with: ASCII blanks and the Unicode spaces.
bool hasJsBlank(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || (c >= '\t' && c <= '\r')) return true;
    uint32_t cp = 0;
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (len == 1 || i + len > s.size()) continue;
    cp = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
        cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF) {
      return true;
    }
    i += len - 1;
  }
  return false;
}

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Texts of the prompt's text pieces with shell injections taken out.
Result<std::vector<TemplatePiece>> splitShell(std::string_view text, std::string_view args,
                                              const std::string& commandName) {
  std::vector<TemplatePiece> out;
  auto injections = findInjections(text, kShell, commandName);
  if (!injections) return injections.error();
  const std::string quoted = quoteShellArg(args);
  size_t from = 0;
  for (const auto& injection : *injections) {
    out.push_back({TemplatePiece::Kind::text, replaceAll(text.substr(from, injection.start - from), kArgs, args)});
    if (!injection.content.empty()) {
      out.push_back({TemplatePiece::Kind::shell, replaceAll(injection.content, kArgs, quoted)});
    }
    from = injection.end;
  }
  out.push_back({TemplatePiece::Kind::text, replaceAll(text.substr(from), kArgs, args)});
  return out;
}

}  // namespace

std::string quoteShellArg(std::string_view s) {
  if (s.empty()) return "";
  const bool quoteChar = s.find('\'') != std::string_view::npos;
  const bool blank = hasJsBlank(s);
  if ((s.find_first_of("\"\\") != std::string_view::npos || blank) && !quoteChar) {
    return "'" + std::string(s) + "'";
  }
  if (s.find('"') != std::string_view::npos || quoteChar || blank) {
    std::string out = "\"";
    for (char c : s) {
      if (std::string_view("\"\\$`!").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
    return out + "\"";
  }
  constexpr std::string_view kSpecial = "#!\"$&'()*,:;<=>?@[\\]^`{|}";
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    // A drive letter's colon before a special character stays as it is.
    if (isLetter(s[i]) && i + 2 < s.size() && s[i + 1] == ':' && kSpecial.find(s[i + 2]) != std::string_view::npos) {
      out += s[i];
      out += ':';
      out += '\\';
      out += s[i + 2];
      i += 2;
      continue;
    }
    if (kSpecial.find(s[i]) != std::string_view::npos) out += '\\';
    out += s[i];
  }
  return out;
}

Result<std::vector<TemplatePiece>> expandTemplate(std::string_view prompt, std::string_view args,
                                                  std::string_view commandLine, const std::string& commandName) {
  auto files = findInjections(prompt, kFile, commandName);
  if (!files) return files.error();
  std::vector<TemplatePiece> pieces;
  auto addText = [&](std::string_view text) -> Status {
    auto split = splitShell(text, args, commandName);
    if (!split) return split.error();
    for (auto& piece : *split) {
      if (piece.kind != TemplatePiece::Kind::text || !piece.value.empty()) pieces.push_back(std::move(piece));
    }
    return {};
  };
  size_t from = 0;
  for (const auto& file : *files) {
    if (auto status = addText(prompt.substr(from, file.start - from)); !status) return status.error();
    if (file.content.empty()) {
      return makeError(Errc::invalid_params, "the prompt of /" + commandName + " has an empty @{}: name a file or folder");
    }
    pieces.push_back({TemplatePiece::Kind::file, file.content});
    from = file.end;
  }
  if (auto status = addText(prompt.substr(from)); !status) return status.error();
  // Without {{args}}, what was typed after the name follows the prompt.
  if (prompt.find(kArgs) == std::string_view::npos && !text::trim(args).empty()) {
    if (!pieces.empty() && pieces.back().kind == TemplatePiece::Kind::text) {
      pieces.back().value += "\n\n" + std::string(commandLine);
    } else {
      pieces.push_back({TemplatePiece::Kind::text, "\n\n" + std::string(commandLine)});
    }
  }
  return pieces;
}

}  // namespace lathe::engine
