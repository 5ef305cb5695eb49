// Visiting a tree-sitter node's children in order with their field names, in
// linear time (ts_node_child(node, i) walks from the first child each time,
// which makes wide nodes quadratic). Pure; any thread.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

namespace lathe::tools::shell {

// Calls visit(child, field) for every child, named or not; field is empty
// when the child has none.
template <class Visit>
void forEachChild(TSNode node, Visit&& visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char* field = ts_tree_cursor_current_field_name(&cursor);
      visit(ts_tree_cursor_current_node(&cursor), field ? std::string_view(field) : std::string_view());
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
}

// The same for named children only.
template <class Visit>
void forEachNamedChild(TSNode node, Visit&& visit) {
  forEachChild(node, [&](TSNode child, std::string_view field) {
    if (ts_node_is_named(child)) visit(child, field);
  });
}

}  // namespace lathe::tools::shell
