// Parsing an MCP prompt's arguments from a command's input.
#include "engine/commands/prompt_arguments.h"

#include <algorithm>

#include "tools/core/shell_words.h"

namespace lathe::engine {

Result<std::map<std::string, std::string>> promptArguments(const tools::mcp::ListedPrompt& prompt,
                                                           std::string_view input) {
  auto split = tools::splitShellWords(input);
  if (split.unclosedQuote) {
    return makeError(Errc::invalid_params, std::string("a ") + split.unclosedQuote + " quote is not closed");
  }
  const auto& declared = prompt.arguments;
  auto isDeclared = [&](const std::string& name) {
    return std::any_of(declared.begin(), declared.end(), [&](const auto& a) { return a.name == name; });
  };
  std::map<std::string, std::string> values;
  std::vector<std::string> positional;
  for (auto& word : split.words) {
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
