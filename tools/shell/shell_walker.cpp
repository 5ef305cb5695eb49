// The tree walk behind analyzeShellCommand. Pure; any thread.
#include "tools/shell/shell_walker.h"

#include <algorithm>
#include <cstdlib>
#include <cctype>

#include "tools/shell/heredoc_end.h"
#include "tools/shell/node_children.h"
#include "tools/shell/shell_words.h"
#include "tools/shell/shell_wrappers.h"
#include "tools/syntax/syntax_tree.h"

namespace lathe::tools::shell {

namespace {

constexpr int kMaxScriptDepth = 8;
// Bounds the recursion (nested scripts included): deeper lines are not
// walked further and get a reason. Chains of && and || nest in the tree but
// are walked without recursion.
constexpr int kMaxNodeDepth = 300;
constexpr const char* kTooDeep = "the command line is nested too deeply";
constexpr const char* kArithmeticReason = "arithmetic on a variable can run commands hidden in its value";

bool is(TSNode node, std::string_view type) { return type == ts_node_type(node); }

void addReason(ShellAnalysis& out, std::string text) {
  if (std::find(out.reasons.begin(), out.reasons.end(), text) == out.reasons.end())
    out.reasons.push_back(std::move(text));
}

bool isInteger(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Text between an opening and a closing token: "$((1+2))" -> "1+2".
std::string_view between(std::string_view raw, size_t open, size_t close) {
  if (raw.size() < open + close) return {};
  return raw.substr(open, raw.size() - open - close);
}

// Strips the leading tabs of every line (a <<- here-doc).
std::string stripLeadingTabs(std::string_view text) {
  std::string out;
  bool lineStart = true;
  for (char c : text) {
    if (lineStart && c == '\t') continue;
    lineStart = c == '\n';
    out += c;
  }
  return out;
}

// What bash expands in an unquoted here-doc body, read from the text: the
// grammar misses `...` there, and $(...) after leading blanks.
struct HeredocScan {
  bool dynamic = false;     // holds an expansion or substitution
  size_t dollarGroups = 0;  // $( and ${ openings
  std::vector<std::string_view> backticks;
  bool unterminated = false;  // a ` without its closing one
};

HeredocScan scanHeredoc(std::string_view body) {
  HeredocScan scan;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\\') {
      ++i;
    } else if (c == '`') {
      scan.dynamic = true;
      size_t j = i + 1;
      while (j < body.size() && body[j] != '`') j += body[j] == '\\' ? 2 : 1;
      if (j >= body.size()) {
        scan.unterminated = true;
        break;
      }
      scan.backticks.push_back(body.substr(i + 1, j - i - 1));
      i = j;
    } else if (c == '$' && i + 1 < body.size()) {
      char next = body[i + 1];
      if (next == '(' || next == '{') {
        scan.dynamic = true;
        ++scan.dollarGroups;
      } else if (std::isalnum(static_cast<unsigned char>(next)) || next == '_' ||
                 std::string_view("@*#?$!-").find(next) != std::string_view::npos) {
        scan.dynamic = true;
      }
    }
  }
  return scan;
}

// "cmd &": the operator is an unnamed child of the list or statement holding cmd.
bool hasBackgroundOperator(TSNode node) {
  for (uint32_t i = 0, n = ts_node_child_count(node); i < n; ++i) {
    TSNode child = ts_node_child(node, i);
    if (!ts_node_is_named(child) && is(child, "&")) return true;
  }
  return false;
}

bool quotedHeredoc(std::string_view start) { return start.find_first_of("'\"\\") != std::string_view::npos; }

class Walker {
 public:
  Walker(const syntax::SyntaxTree& tree, ShellAnalysis& out, const CancelToken& cancel, int scriptDepth)
      : tree_(tree), out_(out), cancel_(cancel), scriptDepth_(scriptDepth) {}

  void visit(TSNode node, int depth) {
    if (depth > kMaxNodeDepth) return addReason(out_, kTooDeep);
    std::string_view type = ts_node_type(node);
    if (type == "comment") return;
    if (type == "coproc" || hasBackgroundOperator(node)) out_.startsBackground = true;
    if (type == "list") return list(node, depth);
    if (type == "command") return command(node, {}, depth);
    if (type == "redirected_statement") return redirectedStatement(node, depth);
    if (type == "function_definition") {
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      addReason(out_,
                "defines a function" + (ts_node_is_null(name) ? std::string() : ": " + std::string(tree_.text(name))));
      return visitChildren(node, depth);
    }
    if (type == "file_redirect") return fileRedirect(node, depth);
    if (type == "heredoc_body") return heredocBody(node, depth);
    if (type == "heredoc_redirect") {
      heredocEnd(node);
      return visitChildren(node, depth);
    }
    if (type == "test_command") return testCommand(node, depth);
    if (type == "declaration_command" || type == "unset_command") return declaration(node, depth);
    if (type == "variable_assignment") return assignment(node, depth);
    if (type == "command_substitution") return commandSubstitution(node, depth);
    if (type == "arithmetic_expansion") {
      std::string_view raw = tree_.text(node);
      arithmetic(raw.substr(0, 3) == "$((" ? between(raw, 3, 2) : between(raw, 2, 1));
      return visitChildren(node, depth);
    }
    if (type == "c_style_for_statement") {
      for (const char* field : {"initializer", "condition", "update"}) {
        TSNode part =
            ts_node_child_by_field_name(node, field, static_cast<uint32_t>(std::char_traits<char>::length(field)));
        if (!ts_node_is_null(part)) arithmetic(tree_.text(part));
      }
      return visitChildren(node, depth);
    }
    if (type == "subscript") {
      TSNode index = ts_node_child_by_field_name(node, "index", 5);
      std::string_view text = ts_node_is_null(index) ? std::string_view() : tree_.text(index);
      if (text != "@" && text != "*" && arithmeticNamesVariables(text)) addReason(out_, kArithmeticReason);
      return visitChildren(node, depth);
    }
    if (type == "expansion") {
      expansion(node);
      return visitChildren(node, depth);
    }
    visitChildren(node, depth);
  }

 private:
  void visitChildren(TSNode node, int depth) {
    forEachNamedChild(node, [&](TSNode child, std::string_view) { visit(child, depth + 1); });
  }

  // a && b || c nests to the left; the spine is walked in a loop.
  void list(TSNode node, int depth) {
    std::vector<TSNode> later;  // right-hand sides, innermost last
    TSNode current = node;
    while (is(current, "list")) {
      std::vector<TSNode> children;
      forEachNamedChild(current, [&](TSNode child, std::string_view) { children.push_back(child); });
      if (children.empty()) return;
      later.insert(later.end(), children.rbegin(), children.rend() - 1);
      current = children.front();
    }
    visit(current, depth + 1);
    for (auto it = later.rbegin(); it != later.rend(); ++it) visit(*it, depth + 1);
  }

  void redirectedStatement(TSNode node, int depth) {
    TSNode body = ts_node_child_by_field_name(node, "body", 4);
    std::vector<TSNode> redirects;
    forEachNamedChild(node, [&](TSNode child, std::string_view field) {
      if (field != "body") redirects.push_back(child);
    });
    if (!ts_node_is_null(body) && is(body, "command")) return command(body, redirects, depth + 1);
    if (!ts_node_is_null(body)) visit(body, depth + 1);
    for (TSNode redirect : redirects) visit(redirect, depth + 1);
  }

  // Two word nodes bash reads as one: nothing, or only line continuations,
  // between them ("a\<newline>b" is "ab"; tree-sitter splits it).
  bool touching(TSNode left, TSNode right) const {
    uint32_t from = ts_node_end_byte(left);
    uint32_t to = ts_node_start_byte(right);
    std::string_view gap = std::string_view(tree_.source()).substr(from, to > from ? to - from : 0);
    while (gap.substr(0, 2) == "\\\n") gap.remove_prefix(2);
    return gap.empty();
  }

  void command(TSNode node, const std::vector<TSNode>& outerRedirects, int depth) {
    std::vector<TSNode> wordNodes, redirects, assignments, others;
    forEachChild(node, [&](TSNode child, std::string_view field) {
      if (field == "name" || field == "argument") {
        wordNodes.push_back(child);
      } else if (field == "redirect") {
        redirects.push_back(child);
      } else if (is(child, "variable_assignment")) {
        assignments.push_back(child);
      } else if (ts_node_is_named(child)) {
        others.push_back(child);
      }
    });
    redirects.insert(redirects.end(), outerRedirects.begin(), outerRedirects.end());

    Words words;
    for (size_t k = 0; k < wordNodes.size(); ++k) {
      Word word = evaluateWord(tree_, wordNodes[k]);
      if (k > 0 && touching(wordNodes[k - 1], wordNodes[k])) {
        joinWord(words.back(), word);
      } else {
        words.push_back(std::move(word));
      }
    }
    for (TSNode assignmentNode : assignments) assignment(assignmentNode, depth + 1);
    if (!words.empty()) {
      ResolveContext context{out_, [this, depth](std::string_view script) { nested(script, depth); }};
      resolveCommand(words, inputOf(redirects), context);
    }
    for (TSNode wordNode : wordNodes) visit(wordNode, depth + 1);
    for (TSNode other : others) visit(other, depth + 1);
    for (TSNode redirect : redirects) visit(redirect, depth + 1);
  }

  // The command's standard input, from its last input redirection.
  ShellInput inputOf(const std::vector<TSNode>& redirects) const {
    ShellInput input;
    for (TSNode redirect : redirects) {
      if (is(redirect, "heredoc_redirect")) {
        input = heredoc(redirect);
      } else if (is(redirect, "herestring_redirect")) {
        TSNode value = ts_node_named_child(redirect, ts_node_named_child_count(redirect) - 1);
        Word word = ts_node_is_null(value) ? Word{} : evaluateWord(tree_, value);
        input = ShellInput{ShellInput::Kind::herestring, word.text, word.literal};
      } else if (is(redirect, "file_redirect") && redirectOperator(redirect) == "<") {
        TSNode descriptor = ts_node_child_by_field_name(redirect, "descriptor", 10);
        if (ts_node_is_null(descriptor) || tree_.text(descriptor) == "0") {
          input = ShellInput{ShellInput::Kind::file, {}, true};
        }
      }
    }
    return input;
  }

  ShellInput heredoc(TSNode redirect) const {
    std::string_view op, start;
    TSNode body{};
    bool hasBody = false;
    forEachChild(redirect, [&](TSNode child, std::string_view) {
      if (!ts_node_is_named(child) && op.empty()) op = ts_node_type(child);
      if (is(child, "heredoc_start")) start = tree_.text(child);
      if (is(child, "heredoc_body")) {
        body = child;
        hasBody = true;
      }
    });
    ShellInput input{ShellInput::Kind::heredoc, {}, true};
    if (!hasBody) return input;
    std::string_view text = tree_.text(body);
    if (quotedHeredoc(start)) {
      input.text = std::string(text);
    } else {
      input.literal = !scanHeredoc(text).dynamic;
      input.text = unescapeHeredoc(text);
    }
    if (op == "<<-") input.text = stripLeadingTabs(input.text);
    return input;
  }

  std::string_view redirectOperator(TSNode redirect) const {
    std::string_view op;
    forEachChild(redirect, [&](TSNode child, std::string_view) {
      if (!ts_node_is_named(child) && op.empty()) op = ts_node_type(child);
    });
    return op;
  }

  // The substitutions of an unquoted here-doc run when it is read. The
  // grammar misses some: backticks are read again from the text, and a
  // $(...) or ${...} it did not parse makes the line unsafe.
  void heredocBody(TSNode node, int depth) {
    visitChildren(node, depth);
    TSNode redirect = ts_node_parent(node);
    bool quoted = false;
    if (!ts_node_is_null(redirect)) {
      forEachNamedChild(redirect, [&](TSNode child, std::string_view) {
        if (is(child, "heredoc_start")) quoted = quotedHeredoc(tree_.text(child));
      });
    }
    if (quoted) return;
    HeredocScan scan = scanHeredoc(tree_.text(node));
    for (std::string_view body : scan.backticks) nested(unescapeBackticks(body), depth);
    if (scan.unterminated || scan.dollarGroups > countDollarGroups(node, depth)) {
      addReason(out_, "a here-doc holds substitutions the parser did not read");
    }
  }

  // The parse and bash must end the here-doc on the same line: where they
  // could disagree (<<E"O"F, whose end bash reads as EOF, or a line joined
  // by a backslash), what one reads as text the other may run.
  void heredocEnd(TSNode redirect) {
    std::string_view op, start;
    TSNode body{}, end{};
    forEachChild(redirect, [&](TSNode child, std::string_view) {
      if (!ts_node_is_named(child) && op.empty()) op = ts_node_type(child);
      if (is(child, "heredoc_start")) start = tree_.text(child);
      if (is(child, "heredoc_body")) body = child;
      if (is(child, "heredoc_end")) end = child;
    });
    constexpr const char* kDisagree = "bash may end this here-doc on another line than the parser did";
    auto delimiter = heredocDelimiter(start);
    if (ts_node_is_null(end) || !delimiter) return addReason(out_, kDisagree);
    const std::string_view source = tree_.source();
    auto lineStart = [&](uint32_t byte) {
      size_t newline = source.rfind('\n', byte == 0 ? 0 : byte - 1);
      return byte == 0 || newline == std::string_view::npos ? size_t{0} : newline + 1;
    };
    size_t endLine = lineStart(ts_node_start_byte(end));
    size_t bodyStart = ts_node_is_null(body) ? endLine : lineStart(ts_node_start_byte(body));
    if (!bashEndsHeredocAt(source, bodyStart, endLine, *delimiter, quotedHeredoc(start), op == "<<-")) {
      addReason(out_, kDisagree);
    }
  }

  size_t countDollarGroups(TSNode node, int depth) const {
    size_t total = 0;
    if (depth > kMaxNodeDepth) return total;
    forEachNamedChild(node, [&](TSNode child, std::string_view) {
      std::string_view type = ts_node_type(child);
      bool group = type == "command_substitution" || type == "arithmetic_expansion" || type == "expansion";
      std::string_view raw = tree_.text(child);
      size_t first = raw.find_first_not_of(" \t\n");
      if (group && first != std::string_view::npos && raw[first] == '$') ++total;
      total += countDollarGroups(child, depth + 1);
    });
    return total;
  }

  void fileRedirect(TSNode node, int depth) {
    std::string_view op = redirectOperator(node);
    TSNode destination = ts_node_child_by_field_name(node, "destination", 11);
    if (ts_node_is_null(destination)) return visitChildren(node, depth);
    bool writes = op == ">" || op == ">>" || op == "&>" || op == "&>>" || op == ">|" || op == "<>";
    if (op == ">&") {
      // >&2 and >&- duplicate or close a descriptor; ">& file" writes file
      // (while "&> 2" always writes a file named 2).
      std::string_view target = tree_.text(destination);
      writes = !(is(destination, "number") || isInteger(target) || target == "-");
    }
    if (writes && !is(destination, "process_substitution")) {
      Word file = evaluateWord(tree_, destination);
      bool harmless = file.text == "/dev/null" || file.text == "/dev/stdout" || file.text == "/dev/stderr";
      auto& files = out_.writtenFiles;
      if (!harmless && std::find(files.begin(), files.end(), file.text) == files.end()) files.push_back(file.text);
    }
    visitChildren(node, depth);
  }

  // [[ ... ]], [ ... ] and (( ... )): a builtin that only tests.
  void testCommand(TSNode node, int depth) {
    Words words;
    flatten(node, words, depth);
    out_.commands.push_back(toCommandWords(words, false));
    std::string_view opener = words.empty() ? std::string_view() : std::string_view(words.front().text);
    std::string_view raw = tree_.text(node);
    if (opener == "((") arithmetic(between(raw, 2, 2));
    if (opener == "[[" || opener == "[") testOperands(node, opener == "[[", depth);
    visitChildren(node, depth);
  }

  void flatten(TSNode node, Words& words, int depth) {
    if (depth > kMaxNodeDepth) return addReason(out_, kTooDeep);
    forEachChild(node, [&](TSNode child, std::string_view) {
      std::string_view type = ts_node_type(child);
      bool expression = type == "binary_expression" || type == "unary_expression" ||
                        type == "parenthesized_expression" || type == "ternary_expression" ||
                        type == "postfix_expression";
      if (expression) {
        flatten(child, words, depth + 1);
      } else if (!ts_node_is_named(child) || type == "test_operator") {
        words.push_back(Word{std::string(tree_.text(child)), true});
      } else {
        words.push_back(evaluateWord(tree_, child));
      }
    });
  }

  // In [[ ]], -eq and friends evaluate their operands as arithmetic, and -v
  // (in [ ] too) evaluates a subscript: a variable can then run commands.
  void testOperands(TSNode node, bool doubleBracket, int depth) {
    if (depth > kMaxNodeDepth) return addReason(out_, kTooDeep);
    std::string_view type = ts_node_type(node);
    if (type == "binary_expression" && doubleBracket) {
      TSNode op = ts_node_child_by_field_name(node, "operator", 8);
      std::string_view text = ts_node_is_null(op) ? std::string_view() : tree_.text(op);
      if (text == "-eq" || text == "-ne" || text == "-lt" || text == "-le" || text == "-gt" || text == "-ge") {
        for (const char* side : {"left", "right"}) {
          TSNode operand =
              ts_node_child_by_field_name(node, side, static_cast<uint32_t>(std::char_traits<char>::length(side)));
          if (ts_node_is_null(operand)) continue;
          Word word = evaluateWord(tree_, operand);
          if (!word.literal || !isInteger(word.text)) addReason(out_, kArithmeticReason);
        }
      }
    }
    if (type == "unary_expression") {
      TSNode op = ts_node_child_by_field_name(node, "operator", 8);
      std::string_view text = ts_node_is_null(op) ? std::string_view() : tree_.text(op);
      if (text == "-v" || text == "-R") {
        forEachNamedChild(node, [&](TSNode operand, std::string_view field) {
          if (field == "operator") return;
          Word word = evaluateWord(tree_, operand);
          if (!word.literal || word.text.find('[') != std::string::npos) {
            addReason(out_, "a subscript can run commands hidden in a variable");
          }
        });
      }
    }
    forEachNamedChild(node, [&](TSNode child, std::string_view) { testOperands(child, doubleBracket, depth + 1); });
  }

  // export/declare/local/readonly/typeset/unset: listed as commands; their
  // assignments are checked like any other.
  void declaration(TSNode node, int depth) {
    Words words;
    bool integerAttribute = false;
    forEachChild(node, [&](TSNode child, std::string_view) {
      if (!ts_node_is_named(child)) {
        if (words.empty()) words.push_back(Word{std::string(tree_.text(child)), true});
        return;
      }
      if (is(child, "variable_assignment")) {
        TSNode name = ts_node_child_by_field_name(child, "name", 4);
        TSNode value = ts_node_child_by_field_name(child, "value", 5);
        Word word{std::string(tree_.text(name)) + "=", true};
        if (!ts_node_is_null(value)) {
          Word valueWord = evaluateWord(tree_, value);
          joinWord(word, valueWord);
          if (integerAttribute && arithmeticNamesVariables(valueWord.text)) addReason(out_, kArithmeticReason);
        }
        words.push_back(std::move(word));
        assignment(child, depth + 1);
        return;
      }
      Word word = evaluateWord(tree_, child);
      if (isOption(word) && word.text.find('i') != std::string::npos) integerAttribute = true;
      if (!isOption(word) && (!word.literal || word.text.find('[') != std::string::npos) && is(node, "unset_command")) {
        addReason(out_, "a subscript can run commands hidden in a variable");
      }
      words.push_back(std::move(word));
      visit(child, depth + 1);
    });
    if (!words.empty()) out_.commands.push_back(toCommandWords(words, false));
  }

  // NAME=VALUE, alone or before a command.
  void assignment(TSNode node, int depth) {
    TSNode name = ts_node_child_by_field_name(node, "name", 4);
    TSNode value = ts_node_child_by_field_name(node, "value", 5);
    std::string_view nameText;
    if (!ts_node_is_null(name)) {
      TSNode variable = is(name, "subscript") ? ts_node_child_by_field_name(name, "name", 4) : name;
      nameText = ts_node_is_null(variable) ? std::string_view() : tree_.text(variable);
    }
    Word valueWord = ts_node_is_null(value) ? Word{} : evaluateWord(tree_, value);
    if (auto hazard = assignmentHazard(nameText, valueWord)) addReason(out_, *hazard);
    // Before a command, an assignment reaches its environment; alone, only
    // when the variable is already exported (inherited from Lathe's own).
    const bool prefix = !ts_node_is_null(ts_node_parent(node)) && is(ts_node_parent(node), "command");
    const bool exported = std::getenv(std::string(nameText).c_str()) != nullptr;
    if ((prefix || exported) && !harmlessAssignment(nameText, valueWord)) {
      std::string why = "assigns " + std::string(nameText);
      if (std::find(out_.notReadOnly.begin(), out_.notReadOnly.end(), why) == out_.notReadOnly.end()) {
        out_.notReadOnly.push_back(std::move(why));
      }
    }
    visitChildren(node, depth);
  }

  void commandSubstitution(TSNode node, int depth) {
    std::string_view raw = tree_.text(node);
    size_t open = raw.find('`');
    if (open != std::string_view::npos && raw.substr(0, open).find_first_not_of(" \t\n") == std::string_view::npos) {
      // `...`: backslashes inside hide a nested `...` from the parse; read
      // the body again as the inner shell will.
      size_t close = raw.rfind('`');
      std::string_view body = close > open ? raw.substr(open + 1, close - open - 1) : std::string_view();
      if (body.find('\\') != std::string_view::npos) return nested(unescapeBackticks(body), depth);
    }
    visitChildren(node, depth);
  }

  void arithmetic(std::string_view text) {
    if (arithmeticNamesVariables(text)) addReason(out_, kArithmeticReason);
  }

  // ${!name} reads the variable named by a value; ${x@P} expands a value as
  // a prompt: both can run commands hidden in a variable.
  void expansion(TSNode node) {
    std::string_view raw = tree_.text(node);
    bool indirect = raw.substr(0, 3) == "${!" && raw.size() > 4 && raw[raw.size() - 2] != '*' &&
                    raw[raw.size() - 2] != '@' && raw.find("[@]") == std::string_view::npos &&
                    raw.find("[*]") == std::string_view::npos;
    bool prompt = raw.size() > 3 && raw.substr(raw.size() - 3) == "@P}";
    if (indirect || prompt) addReason(out_, "an indirect expansion can run commands hidden in a variable");
  }

  // A script this line runs, walked on from the current depth.
  void nested(std::string_view script, int depth) {
    if (scriptDepth_ + 1 > kMaxScriptDepth) return addReason(out_, "scripts are nested too deeply");
    analyzeScript(script, out_, cancel_, scriptDepth_ + 1, depth + 1);
  }

  const syntax::SyntaxTree& tree_;
  ShellAnalysis& out_;
  const CancelToken& cancel_;
  int scriptDepth_;
};

// True when every byte that is not blank is inside a token of the tree, and
// every token is spelled as its kind. The grammar sometimes drops text
// without an ERROR node ("python3 - <<EOF" loses the "-", "ls -x<<EOF" hides
// "-x" inside the "<<"); what it drops cannot be judged.
bool coversSource(const syntax::SyntaxTree& tree) {
  const std::string& source = tree.source();
  std::vector<char> covered(source.size() + 1, 0);
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  bool done = false;
  while (!done) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    // A here-doc body is text with expansions in it: covered as a whole.
    bool leaf = ts_node_child_count(node) == 0 || is(node, "heredoc_body");
    if (leaf && !ts_node_is_named(node)) {
      // A token is its own spelling, give or take blanks; "-x<<EOF" lexes
      // as one "<<" token holding "-x".
      std::string_view text = tree.text(node);
      size_t first = text.find_first_not_of(" \t\n\r");
      size_t last = text.find_last_not_of(" \t\n\r");
      std::string_view token =
          first == std::string_view::npos ? std::string_view() : text.substr(first, last - first + 1);
      if (token != ts_node_type(node)) {
        ts_tree_cursor_delete(&cursor);
        return false;
      }
    }
    if (leaf) {
      uint32_t end = std::min<uint32_t>(ts_node_end_byte(node), static_cast<uint32_t>(source.size()));
      for (uint32_t i = ts_node_start_byte(node); i < end; ++i) covered[i] = 1;
    }
    if (!leaf && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  for (size_t i = 0; i < source.size(); ++i) {
    if (covered[i]) continue;
    char c = source[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '\\' && i + 1 < source.size() && source[i + 1] == '\n' && !covered[i + 1]) {
      ++i;  // a line continuation
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace

void analyzeScript(std::string_view script, ShellAnalysis& out, const CancelToken& cancel, int scriptDepth,
                   int nodeDepth) {
  auto tree = syntax::SyntaxTree::parse(syntax::Language::bash, std::string(script), cancel);
  if (!tree) {
    out.parsed = false;
    addReason(out, cancel.cancelled() ? "the analysis was cancelled" : "the command line could not be parsed");
    return;
  }
  TSNode root = tree->root();
  if (ts_node_has_error(root)) {
    out.parsed = false;
    addReason(out, scriptDepth == 0 ? "the command line does not parse" : "a script it runs does not parse");
    return;
  }
  if (!coversSource(*tree)) {
    out.parsed = false;
    addReason(out, "the parser skipped part of the command line");
    return;
  }
  Walker(*tree, out, cancel, scriptDepth).visit(root, nodeDepth);
}

}  // namespace lathe::tools::shell
