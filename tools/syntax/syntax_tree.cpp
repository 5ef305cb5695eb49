// Parsing with tree-sitter.
#include "tools/syntax/syntax_tree.h"

#include <atomic>

namespace lathe::tools::syntax {

SyntaxTree::SyntaxTree(Language language, std::string source, TSTree* tree)
    : language_(language), source_(std::move(source)), tree_(tree) {}

Result<SyntaxTree> SyntaxTree::parse(Language language, std::string source, const CancelToken& cancel) {
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), grammar(language))) {
    return makeError(Errc::internal, std::string("the ") + toString(language) + " grammar does not fit the runtime");
  }
  // tree-sitter polls this flag while parsing: cancel stops a long parse.
  std::atomic<size_t> flag{0};
  auto stop = cancel.onCancel([&flag] { flag = 1; });
  ts_parser_set_cancellation_flag(parser.get(), reinterpret_cast<const size_t*>(&flag));
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<uint32_t>(source.size()));
  ts_parser_set_cancellation_flag(parser.get(), nullptr);
  if (!tree) {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "parse cancelled");
    return makeError(Errc::internal, std::string("tree-sitter could not parse this ") + toString(language) + " text");
  }
  return SyntaxTree(language, std::move(source), tree);
}

std::string_view SyntaxTree::text(TSNode node) const {
  uint32_t start = ts_node_start_byte(node);
  uint32_t end = ts_node_end_byte(node);
  if (start > source_.size() || end > source_.size() || end < start) return {};
  return std::string_view(source_).substr(start, end - start);
}

}  // namespace lathe::tools::syntax
