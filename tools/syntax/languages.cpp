// Language table and grammar entry points.
#include "tools/syntax/languages.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "protocol/base/enum_names.h"

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

namespace {

constexpr EnumName<Language> kNames[] = {
    {Language::bash, "bash"},
    {Language::c, "c"},
    {Language::cpp, "cpp"},
    {Language::go, "go"},
    {Language::java, "java"},
    {Language::javascript, "javascript"},
    {Language::json, "json"},
    {Language::python, "python"},
    {Language::rust, "rust"},
    {Language::tsx, "tsx"},
    {Language::typescript, "typescript"},
};

// File name extensions, lowercase; read only.
constexpr EnumName<Language> kExtensions[] = {
    {Language::bash, "sh"},
    {Language::bash, "bash"},
    {Language::c, "c"},
    {Language::c, "h"},
    {Language::cpp, "cc"},
    {Language::cpp, "cpp"},
    {Language::cpp, "cxx"},
    {Language::cpp, "hpp"},
    {Language::cpp, "hh"},
    {Language::cpp, "hxx"},
    {Language::go, "go"},
    {Language::java, "java"},
    {Language::javascript, "js"},
    {Language::javascript, "mjs"},
    {Language::javascript, "cjs"},
    {Language::javascript, "jsx"},
    {Language::json, "json"},
    {Language::python, "py"},
    {Language::python, "pyi"},
    {Language::rust, "rs"},
    {Language::tsx, "tsx"},
    {Language::typescript, "ts"},
    {Language::typescript, "mts"},
    {Language::typescript, "cts"},
};

}  // namespace

const char* toString(Language language) { return nameOf(kNames, language); }

std::optional<Language> languageForPath(std::string_view path) {
  std::string_view name = path.substr(path.find_last_of('/') + 1);
  size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return valueOf(kExtensions, ext);
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
