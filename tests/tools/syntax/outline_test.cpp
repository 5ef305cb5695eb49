// Outlines: the definitions found in each grammar with their kinds, names,
// nesting and line ranges; max_depth; the read_outline tool on a file and on
// a directory (ignore rules, recursion, unknown languages), and its refusals.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tools/syntax/syntax_tools.h"
#include "tools/syntax/definitions.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
using namespace lathe::tools::syntax;
namespace fs = std::filesystem;

namespace {

// "kind name A-B", indented two spaces per level.
std::string outlineOf(const char* file, const std::string& text, size_t maxDepth = 0) {
  auto tree = SyntaxTree::parse(*languageForPath(file), text);
  REQUIRE(tree.ok());
  CHECK_FALSE(ts_node_has_error(tree->root()));
  std::string out;
  for (const auto& d : findDefinitions(*tree, maxDepth)) {
    out += std::string(2 * d.depth, ' ') + d.kind + " " + d.name + " " + std::to_string(d.startLine) + "-" +
           std::to_string(d.endLine) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("outline: bash functions") {
  CHECK(outlineOf("run.sh",
                  "#!/bin/bash\n"
                  "log() {\n"
                  "  echo \"$@\"\n"
                  "}\n"
                  "\n"
                  "function main {\n"
                  "  log start\n"
                  "}\n"
                  "main\n") ==
        "function log 2-4\n"
        "function main 6-8\n");
}

TEST_CASE("outline: C functions, prototypes, structs, typedef'd structs, enums") {
  CHECK(outlineOf("geo.c",
                  "#include <stdio.h>\n"
                  "\n"
                  "struct point {\n"
                  "  int x, y;\n"
                  "};\n"
                  "\n"
                  "typedef struct {\n"
                  "  int w;\n"
                  "} size2;\n"
                  "\n"
                  "enum color { RED, GREEN };\n"
                  "\n"
                  "static int helper(int a);\n"
                  "int (*callback)(int);\n"
                  "\n"
                  "int helper(int a) {\n"
                  "  return a * 2;\n"
                  "}\n"
                  "\n"
                  "int *make(void) {\n"
                  "  struct point p = {0, 0};\n"
                  "  return 0;\n"
                  "}\n") ==
        "struct point 3-5\n"
        "struct size2 7-9\n"
        "enum color 11-11\n"
        "function helper 13-13\n"
        "function helper 16-18\n"
        "function make 20-23\n");
}

TEST_CASE("outline: C++ namespaces, templates, classes, members, out-of-line definitions") {
  CHECK(outlineOf("vec.hpp",
                  "#pragma once\n"
                  "namespace geo {\n"
                  "\n"
                  "template <typename T>\n"
                  "class Vec {\n"
                  " public:\n"
                  "  Vec();\n"
                  "  ~Vec();\n"
                  "  T& at(int i);\n"
                  "  T length() const { return 0; }\n"
                  "  bool operator==(const Vec&) const;\n"
                  "\n"
                  " private:\n"
                  "  struct Node {\n"
                  "    int v;\n"
                  "  };\n"
                  "  int size_;\n"
                  "};\n"
                  "\n"
                  "int area(int w, int h);\n"
                  "\n"
                  "}  // namespace geo\n"
                  "\n"
                  "int geo::area(int w, int h) {\n"
                  "  return w * h;\n"
                  "}\n") ==
        "namespace geo 2-22\n"
        "  class Vec 4-18\n"
        "    method Vec 7-7\n"
        "    method ~Vec 8-8\n"
        "    method at 9-9\n"
        "    method length 10-10\n"
        "    method operator== 11-11\n"
        "    struct Node 14-16\n"
        "  function area 20-20\n"
        "function geo::area 24-26\n");
}

TEST_CASE("outline: Go functions, methods with receivers, struct and interface types") {
  CHECK(outlineOf("shapes.go",
                  "package shapes\n"
                  "\n"
                  "import \"math\"\n"
                  "\n"
                  "type Shape interface {\n"
                  "\tArea() float64\n"
                  "}\n"
                  "\n"
                  "type Circle struct {\n"
                  "\tR float64\n"
                  "}\n"
                  "\n"
                  "type ID = string\n"
                  "\n"
                  "func (c *Circle) Area() float64 {\n"
                  "\treturn math.Pi * c.R * c.R\n"
                  "}\n"
                  "\n"
                  "func New(r float64) *Circle {\n"
                  "\treturn &Circle{R: r}\n"
                  "}\n") ==
        "interface Shape 5-7\n"
        "struct Circle 9-11\n"
        "type ID 13-13\n"
        "method (c *Circle) Area 15-17\n"
        "function New 19-21\n");
}

TEST_CASE("outline: Java classes, constructors, methods, nested types, anonymous classes left out") {
  CHECK(outlineOf("Shop.java",
                  "package a;\n"
                  "\n"
                  "public class Shop {\n"
                  "  private int count;\n"
                  "\n"
                  "  public Shop() {\n"
                  "    count = 0;\n"
                  "  }\n"
                  "\n"
                  "  @Override\n"
                  "  public String toString() {\n"
                  "    Runnable r = new Runnable() { public void run() {} };\n"
                  "    return \"\";\n"
                  "  }\n"
                  "\n"
                  "  interface Listener {\n"
                  "    void changed(int n);\n"
                  "  }\n"
                  "\n"
                  "  enum State { OPEN, CLOSED }\n"
                  "\n"
                  "  record Pair(int a, int b) {}\n"
                  "}\n") ==
        "class Shop 3-23\n"
        "  constructor Shop 6-8\n"
        "  method toString 10-14\n"
        "  interface Listener 16-18\n"
        "    method changed 17-17\n"
        "  enum State 20-20\n"
        "  record Pair 22-22\n");
}

TEST_CASE("outline: JavaScript functions, function-valued consts, classes and methods") {
  CHECK(outlineOf("server.js",
                  "import x from \"x\";\n"
                  "\n"
                  "export function start(port) {\n"
                  "  return port;\n"
                  "}\n"
                  "\n"
                  "const stop = async () => {\n"
                  "  await x();\n"
                  "};\n"
                  "\n"
                  "class Server extends Base {\n"
                  "  constructor() {\n"
                  "    super();\n"
                  "  }\n"
                  "\n"
                  "  listen() {\n"
                  "    const inner = () => 1;\n"
                  "    return inner();\n"
                  "  }\n"
                  "}\n"
                  "\n"
                  "const n = 1;\n"
                  "setTimeout(() => { function hidden() {} }, 1);\n") ==
        "function start 3-5\n"
        "function stop 7-9\n"
        "class Server 11-20\n"
        "  method constructor 12-14\n"
        "  method listen 16-19\n");
}

TEST_CASE("outline: JSON top-level keys only") {
  CHECK(outlineOf("package.json",
                  "{\n"
                  "  \"name\": \"lathe\",\n"
                  "  \"scripts\": {\n"
                  "    \"build\": \"x\"\n"
                  "  },\n"
                  "  \"list\": [{\"a\": 1}]\n"
                  "}\n") ==
        "key name 2-2\n"
        "key scripts 3-5\n"
        "key list 6-6\n");
  CHECK(outlineOf("list.json", "[{\"a\": 1}]\n").empty());
}

TEST_CASE("outline: Python classes, methods with decorators, nested functions left out") {
  CHECK(outlineOf("point.py",
                  "import os\n"
                  "\n"
                  "\n"
                  "@dataclass\n"
                  "class Point:\n"
                  "    x: int\n"
                  "\n"
                  "    def norm(self):\n"
                  "        return self.x\n"
                  "\n"
                  "    @staticmethod\n"
                  "    def origin():\n"
                  "        return Point(0)\n"
                  "\n"
                  "    class Meta:\n"
                  "        pass\n"
                  "\n"
                  "\n"
                  "def main():\n"
                  "    def inner():\n"
                  "        pass\n"
                  "    return inner\n") ==
        "class Point 4-16\n"
        "  method norm 8-9\n"
        "  method origin 11-13\n"
        "  class Meta 15-16\n"
        "function main 19-22\n");
}

TEST_CASE("outline: Rust structs, impls, traits, modules, enums, macros") {
  CHECK(outlineOf("point.rs",
                  "use std::fmt;\n"
                  "\n"
                  "pub struct Point {\n"
                  "    x: i32,\n"
                  "}\n"
                  "\n"
                  "impl fmt::Display for Point {\n"
                  "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
                  "        write!(f, \"{}\", self.x)\n"
                  "    }\n"
                  "}\n"
                  "\n"
                  "pub trait Shape {\n"
                  "    fn area(&self) -> f64;\n"
                  "}\n"
                  "\n"
                  "mod tests {\n"
                  "    fn helper() {}\n"
                  "}\n"
                  "\n"
                  "enum Kind { A, B }\n"
                  "\n"
                  "macro_rules! square {\n"
                  "    ($x:expr) => { $x * $x };\n"
                  "}\n") ==
        "struct Point 3-5\n"
        "impl fmt::Display for Point 7-11\n"
        "  method fmt 8-10\n"
        "trait Shape 13-15\n"
        "  method area 14-14\n"
        "module tests 17-19\n"
        "  function helper 18-18\n"
        "enum Kind 21-21\n"
        "macro square 23-25\n");
}

TEST_CASE("outline: TSX components") {
  CHECK(outlineOf("App.tsx",
                  "import React from \"react\";\n"
                  "\n"
                  "interface Props {\n"
                  "  title: string;\n"
                  "}\n"
                  "\n"
                  "export const Header = ({ title }: Props) => {\n"
                  "  return <h1>{title}</h1>;\n"
                  "};\n"
                  "\n"
                  "export default function App() {\n"
                  "  return <Header title=\"x\" />;\n"
                  "}\n") ==
        "interface Props 3-5\n"
        "function Header 7-9\n"
        "function App 11-13\n");
}

TEST_CASE("outline: TypeScript interfaces, types, enums, abstract classes, namespaces") {
  CHECK(outlineOf("store.ts",
                  "export interface Store {\n"
                  "  get(key: string): string;\n"
                  "}\n"
                  "\n"
                  "export type Key = string;\n"
                  "\n"
                  "export enum Mode {\n"
                  "  A,\n"
                  "  B,\n"
                  "}\n"
                  "\n"
                  "export abstract class Base implements Store {\n"
                  "  abstract get(key: string): string;\n"
                  "\n"
                  "  size(): number {\n"
                  "    return 0;\n"
                  "  }\n"
                  "}\n"
                  "\n"
                  "namespace Util {\n"
                  "  export function id<T>(x: T): T {\n"
                  "    return x;\n"
                  "  }\n"
                  "}\n") ==
        "interface Store 1-3\n"
        "  method get 2-2\n"
        "type Key 5-5\n"
        "enum Mode 7-10\n"
        "class Base 12-18\n"
        "  method get 13-13\n"
        "  method size 15-17\n"
        "namespace Util 20-24\n"
        "  function id 21-23\n");
}

TEST_CASE("outline: max_depth limits nesting") {
  const std::string source = "class A:\n    def f(self):\n        pass\n\n    class B:\n        def g(self):\n            pass\n";
  CHECK(outlineOf("a.py", source, 1) == "class A 1-7\n");
  CHECK(outlineOf("a.py", source, 2) == "class A 1-7\n  method f 2-3\n  class B 5-7\n");
  CHECK(outlineOf("a.py", source) == "class A 1-7\n  method f 2-3\n  class B 5-7\n    method g 6-7\n");
}

TEST_CASE("outline: a broken file still outlines what parses") {
  auto tree = SyntaxTree::parse(Language::python, "def good():\n    pass\n\ndef bad(:\n    pass\n");
  REQUIRE(tree.ok());
  auto definitions = findDefinitions(*tree);
  REQUIRE_FALSE(definitions.empty());
  CHECK(definitions[0].name == "good");
}

TEST_CASE("outline: deeply nested input does not exhaust the stack") {
  std::string deep = std::string(50000, '[') + std::string(50000, ']');
  auto tree = SyntaxTree::parse(Language::json, deep);
  REQUIRE(tree.ok());
  CHECK(findDefinitions(*tree).empty());
}

// ---------------------------------------------------------------- read_outline

namespace {

using lathe::testing::TempDir;

struct OutlineFixture {
  TempDir root;
  TempDir outside;
  ToolContext context;
  std::unique_ptr<Tool> tool;

  OutlineFixture() {
    context.workspace = std::make_shared<const Workspace>(Workspace::create(root.path.string()).value());
    tool = makeOutlineTool(context);
  }

  BuildResult build(const std::string& args) {
    auto doc = json::parse(args);
    REQUIRE(doc.ok());
    return tool->build(doc.value());
  }

  ToolResult run(const std::string& args) {
    auto built = build(args);
    if (!built.invocation) return ToolResult::failure(built.error->type, built.error->message);
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }

  void write(const std::string& rel, const std::string& content) const { root.write(rel, content); }
  std::string abs(const std::string& rel) const { return (root.path / rel).string(); }
};

std::string textOf(const ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

const char* kHint = "\nRead a definition with read_file, giving its lines as start_line and end_line.";

}  // namespace

TEST_CASE("read_outline: declaration and kind") {
  OutlineFixture f;
  CHECK(f.tool->name() == "read_outline");
  CHECK(f.tool->kind() == Kind::read);
  CHECK(f.tool->isReadOnly());
}

TEST_CASE("read_outline: a file's definitions with line ranges, nested") {
  OutlineFixture f;
  f.write("src/shop.py",
          "class Shop:\n"
          "    def add(self, n):\n"
          "        return n\n"
          "\n"
          "    def total(self):\n"
          "        return 0\n"
          "\n"
          "\n"
          "def main():\n"
          "    pass\n");
  auto result = f.run(R"({"path": "src/shop.py"})");
  REQUIRE_FALSE(result.error);
  CHECK(textOf(result) == f.abs("src/shop.py") +
                              " (python, 10 lines):\n"
                              "  class Shop (lines 1-6)\n"
                              "    method add (lines 2-3)\n"
                              "    method total (lines 5-6)\n"
                              "  function main (lines 9-10)\n" +
                              kHint);
  CHECK(std::get<std::string>(result.returnDisplay) == "Outlined src/shop.py (4 definitions)");

  auto top = f.run(R"({"path": "src/shop.py", "max_depth": 1})");
  CHECK(textOf(top) == f.abs("src/shop.py") +
                           " (python, 10 lines):\n"
                           "  class Shop (lines 1-6)\n"
                           "  function main (lines 9-10)\n" +
                           kHint);

  f.write("one.go", "package main\nfunc main() {}\n");
  CHECK(textOf(f.run(R"({"path": "one.go"})")) ==
        f.abs("one.go") + " (go, 2 lines):\n  function main (line 2)\n" + kHint);

  f.write("empty.py", "import os\n");
  CHECK(textOf(f.run(R"({"path": "empty.py"})")) == f.abs("empty.py") + " (python, 1 line): no definitions found.\n");
}

TEST_CASE("read_outline: a directory outlines its source files, honouring ignore rules") {
  OutlineFixture f;
  f.write(".gitignore", "ignored.py\nbuild/\n");
  f.write("a.py", "def a():\n    pass\n");
  f.write("b.go", "package b\n\nfunc B() {}\n");
  f.write("README.md", "# readme\n");
  f.write("ignored.py", "def hidden():\n    pass\n");
  f.write("build/gen.c", "int gen(void) { return 0; }\n");
  f.write("node_modules/m/index.js", "function m() {}\n");
  f.write("sub/c.rs", "fn c() {}\n");

  auto flat = f.run(R"({"path": "."})");
  REQUIRE_FALSE(flat.error);
  CHECK(textOf(flat) == "Outline of 2 source files in " + f.root.path.string() +
                            ":\n\n" +
                            f.abs("a.py") + " (python, 2 lines):\n  function a (lines 1-2)\n\n" +
                            f.abs("b.go") + " (go, 3 lines):\n  function B (line 3)\n" + kHint);
  CHECK(std::get<std::string>(flat.returnDisplay) == "Outlined 2 files in .");

  auto deep = f.run(R"({"path": ".", "recursive": true})");
  REQUIRE_FALSE(deep.error);
  const std::string text = textOf(deep);
  CHECK(text.starts_with("Outline of 3 source files in " + f.root.path.string() + " and its subdirectories:\n\n"));
  CHECK(text.find(f.abs("sub/c.rs") + " (rust, 1 line):\n  function c (line 1)\n") != std::string::npos);
  CHECK(text.find("hidden") == std::string::npos);
  CHECK(text.find("gen.c") == std::string::npos);
  CHECK(text.find("index.js") == std::string::npos);
  CHECK(text.find("README") == std::string::npos);
}

TEST_CASE("read_outline: a directory without source files says so") {
  OutlineFixture f;
  f.write("docs/a.md", "# a\n");
  f.write("docs/deeper/b.py", "def b(): pass\n");
  auto result = f.run(R"({"path": "docs"})");
  REQUIRE_FALSE(result.error);
  CHECK(textOf(result).starts_with("No source files ("));
  CHECK(textOf(result).ends_with(" in " + f.abs("docs") + ". Set recursive to true to look in subdirectories."));
  auto deep = f.run(R"({"path": "docs", "recursive": true})");
  CHECK(textOf(deep).find("function b (line 1)") != std::string::npos);
}

TEST_CASE("read_outline: large directories are capped with a note") {
  OutlineFixture f;
  for (int i = 0; i < 205; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "m%03d.py", i);
    f.write(name, "def f():\n    pass\n");
  }
  auto result = f.run(R"({"path": "."})");
  REQUIRE_FALSE(result.error);
  const std::string text = textOf(result);
  CHECK(text.starts_with("Outline of 200 source files in "));
  CHECK(text.find("m199.py") != std::string::npos);
  CHECK(text.find("m200.py") == std::string::npos);
  CHECK(text.find("[5 more source files are not outlined (the limit is 200 files); give a subdirectory or a file "
                  "as path to see them.]") != std::string::npos);
}

TEST_CASE("read_outline: refusals") {
  OutlineFixture f;
  std::ofstream(f.outside.path / "x.py") << "def x(): pass\n";
  auto outside = f.build(R"({"path": ")" + (f.outside.path / "x.py").string() + R"("})");
  REQUIRE(outside.error);
  CHECK(outside.error->type == ErrorType::path_not_in_workspace);
  auto up = f.build(R"({"path": "../x.py"})");
  REQUIRE(up.error);
  CHECK(up.error->type == ErrorType::path_not_in_workspace);

  auto missing = f.run(R"({"path": "nope.py"})");
  REQUIRE(missing.error);
  CHECK(missing.error->type == ErrorType::file_not_found);

  f.write("notes.txt", "hello\n");
  auto unknown = f.run(R"({"path": "notes.txt"})");
  REQUIRE(unknown.error);
  CHECK(unknown.error->type == ErrorType::invalid_params);
  CHECK(unknown.error->message.find("Use read_file") != std::string::npos);

  auto depth = f.build(R"({"path": ".", "max_depth": 0})");
  REQUIRE(depth.error);
  CHECK(depth.error->type == ErrorType::invalid_params);
  CHECK(f.build(R"({})").error);
}

TEST_CASE("read_outline: a file .geminiignore ignores is refused, as read_file refuses it") {
  OutlineFixture f;
  f.write(".geminiignore", "private/\n*.secret.py\n");
  f.write("private/keys.py", "def hidden_key():\n    pass\n");
  f.write("app.secret.py", "def hidden_too():\n    pass\n");
  f.write("open.py", "def visible():\n    pass\n");
  f.write(".gitignore", "open.py\n");  // .gitignore does not stop reading a file named to the tool
  for (const char* rel : {"private/keys.py", "app.secret.py"}) {
    INFO(rel);
    auto result = f.run(R"({"path": ")" + f.abs(rel) + R"("})");
    REQUIRE(result.error);
    CHECK(result.error->type == ErrorType::invalid_params);
    CHECK(result.error->message.find(".geminiignore") != std::string::npos);
    CHECK(textOf(result).find("hidden") == std::string::npos);
  }
  auto open = f.run(R"({"path": ")" + f.abs("open.py") + R"("})");
  REQUIRE_FALSE(open.error);
  CHECK(textOf(open).find("visible") != std::string::npos);
  // The folder's outline leaves them out too.
  auto folder = f.run(R"({"path": ")" + f.root.str() + R"(", "recursive": true})");
  CHECK(textOf(folder).find("hidden") == std::string::npos);
}
