// tree-sitter infrastructure: every grammar loads into the runtime and parses.
#include <catch2/catch.hpp>

#include "tools/syntax/syntax_tree.h"

using namespace lathe;
using namespace lathe::tools::syntax;

TEST_CASE("every grammar parses a small valid program without errors") {
  const std::pair<Language, const char*> samples[] = {
      {Language::bash, "if [ -f x ]; then echo hi | wc -l; fi\n"},
      {Language::c, "int main(void) { return 0; }\n"},
      {Language::cpp, "template <class T> struct S { T v; };\n"},
      {Language::go, "package main\nfunc main() {}\n"},
      {Language::java, "class A { void f() {} }\n"},
      {Language::javascript, "const f = (a) => a + 1;\n"},
      {Language::json, "{\"a\": [1, 2, {\"b\": null}]}\n"},
      {Language::python, "def f(x):\n    return x * 2\n"},
      {Language::rust, "fn main() { let v = vec![1]; }\n"},
      {Language::tsx, "const A = () => <div>{1}</div>;\n"},
      {Language::typescript, "interface P { x: number }\nconst p: P = { x: 1 };\n"},
  };
  for (const auto& [language, source] : samples) {
    INFO(toString(language));
    auto tree = SyntaxTree::parse(language, source);
    REQUIRE(tree.ok());
    CHECK_FALSE(ts_node_has_error(tree->root()));
  }
}

TEST_CASE("a broken program has an error node") {
  auto tree = SyntaxTree::parse(Language::python, "def f(:\n  return\n");
  REQUIRE(tree.ok());
  CHECK(ts_node_has_error(tree->root()));
}

TEST_CASE("languages are found by extension") {
  CHECK(languageForPath("/a/b/main.cpp") == Language::cpp);
  CHECK(languageForPath("x.H") == Language::c);
  CHECK(languageForPath("app.tsx") == Language::tsx);
  CHECK(languageForPath("script.sh") == Language::bash);
  CHECK_FALSE(languageForPath("README.md"));
  CHECK_FALSE(languageForPath("Makefile"));
  const std::pair<const char*, const char*> rows[] = {
      {"a.bash", "bash"},  {"a.cc", "cpp"},         {"a.hxx", "cpp"},        {"a.go", "go"},
      {"a.java", "java"},  {"a.cjs", "javascript"}, {"a.jsx", "javascript"}, {"a.json", "json"},
      {"a.pyi", "python"}, {"a.rs", "rust"},        {"a.mts", "typescript"}, {"a.TS", "typescript"},
  };
  for (const auto& [path, name] : rows) {
    INFO(path);
    auto language = languageForPath(path);
    REQUIRE(language);
    CHECK(std::string(toString(*language)) == name);
  }
}
