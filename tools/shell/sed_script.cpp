// A small scanner for GNU sed scripts and options. Pure; any thread.
#include "tools/shell/sed_script.h"

#include <algorithm>
#include <cctype>

namespace lathe::tools::shell {

namespace {

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

class SedScanner {
 public:
  explicit SedScanner(std::string_view script) : s_(script) {}

  // Reads the whole script; false when it is not one this scanner knows.
  // writes() and runs() then tell what its commands do.
  bool scan() {
    while (true) {
      while (more() && (std::isspace(static_cast<unsigned char>(peek())) || peek() == ';' || peek() == '}')) ++i_;
      if (!more()) return true;
      if (peek() == '#') {
        skipLine();
        continue;
      }
      if (!addressRange()) return false;
      skipBlanks();
      while (more() && peek() == '!') {
        ++i_;
        skipBlanks();
      }
      if (!more()) return false;
      char command = s_[i_++];
      auto in = [command](std::string_view set) { return set.find(command) != std::string_view::npos; };
      if (command == '{') continue;
      if (in("=dDgGhHnNpPxzF")) {
        // prints, deletes, or moves text between the buffers
      } else if (in("lLqQ")) {
        skipBlanks();
        digits();
      } else if (in("btT:")) {
        label();
      } else if (in("aic")) {
        skipText();  // prints text
      } else if (in("rR")) {
        skipLine();  // reads a file into the output
      } else if (command == 's') {
        if (!substitute()) return false;
      } else if (command == 'y') {
        if (!transliterate()) return false;
      } else if (command == 'w' || command == 'W') {
        writes_ = true;
        skipLine();  // the file name runs to the end of the line
      } else if (command == 'e') {
        runs_ = true;  // runs its argument, or the pattern space, as a shell command
        skipLine();
      } else {
        return false;  // v and anything unknown
      }
      skipBlanks();
      if (more() && peek() != ';' && peek() != '\n' && peek() != '}' && peek() != '#') return false;
    }
  }

 public:
  bool writes() const { return writes_; }
  bool runs() const { return runs_; }

 private:
  bool more() const { return i_ < s_.size(); }
  char peek() const { return s_[i_]; }
  void skipBlanks() {
    while (more() && (peek() == ' ' || peek() == '\t')) ++i_;
  }
  void skipLine() {
    while (more() && peek() != '\n') ++i_;
  }
  // a/i/c text: to the end of the line, lines ending in a backslash continue.
  void skipText() {
    while (more()) {
      char c = s_[i_++];
      if (c == '\\' && more()) {
        ++i_;
        continue;
      }
      if (c == '\n') return;
    }
  }
  // A label, as GNU sed reads one: after blanks, up to a blank, a newline
  // or a semicolon ("b end w file" branches to "end", then writes a file).
  void label() {
    skipBlanks();
    while (more() && !std::isspace(static_cast<unsigned char>(peek())) && peek() != ';') ++i_;
  }
  void digits() {
    while (more() && std::isdigit(static_cast<unsigned char>(peek()))) ++i_;
  }

  bool addressRange() {
    if (!address()) return false;
    skipBlanks();
    if (more() && peek() == ',') {
      ++i_;
      skipBlanks();
      if (more() && (peek() == '+' || peek() == '~')) {
        ++i_;
        digits();
        return true;
      }
      return address();
    }
    return true;
  }

  bool address() {
    if (!more()) return true;
    char c = peek();
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits();
      if (more() && peek() == '~') {
        ++i_;
        digits();
      }
      return true;
    }
    if (c == '$') {
      ++i_;
      return true;
    }
    if (c == '/' || c == '\\') {
      ++i_;
      char delimiter = '/';
      if (c == '\\') {
        if (!more()) return false;
        delimiter = s_[i_++];
      }
      if (!regex(delimiter)) return false;
      while (more() && (peek() == 'I' || peek() == 'M')) ++i_;
    }
    return true;
  }

  // To the unescaped delimiter, past bracket expressions (where the
  // delimiter is a plain character).
  bool regex(char delimiter) {
    while (more()) {
      char c = s_[i_];
      if (c == '\\') {
        i_ += 2;
        continue;
      }
      if (c == '\n') return false;
      if (c == delimiter) {
        ++i_;
        return true;
      }
      if (c == '[') {
        if (!bracket()) return false;
        continue;
      }
      ++i_;
    }
    return false;
  }

  // A bracket expression, from its '[' past its ']'. A backslash is a plain
  // character inside; "]" first (after an optional "^") is a member; and
  // "[:", "[." and "[=" open a class, collating symbol or equivalence class
  // that runs to ":]", ".]" or "=]" ("[[:alpha:]/]" holds the slash, so the
  // slash does not end the regex).
  bool bracket() {
    ++i_;
    if (more() && peek() == '^') ++i_;
    if (more() && peek() == ']') ++i_;
    while (more() && peek() != ']') {
      if (peek() == '\n') return false;
      if (peek() == '[' && i_ + 1 < s_.size() && (s_[i_ + 1] == ':' || s_[i_ + 1] == '.' || s_[i_ + 1] == '=')) {
        const char close[] = {s_[i_ + 1], ']', '\0'};
        size_t end = s_.find(close, i_ + 2);
        if (end == std::string_view::npos || s_.substr(i_, end - i_).find('\n') != std::string_view::npos) return false;
        i_ = end + 2;
        continue;
      }
      ++i_;
    }
    if (!more()) return false;
    ++i_;
    return true;
  }

  bool replacement(char delimiter) {
    while (more()) {
      char c = s_[i_++];
      if (c == '\\') {
        ++i_;
        continue;
      }
      if (c == delimiter) return true;
    }
    return false;
  }

  bool substitute() {
    if (!more() || peek() == '\n' || peek() == '\\') return false;
    char delimiter = s_[i_++];
    if (!regex(delimiter) || !replacement(delimiter)) return false;
    while (more()) {
      char flag = peek();
      if (flag == 'w') {  // writes a file named by the rest of the line
        writes_ = true;
        skipLine();
        return true;
      }
      if (flag == 'e') {  // runs the pattern space as a shell command
        runs_ = true;
        ++i_;
        continue;
      }
      if (flag == ' ' || flag == '\t') {  // GNU sed allows blanks among the flags ("s/a/b/ w file")
        ++i_;
        continue;
      }
      if (flag == 'g' || flag == 'p' || flag == 'i' || flag == 'I' || flag == 'm' || flag == 'M' ||
          std::isdigit(static_cast<unsigned char>(flag))) {
        ++i_;
        continue;
      }
      break;
    }
    return true;
  }

  bool transliterate() {
    if (!more() || peek() == '\n' || peek() == '\\') return false;
    char delimiter = s_[i_++];
    return replacement(delimiter) && replacement(delimiter);
  }

  std::string_view s_;
  size_t i_ = 0;
  bool writes_ = false;
  bool runs_ = false;
};

}  // namespace

bool sedScriptOnlyPrints(std::string_view script) {
  SedScanner scanner(script);
  return scanner.scan() && !scanner.writes() && !scanner.runs();
}

bool sedScriptMayRunCommands(std::string_view script) {
  SedScanner scanner(script);
  return !scanner.scan() || scanner.runs();
}

bool sedMayRunCommands(const std::vector<std::string>& arguments) {
  // --sandbox (an option: before "--") makes GNU sed refuse e, r and w.
  const auto optionsEnd = std::find(arguments.begin(), arguments.end(), "--");
  if (std::find(arguments.begin(), optionsEnd, "--sandbox") != optionsEnd) return false;
  std::vector<std::string> scripts;
  std::vector<std::string> operands;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    if (a.size() < 2 || a[0] != '-') {
      operands.push_back(a);
    } else if (a == "--") {
      operands.insert(operands.end(), arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, arguments.end());
      break;
    } else if (startsWith(a, "--file")) {
      return true;  // a script the line does not show
    } else if (a == "--expression") {
      if (++i >= arguments.size()) return true;
      scripts.push_back(arguments[i]);
    } else if (startsWith(a, "--expression=")) {
      scripts.push_back(a.substr(13));
    } else if (a[1] == '-') {
      // Long options GNU sed also takes abbreviated (--expr=...): only the
      // ones known to take no script may pass.
      static constexpr const char* kHarmless[] = {"--quiet",  "--silent",         "--regexp-extended", "--separate",
                                                  "--unbuffered", "--null-data",  "--posix",           "--debug",
                                                  "--binary", "--follow-symlinks", "--in-place",       "--line-length",
                                                  "--zero-terminated", "--sandbox"};
      const std::string option = a.substr(0, a.find('='));
      if (std::none_of(std::begin(kHarmless), std::end(kHarmless), [&](const char* h) { return option == h; })) return true;
    } else {
      // A cluster such as -ne SCRIPT or -i.bak: e, f and l take the rest (or the next word), i a suffix.
      for (size_t j = 1; j < a.size(); ++j) {
        if (a[j] == 'f') return true;
        if (a[j] == 'i') break;
        if (a[j] == 'e' || a[j] == 'l') {
          std::string value = j + 1 < a.size() ? a.substr(j + 1) : (i + 1 < arguments.size() ? arguments[++i] : "");
          if (a[j] == 'e') scripts.push_back(std::move(value));
          break;
        }
      }
    }
  }
  if (scripts.empty() && !operands.empty()) scripts.push_back(operands.front());
  std::string joined;
  for (const auto& script : scripts) joined += (joined.empty() ? "" : "\n") + script;
  return sedScriptMayRunCommands(joined);
}

bool sedOnlyPrints(const std::vector<std::string>& arguments) {
  std::vector<std::string> scripts;  // from -e / --expression
  std::vector<std::string> operands;
  bool optionsEnded = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    if (optionsEnded || a.size() < 2 || a[0] != '-') {
      operands.push_back(a);
      continue;
    }
    if (a == "--") {
      optionsEnded = true;
    } else if (a == "--expression") {
      if (++i >= arguments.size()) return false;
      scripts.push_back(arguments[i]);
    } else if (startsWith(a, "--expression=")) {
      scripts.push_back(a.substr(13));
    } else if (a == "--line-length") {
      ++i;
    } else if (startsWith(a, "--")) {
      if (!(a == "--quiet" || a == "--silent" || a == "--regexp-extended" || a == "--separate" || a == "--unbuffered" ||
            a == "--null-data" || a == "--posix" || a == "--debug" || a == "--sandbox" || a == "--binary" ||
            a == "--follow-symlinks" || startsWith(a, "--line-length="))) {
        return false;  // --in-place, --file and anything unknown
      }
    } else {
      for (size_t j = 1; j < a.size(); ++j) {
        char c = a[j];
        if (c == 'e' || c == 'l') {
          std::string value = j + 1 < a.size() ? a.substr(j + 1) : (i + 1 < arguments.size() ? arguments[++i] : "");
          if (c == 'e') scripts.push_back(std::move(value));
          break;
        }
        if (c != 'n' && c != 'E' && c != 'r' && c != 's' && c != 'u' && c != 'z' && c != 'b')
          return false;  // -i, -f, ...
      }
    }
  }
  // Without -e, the first operand is the script; the rest are files.
  if (scripts.empty()) {
    if (operands.empty()) return false;
    scripts.push_back(operands.front());
  }
  // GNU sed joins the -e pieces with newlines into one script ("a\" ending
  // one piece takes the next as its text), so they are read as one.
  std::string joined;
  for (const auto& script : scripts) joined += (joined.empty() ? "" : "\n") + script;
  return sedScriptOnlyPrints(joined);
}

}  // namespace lathe::tools::shell
