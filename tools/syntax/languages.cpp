// Language table and grammar entry points.
#include "tools/syntax/languages.h"

#include <algorithm>
#include <cctype>
#include <string>

extern "C" {
const TSLanguage* tree_sitter_bash(void);
const TSLanguage* tree_sitter_c(void);
const TSLanguage* tree_sitter_cpp(void);
const TSLanguage* tree_sitter_go(void);
const TSLanguage* tree_sitter_java(void);
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_json(void);
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_rust(void);
const TSLanguage* tree_sitter_tsx(void);
const TSLanguage* tree_sitter_typescript(void);
}

namespace lathe::tools::syntax {

const char* toString(Language language) {
  switch (language) {
    case Language::bash: return "bash";
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::go: return "go";
    case Language::java: return "java";
    case Language::javascript: return "javascript";
    case Language::json: return "json";
    case Language::python: return "python";
    case Language::rust: return "rust";
    case Language::tsx: return "tsx";
    case Language::typescript: return "typescript";
  }
  return "unknown";
}

std::optional<Language> languageForPath(std::string_view path) {
  std::string_view name = path.substr(path.find_last_of('/') + 1);
  size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "sh" || ext == "bash") return Language::bash;
  if (ext == "c" || ext == "h") return Language::c;
  if (ext == "cc" || ext == "cpp" || ext == "cxx" || ext == "hpp" || ext == "hh" || ext == "hxx") return Language::cpp;
  if (ext == "go") return Language::go;
  if (ext == "java") return Language::java;
  if (ext == "js" || ext == "mjs" || ext == "cjs" || ext == "jsx") return Language::javascript;
  if (ext == "json") return Language::json;
  if (ext == "py" || ext == "pyi") return Language::python;
  if (ext == "rs") return Language::rust;
  if (ext == "tsx") return Language::tsx;
  if (ext == "ts" || ext == "mts" || ext == "cts") return Language::typescript;
  return std::nullopt;
}

const TSLanguage* grammar(Language language) {
  switch (language) {
    case Language::bash: return tree_sitter_bash();
    case Language::c: return tree_sitter_c();
    case Language::cpp: return tree_sitter_cpp();
    case Language::go: return tree_sitter_go();
    case Language::java: return tree_sitter_java();
    case Language::javascript: return tree_sitter_javascript();
    case Language::json: return tree_sitter_json();
    case Language::python: return tree_sitter_python();
    case Language::rust: return tree_sitter_rust();
    case Language::tsx: return tree_sitter_tsx();
    case Language::typescript: return tree_sitter_typescript();
  }
  return nullptr;
}

}  // namespace lathe::tools::syntax
