// The languages Lathe parses with tree-sitter, found by file name, and their
// compiled grammars (the lathe_tree_sitter target). Pure; any thread.
#pragma once

#include <optional>
#include <string_view>

struct TSLanguage;

namespace lathe::tools::syntax {

enum class Language { bash, c, cpp, go, java, javascript, json, python, rust, tsx, typescript };

const char* toString(Language language);
// By extension (and a few well-known names such as Makefile-free shell rc files).
std::optional<Language> languageForPath(std::string_view path);
const TSLanguage* grammar(Language language);

}  // namespace lathe::tools::syntax
