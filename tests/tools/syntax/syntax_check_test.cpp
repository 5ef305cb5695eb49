// Syntax checks after edits: problems found in each grammar with their line,
// column and snippet; the "introduced" rule (a clean file broken, a new file
// broken, an already-broken file edited elsewhere left alone); unknown
// languages and large files skipped; write_file and replace reporting the
// warning to the model and the person while the write stands.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

#include "tools/files/file_tools.h"
#include "tools/syntax/syntax_check.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
using namespace lathe::tools::syntax;
namespace fs = std::filesystem;

namespace {

// A valid file, an edit that breaks it (and where the break is reported), and
// an edit elsewhere that breaks nothing.
struct Case {
  const char* file;
  const char* valid;
  const char* breakOld;
  const char* breakNew;
  const char* expect;  // "line L:C: kind"
  const char* benignOld;
  const char* benignNew;
};

const Case kCases[] = {
    {"run.sh",
     "greet() {\n  echo \"hi $1\"\n}\n\nif [ -n \"$X\" ]; then\n  greet x\nfi\n",
     "if [ -n \"$X\" ]; then", "if [ -n \"$X\" ] then", "line 5:15: missing `;`",
     "echo \"hi $1\"", "echo \"hello $1\""},
    {"add.c",
     "int add(int a, int b) {\n  return a + b;\n}\n\nint main(void) {\n  return add(1, 2);\n}\n",
     "return a + b;", "return a + b", "line 2:15: missing `;`",
     "add(1, 2)", "add(3, 4)"},
    {"box.cpp",
     "template <typename T>\nT twice(T x) {\n  return x * 2;\n}\n\nclass Box {\n public:\n  int size() const { return n_; }\n\n private:\n  int n_ = 0;\n};\n",
     "return x * 2;", "return x * ;", "line 3:13: missing identifier",
     "int n_ = 0;", "int n_ = 1;"},
    {"main.go",
     "package main\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tx := add(1, 2)\n\t_ = x\n}\n",
     "x := add(1, 2)", "x := add(1, 2))", "line 8:16: unexpected `)`",
     "return a + b", "return b + a"},
    {"A.java",
     "class A {\n  int f() {\n    int x = 1;\n    return x;\n  }\n\n  int g() {\n    return 2;\n  }\n}\n",
     "int x = 1;", "int x = ;", "line 3:11: unexpected `=`",
     "return 2;", "return 3;"},
    {"f.js",
     "function f(a) {\n  if (a > 1) {\n    return a;\n  }\n  return 0;\n}\n\nfunction g() {\n  return f(2);\n}\n",
     "if (a > 1) {", "if (a > 1 {", "line 2:12: missing `)`",
     "f(2)", "f(3)"},
    {"package.json",
     "{\n  \"name\": \"x\",\n  \"version\": 1,\n  \"list\": [1, 2]\n}\n",
     "[1, 2]", "[1, 2,]", "line 4:17: missing number",
     "\"x\"", "\"y\""},
    {"f.py",
     "def f(x):\n    return x * 2\n\n\ndef g():\n    return f(1)\n",
     "return f(1)", "return f(1]", "line 6:5: unexpected `return f(1]`",
     "x * 2", "x * 3"},
    {"main.rs",
     "fn main() {\n    let x = 1;\n    let y = x + 1;\n    println!(\"{}\", y);\n}\n\nfn other() -> i32 {\n    2\n}\n",
     "let x = 1;", "let x = 1", "line 2:14: missing `;`",
     "    2\n", "    3\n"},
    {"List.tsx",
     "export function List({ items }: { items: string[] }) {\n  return (\n    <ul>\n      {items.map((i) => <li key={i}>{i}</li>)}\n    </ul>\n  );\n}\n",
     "</li>)}", "</li>}", "line 4:45: missing `)`",
     "items: string[]", "items: readonly string[]"},
    {"p.ts",
     "interface P {\n  x: number;\n}\n\nconst p: P = { x: 1 };\n\nfunction show(v: P): string {\n  return String(v.x);\n}\n",
     "{ x: 1 };", "{ x: 1 ;", "line 5:20: missing `}`",
     "String(v.x)", "String(v.x + 1)"},
};

std::string replaceOnce(std::string text, std::string_view from, std::string_view to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

std::vector<SyntaxProblem> problemsIn(const char* file, const std::string& text, size_t max = 20) {
  auto tree = SyntaxTree::parse(*languageForPath(file), text);
  REQUIRE(tree.ok());
  return findProblems(*tree, max);
}

std::string located(const SyntaxProblem& p) {
  return "line " + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + p.kind;
}

std::optional<std::string> introduced(std::string_view path, std::optional<std::string_view> before,
                                      std::string_view after) {
  return describeIntroducedProblems(path, before, after, CancelToken());
}

}  // namespace

// ---------------------------------------------------------------- per grammar

TEST_CASE("syntax: the cases cover every grammar") {
  std::set<Language> covered;
  for (const auto& c : kCases) covered.insert(*languageForPath(c.file));
  CHECK(covered.size() == 11);
}

TEST_CASE("syntax: a clean file broken by an edit is reported at the line and column of the break") {
  for (const auto& c : kCases) {
    const Language language = *languageForPath(c.file);
    INFO(toString(language));
    CHECK(problemsIn(c.file, c.valid).empty());
    const std::string broken = replaceOnce(c.valid, c.breakOld, c.breakNew);
    auto problems = problemsIn(c.file, broken);
    REQUIRE(problems.size() == 1);
    CHECK(located(problems[0]) == c.expect);

    auto warning = introduced(c.file, std::string_view(c.valid), broken);
    REQUIRE(warning);
    CHECK(warning->starts_with("Warning: this edit left a syntax error in " + std::string(c.file) + " (" +
                               toString(language) + "):\n" + c.expect + "\n"));
    CHECK(warning->find(problems[0].snippet) != std::string::npos);
    CHECK(warning->ends_with("The file was written; fix the syntax with another edit (if the code is valid and only "
                             "the parser is confused, e.g. by a macro, ignore this)."));
  }
}

TEST_CASE("syntax: a new file that does not parse is reported") {
  for (const auto& c : kCases) {
    INFO(c.file);
    const std::string broken = replaceOnce(c.valid, c.breakOld, c.breakNew);
    auto warning = introduced(c.file, std::nullopt, broken);
    REQUIRE(warning);
    CHECK(warning->find("\n" + std::string(c.expect) + "\n") != std::string::npos);
    CHECK_FALSE(introduced(c.file, std::nullopt, c.valid));
  }
}

TEST_CASE("syntax: an already broken file edited elsewhere gets no warning") {
  for (const auto& c : kCases) {
    INFO(c.file);
    const std::string broken = replaceOnce(c.valid, c.breakOld, c.breakNew);
    const std::string edited = replaceOnce(broken, c.benignOld, c.benignNew);
    CHECK_FALSE(problemsIn(c.file, edited).empty());  // still broken
    CHECK_FALSE(introduced(c.file, std::string_view(broken), edited));
    // Nor does a clean edit of a clean file, or the edit that repairs the break.
    CHECK_FALSE(introduced(c.file, std::string_view(c.valid), replaceOnce(c.valid, c.benignOld, c.benignNew)));
    CHECK_FALSE(introduced(c.file, std::string_view(broken), std::string(c.valid)));
  }
}

// ---------------------------------------------------------------- the rule

TEST_CASE("syntax: in an already broken file only the new break is reported") {
  const std::string before = "def f(x):\n    return f(1]\n\n\ndef g():\n    return 2\n\n\ndef h():\n    return 3\n";
  const std::string after = replaceOnce(before, "return 3", "return (3");
  auto warning = introduced("m.py", std::string_view(before), after);
  REQUIRE(warning);
  CHECK(warning->starts_with("Warning: this edit left a syntax error in m.py (python):\nline 10:5: "));
  CHECK(warning->find("line 2:") == std::string::npos);
}

TEST_CASE("syntax: an edit of the broken line that leaves it broken is reported") {
  const std::string before = "x = 1\ny = f(1]\nz = 3\n";
  const std::string after = replaceOnce(before, "f(1]", "f(2]");
  auto warning = introduced("m.py", std::string_view(before), after);
  REQUIRE(warning);
  CHECK(warning->find("line 2:") != std::string::npos);
  // Rewriting the same broken line word for word says nothing.
  CHECK_FALSE(introduced("m.py", std::string_view(before), replaceOnce(before, "z = 3", "z = 4")));
}

TEST_CASE("syntax: unknown languages, empty edits and large files are not checked") {
  CHECK_FALSE(introduced("README.md", std::string_view("# ok\n"), "def f(:\n"));
  CHECK_FALSE(introduced("Makefile", std::nullopt, "int main( {"));
  CHECK_FALSE(introduced("notes.txt", std::nullopt, "}}}"));
  CHECK_FALSE(introduced("a.py", std::string_view(""), "x = 1\n"));
  CHECK(introduced("a.py", std::string_view(""), "x = (\n"));  // an empty file is clean

  std::string big = "x = 1\n";
  while (big.size() <= kMaxCheckedBytes) big += big;
  CHECK_FALSE(introduced("big.py", std::string_view(big), big + "def f(:\n"));
  CHECK_FALSE(introduced("big.py", std::nullopt, big + "def f(:\n"));
  CHECK(introduced("small.py", std::nullopt, "def f(:\n"));
}

TEST_CASE("syntax: a cancelled check says nothing") {
  auto cancel = CancelToken::create();
  cancel.cancel();
  CHECK_FALSE(describeIntroducedProblems("a.py", std::nullopt, "def f(:\n", cancel));
}

TEST_CASE("syntax: several introduced problems are counted, the first five shown") {
  std::string valid;
  std::string broken;
  for (int i = 0; i < 8; ++i) {
    valid += "def f" + std::to_string(i) + "(x):\n    return x\n\n";
    broken += "def f" + std::to_string(i) + "(x):\n    return (x]\n\n";
  }
  auto warning = introduced("many.py", std::string_view(valid), broken);
  REQUIRE(warning);
  CHECK(warning->starts_with("Warning: this edit left 8 syntax errors in many.py (python):\nline 2:5: "));
  CHECK(warning->find("line 14:5: ") != std::string::npos);
  CHECK(warning->find("line 17:5: ") == std::string::npos);
  CHECK(warning->find("(and 3 more)\n") != std::string::npos);
}

// ---------------------------------------------------------------- problems

TEST_CASE("syntax: a problem's snippet is its line with a caret line under it") {
  auto problems = problemsIn("a.go", "package main\n\nfunc main() {\n\tx := add(1, 2\n}\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 4:15: missing `)`");
  CHECK(problems[0].snippet ==
        "  4 | \tx := add(1, 2\n"
        "    | \t             ^");  // the tab kept, so the caret lines up

  // An ERROR is underlined as far as it goes on its first line.
  problems = problemsIn("a.py", "def f(x):\n    return (2 + 3))\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 2:5: unexpected `return (2 + 3))`");
  CHECK(problems[0].snippet ==
        "  2 |     return (2 + 3))\n"
        "    |     ^^^^^^^^^^^^^^^");
}

TEST_CASE("syntax: columns and underlines count characters, not bytes") {
  auto problems = problemsIn("a.rs", "fn main() {\n    let s = \"h\xC3\xA9llo\"\n    let y = 1;\n}\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 2:20: missing `;`");

  problems = problemsIn("a.js", "const s = f(\"h\xC3\xA9llo\" {;\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 1:12: unexpected `(\"h\xC3\xA9llo\" {`");
  CHECK(problems[0].snippet ==
        "  1 | const s = f(\"h\xC3\xA9llo\" {;\n"
        "    |            ^^^^^^^^^^");
}

TEST_CASE("syntax: a long line is shown as a window around the problem") {
  std::string line = "int a[] = {";
  for (int i = 0; i < 100; ++i) line += "1, ";
  line += "1;";
  auto problems = problemsIn("long.c", line + "\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 1:313: missing `}`");
  const std::string& snippet = problems[0].snippet;
  const std::string first = snippet.substr(0, snippet.find('\n'));
  const std::string caret = snippet.substr(snippet.find('\n') + 1);
  CHECK(first.starts_with("  1 | ..."));
  CHECK(first.size() == 6 + 3 + 120);
  CHECK(caret.starts_with("    |    "));
  REQUIRE(caret.find('^') < first.size());
  CHECK(first[caret.find('^')] == ';');  // the caret sits under the problem
}

TEST_CASE("syntax: a problem at the very end is put at the end of the last line") {
  auto problems = problemsIn("run.sh", "if true; then\n  echo x\n");
  REQUIRE(problems.size() == 1);
  CHECK(located(problems[0]) == "line 2:9: missing `fi`");
}

TEST_CASE("syntax: problems are one per line, in order, at most max") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "int x" + std::to_string(i) + " = 1\n";
  auto problems = problemsIn("a.c", text);
  REQUIRE(problems.size() == 20);
  for (size_t i = 1; i < problems.size(); ++i) CHECK(problems[i].line > problems[i - 1].line);
  CHECK(located(problems[19]) == "line 20:12: missing `;`");
  CHECK(problemsIn("a.c", text, 3).size() == 3);
  CHECK(problemsIn("a.c", "int x = 1;\n").empty());
}

// ---------------------------------------------------------------- edit tools

namespace {

using lathe::testing::TempDir;

using lathe::testing::readFile;

struct EditFixture {
  TempDir root;
  ToolContext context;
  std::unique_ptr<Tool> writeFile;
  std::unique_ptr<Tool> replace;

  EditFixture() {
    context.workspace = std::make_shared<const Workspace>(Workspace::create(root.path.string()).value());
    context.files = makeDiskFileStore();
    writeFile = makeWriteFileTool(context);
    replace = makeReplaceTool(context);
  }

  ToolResult run(const Tool& tool, const std::string& args) {
    auto doc = json::parse(args);
    REQUIRE(doc.ok());
    auto built = tool.build(doc.value());
    REQUIRE(built.invocation);
    REQUIRE(built.invocation->shouldConfirmExecute(CancelToken()).ok());
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }

  ToolResult write(const std::string& path, const std::string& content) {
    return run(*writeFile, json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, "file_path", path);
      json::put(w, "content", content);
      w.EndObject();
    }));
  }

  ToolResult edit(const std::string& path, const std::string& oldString, const std::string& newString) {
    return run(*replace, json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, "file_path", path);
      json::put(w, "instruction", "Change it");
      json::put(w, "old_string", oldString);
      json::put(w, "new_string", newString);
      w.EndObject();
    }));
  }
};

std::string llmText(const ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

}  // namespace

TEST_CASE("syntax: write_file reports a break to the model and the person, and the file is written") {
  EditFixture f;
  const fs::path file = f.root.path / "app.py";

  auto created = f.write("app.py", "def f(:\n    return 1\n");
  REQUIRE_FALSE(created.error);
  CHECK(readFile(file) == "def f(:\n    return 1\n");
  const std::string text = llmText(created);
  CHECK(text.starts_with("Created new file " + file.string() + " with 2 lines.\n\nWarning: this edit left a syntax "
                         "error in " + file.string() + " (python):\nline 1:7: missing `)`\n"));
  REQUIRE(created.displayNotes.size() == 1);
  CHECK(text.ends_with(created.displayNotes[0]));
  CHECK(created.displayNotes[0].starts_with("Warning: this edit left a syntax error"));

  // A valid rewrite: no warning.
  auto fixed = f.write("app.py", "def f():\n    return 1\n");
  REQUIRE_FALSE(fixed.error);
  CHECK(llmText(fixed) == "Wrote 2 lines to " + file.string() + ".");
  CHECK(fixed.displayNotes.empty());

  // Breaking it again from clean: a warning; the write stands.
  auto broken = f.write("app.py", "def f():\n    return [1\n");
  REQUIRE_FALSE(broken.error);
  CHECK(readFile(file) == "def f():\n    return [1\n");
  CHECK(llmText(broken).find("Warning: this edit left a syntax error") != std::string::npos);
  CHECK(broken.displayNotes.size() == 1);

  // Unknown languages are never checked.
  auto notes = f.write("notes.txt", "def f(:\n");
  REQUIRE_FALSE(notes.error);
  CHECK(notes.displayNotes.empty());
  CHECK(llmText(notes).find("Warning") == std::string::npos);
}

TEST_CASE("syntax: replace reports a break to the model and the person, and the edit is written") {
  EditFixture f;
  const fs::path file = f.root.write("add.c", "int add(int a, int b) {\r\n  return a + b;\r\n}\r\n");

  auto result = f.edit("add.c", "return a + b;", "return a + b");
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "int add(int a, int b) {\r\n  return a + b\r\n}\r\n");  // written, CRLF kept
  const std::string text = llmText(result);
  CHECK(text.starts_with("Successfully modified file: " + file.string() + " (1 replacement).\n\nWarning: this "
                         "edit left a syntax error in " + file.string() + " (c):\nline 2:15: missing `;`\n"
                         "  2 |   return a + b\n    |               ^\n"));
  REQUIRE(result.displayNotes.size() == 1);
  CHECK(text.ends_with(result.displayNotes[0]));

  // The file is broken now; an edit elsewhere says nothing.
  auto elsewhere = f.edit("add.c", "int add(int a, int b)", "int add(int a, int c)");
  REQUIRE_FALSE(elsewhere.error);
  CHECK(elsewhere.displayNotes.empty());
  CHECK(llmText(elsewhere).find("Warning") == std::string::npos);

  // Repairing it says nothing either.
  auto repaired = f.edit("add.c", "return a + b\r\n", "return a + c;\r\n");
  REQUIRE_FALSE(repaired.error);
  CHECK(repaired.displayNotes.empty());
  CHECK(readFile(file) == "int add(int a, int c) {\r\n  return a + c;\r\n}\r\n");
}

TEST_CASE("syntax: replace creating a broken file warns") {
  EditFixture f;
  auto result = f.edit("new.rs", "", "fn main() {\n    let x = 1\n}\n");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result).find("(rust):\nline 2:14: missing `;`\n") != std::string::npos);
  CHECK(result.displayNotes.size() == 1);
  CHECK(fs::exists(f.root.path / "new.rs"));
}
