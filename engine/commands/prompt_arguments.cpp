// Parsing an MCP prompt's arguments from a command's input.
#include "engine/commands/prompt_arguments.h"

#include <algorithm>

namespace lathe::engine {

Result<std::vector<std::string>> splitWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (inWord) words.push_back(std::exchange(word, {}));
      inWord = false;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return makeError(Errc::invalid_params, std::string("a ") + quote + " quote is not closed");
  if (inWord) words.push_back(std::move(word));
  return words;
}

Result<std::map<std::string, std::string>> promptArguments(const tools::mcp::ListedPrompt& prompt,
                                                           std::string_view input) {
  auto words = splitWords(input);
  if (!words) return words.error();
  const auto& declared = prompt.arguments;
  auto isDeclared = [&](const std::string& name) {
    return std::any_of(declared.begin(), declared.end(), [&](const auto& a) { return a.name == name; });
  };
  std::map<std::string, std::string> values;
  std::vector<std::string> positional;
  for (auto& word : *words) {
    if (word.rfind("--", 0) == 0 && word.find('=') != std::string::npos) {
      std::string name = word.substr(2, word.find('=') - 2);
      if (!isDeclared(name)) {
        return makeError(Errc::invalid_params, "the prompt has no argument \"" + name + "\" (it takes: " +
                                                   (declared.empty() ? std::string("none") : promptHint(prompt)) + ")");
      }
      values[name] = word.substr(word.find('=') + 1);
    } else {
      positional.push_back(std::move(word));
    }
  }
  size_t next = 0;
  for (const auto& argument : declared) {
    if (next == positional.size()) break;
    if (!values.count(argument.name)) values[argument.name] = std::move(positional[next++]);
  }
  if (next < positional.size()) {
    return makeError(Errc::invalid_params, "too many values: the prompt takes " +
                                               (declared.empty() ? std::string("no arguments") : promptHint(prompt)) +
                                               " (quote a value that holds spaces)");
  }
  for (const auto& argument : declared) {
    if (argument.required && !values.count(argument.name)) {
      return makeError(Errc::invalid_params, "missing the required argument \"" + argument.name + "\"" +
                                                 (argument.description.empty() ? "" : " (" + argument.description + ")") +
                                                 "; usage: " + promptHint(prompt));
    }
  }
  return values;
}

std::string promptHint(const tools::mcp::ListedPrompt& prompt) {
  std::string hint;
  for (const auto& argument : prompt.arguments) {
    if (!hint.empty()) hint += ' ';
    hint += argument.required ? "<" + argument.name + ">" : "[" + argument.name + "]";
  }
  return hint;
}

}  // namespace lathe::engine
