// The definitions in a parsed file (functions, classes, methods, types,
// namespaces, ...) with their line ranges, nested as in the source: what
// read_outline shows. A small table per language says which node types count,
// what kind they are and where their name is. Pure; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/syntax/syntax_tree.h"

namespace lathe::tools::syntax {

struct Definition {
  // function, method, constructor, class, struct, union, interface, enum,
  // record, annotation, trait, impl, namespace, module, type, macro, key (JSON)
  std::string kind;
  std::string name;       // as written, whitespace collapsed ("Foo::bar", "(s *Server) Start")
  int64_t startLine = 0;  // 1-based, inclusive; decorators and template heads included
  int64_t endLine = 0;
  size_t depth = 0;       // 0 at the top level, 1 inside a class, ...
};

// In source order. Function bodies are not searched; maxDepth 0 is no limit,
// 1 is the top level only.
std::vector<Definition> findDefinitions(const SyntaxTree& tree, size_t maxDepth = 0);

}  // namespace lathe::tools::syntax
