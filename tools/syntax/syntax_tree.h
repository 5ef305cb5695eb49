// A parsed syntax tree that owns its parser output and source. Parsing is
// cancellable; a tree is used by one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/syntax/languages.h"

namespace lathe::tools::syntax {

class SyntaxTree {
 public:
  static Result<SyntaxTree> parse(Language language, std::string source, const CancelToken& cancel = CancelToken());

  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  const std::string& source() const { return source_; }
  std::string_view text(TSNode node) const;
  Language language() const { return language_; }

 private:
  SyntaxTree(Language language, std::string source, TSTree* tree);
  struct TreeDeleter {
    void operator()(TSTree* tree) const { ts_tree_delete(tree); }
  };
  Language language_;
  std::string source_;
  std::unique_ptr<TSTree, TreeDeleter> tree_;
};

}  // namespace lathe::tools::syntax
