// Reading bash words from tree-sitter-bash nodes. Pure; any thread.
#include "tools/shell/shell_words.h"

#include <algorithm>

#include "tools/shell/node_children.h"

namespace lathe::tools::shell {

namespace {

// The text of a word as bash passes it, and a skeleton of its unquoted
// characters (quoted or escaped ones become '\x01') to look for globs and
// brace expansions, which only act when unquoted.
struct Builder {
  std::string text;
  std::string skeleton;
  bool literal = true;
};

constexpr char kQuoted = '\x01';

void appendDynamic(Builder& b, std::string_view raw) {
  b.literal = false;
  b.text += raw;
  b.skeleton += kQuoted;
}

void appendUnquoted(Builder& b, std::string_view raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      ++i;
      if (raw[i] == '\n') continue;  // a line continuation
      b.text += raw[i];
      b.skeleton += kQuoted;
    } else {
      b.text += raw[i];
      b.skeleton += raw[i];
    }
  }
}

// Inside "...", a backslash only escapes $ ` " \ and newline.
void appendDoubleQuoted(Builder& b, std::string_view raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size() &&
        std::string_view("$`\"\\\n").find(raw[i + 1]) != std::string_view::npos) {
      ++i;
      if (raw[i] != '\n') b.text += raw[i];
    } else {
      b.text += raw[i];
    }
  }
  b.skeleton += kQuoted;
}

void append(Builder& b, const syntax::SyntaxTree& tree, TSNode node) {
  std::string_view type = ts_node_type(node);
  std::string_view raw = tree.text(node);
  if (!ts_node_is_named(node)) {
    // A bare token where a word was expected ("$" before "..."): not plain text.
    appendDynamic(b, raw);
  } else if (type == "word") {
    appendUnquoted(b, raw);
  } else if (type == "raw_string") {
    if (raw.size() >= 2 && raw.front() == '\'' && raw.back() == '\'') {
      b.text += raw.substr(1, raw.size() - 2);
      b.skeleton += kQuoted;
    } else {
      appendDynamic(b, raw);
    }
  } else if (type == "string") {
    forEachChild(node, [&](TSNode child, std::string_view) {
      std::string_view childType = ts_node_type(child);
      if (childType == "string_content") {
        appendDoubleQuoted(b, tree.text(child));
      } else if (ts_node_is_named(child) || childType != "\"") {
        appendDynamic(b, tree.text(child));
      }
    });
    b.skeleton += kQuoted;
  } else if (type == "number") {
    if (ts_node_named_child_count(node) > 0) {
      appendDynamic(b, raw);
    } else {
      appendUnquoted(b, raw);
    }
  } else if (type == "concatenation" || type == "command_name") {
    forEachChild(node, [&](TSNode child, std::string_view) { append(b, tree, child); });
  } else {
    // Expansions, substitutions, $'...', $"...", arrays, brace expressions.
    appendDynamic(b, raw);
  }
}

bool hasGlob(std::string_view skeleton) { return skeleton.find_first_of("*?[") != std::string_view::npos; }

// {a,b} and {1..3} expand; {} and {x} do not.
bool hasBraceExpansion(std::string_view skeleton) {
  for (size_t open = skeleton.find('{'); open != std::string_view::npos; open = skeleton.find('{', open + 1)) {
    size_t close = skeleton.find('}', open + 1);
    if (close == std::string_view::npos) return false;
    std::string_view inside = skeleton.substr(open + 1, close - open - 1);
    if (inside.find(',') != std::string_view::npos || inside.find("..") != std::string_view::npos) return true;
  }
  return false;
}

std::string unescapeSome(std::string_view body, std::string_view escapable, bool dropNewline) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) {
      char next = body[i + 1];
      if (dropNewline && next == '\n') {
        ++i;
        continue;
      }
      if (escapable.find(next) != std::string_view::npos) {
        out += next;
        ++i;
        continue;
      }
    }
    out += body[i];
  }
  return out;
}

}  // namespace

Word evaluateWord(const syntax::SyntaxTree& tree, TSNode node) {
  Builder b;
  append(b, tree, node);
  if (b.literal && (hasGlob(b.skeleton) || hasBraceExpansion(b.skeleton))) b.literal = false;
  return Word{std::move(b.text), b.literal};
}

void joinWord(Word& word, const Word& next) {
  word.text += next.text;
  word.literal = word.literal && next.literal;
}

std::string unescapeBackticks(std::string_view body) { return unescapeSome(body, "\\`$", false); }

std::string unescapeHeredoc(std::string_view body) { return unescapeSome(body, "\\`$", true); }

std::string_view trustedName(std::string_view name) {
  for (std::string_view dir : {"/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/"}) {
    if (name.substr(0, dir.size()) == dir) {
      name.remove_prefix(dir.size());
      break;
    }
  }
  if (name.find('/') != std::string_view::npos) return {};
  return name;
}

bool isOption(const Word& word) { return word.text.size() > 1 && word.text[0] == '-'; }

CommandWords toCommandWords(const Words& words, bool extraArguments) {
  CommandWords command;
  command.words.reserve(words.size());
  bool prefixOpen = true;
  for (const auto& word : words) {
    command.words.push_back(word.text);
    if (!word.literal) {
      command.literal = false;
      prefixOpen = false;
    }
    if (prefixOpen) ++command.literalPrefix;
  }
  if (extraArguments) command.literal = false;
  return command;
}

Words slice(const Words& words, size_t from) {
  if (from >= words.size()) return {};
  return Words(words.begin() + static_cast<std::ptrdiff_t>(from), words.end());
}

}  // namespace lathe::tools::shell
