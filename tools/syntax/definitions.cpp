// Definitions from tree-sitter node types: one small table per language.
#include "tools/syntax/definitions.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

namespace lathe::tools::syntax {
namespace {

using namespace std::string_view_literals;

// Where a definition's name is.
enum class Name {
  field,       // the "name" field ("(anonymous)" without one)
  tag,         // C/C++ struct/class/union/enum: the name, else the typedef naming it
  declarator,  // C/C++ functions: the innermost name of the declarator chain
  rustImpl,    // "Trait for Type", or "Type"
  goMethod,    // "(s *T) Name"
  jsonKey,     // the key, unquoted
};

// What a node must have to count.
enum class Require {
  none,
  body,                // a "body" field (a struct definition, not a use of one)
  functionValue,       // a JS/TS declarator whose value is a function
  functionDeclarator,  // a C/C++ declaration of a function (not a variable or function pointer)
};

struct Rule {
  std::string_view node;
  std::string_view kind;  // empty: by the node's "type" field (Go type specs)
  Name name = Name::field;
  Require require = Require::none;
};

struct LanguageRules {
  std::span<const Rule> rules;
  // Parents that own a definition's first lines (decorators, template heads).
  std::span<const std::string_view> wrappers;
  // Nodes whose insides are not outlined (lambdas, anonymous classes).
  std::span<const std::string_view> opaque;
};

constexpr Rule kBash[] = {{"function_definition", "function"}};

constexpr Rule kC[] = {
    {"function_definition", "function", Name::declarator},
    {"declaration", "function", Name::declarator, Require::functionDeclarator},
    {"struct_specifier", "struct", Name::tag, Require::body},
    {"union_specifier", "union", Name::tag, Require::body},
    {"enum_specifier", "enum", Name::tag, Require::body},
};

constexpr Rule kCpp[] = {
    {"function_definition", "function", Name::declarator},
    {"declaration", "function", Name::declarator, Require::functionDeclarator},
    {"field_declaration", "function", Name::declarator, Require::functionDeclarator},
    {"class_specifier", "class", Name::tag, Require::body},
    {"struct_specifier", "struct", Name::tag, Require::body},
    {"union_specifier", "union", Name::tag, Require::body},
    {"enum_specifier", "enum", Name::tag, Require::body},
    {"namespace_definition", "namespace"},
};

constexpr Rule kGo[] = {
    {"function_declaration", "function"},
    {"method_declaration", "method", Name::goMethod},
    {"type_spec", ""},
    {"type_alias", "type"},
};

constexpr Rule kJava[] = {
    {"class_declaration", "class"},         {"interface_declaration", "interface"},
    {"enum_declaration", "enum"},           {"record_declaration", "record"},
    {"annotation_type_declaration", "annotation"}, {"method_declaration", "method"},
    {"constructor_declaration", "constructor"},
};

constexpr Rule kJavaScript[] = {
    {"function_declaration", "function"},
    {"generator_function_declaration", "function"},
    {"class_declaration", "class"},
    {"method_definition", "method"},
    {"variable_declarator", "function", Name::field, Require::functionValue},
};

constexpr Rule kTypeScript[] = {
    {"function_declaration", "function"},
    {"generator_function_declaration", "function"},
    {"function_signature", "function"},
    {"class_declaration", "class"},
    {"abstract_class_declaration", "class"},
    {"method_definition", "method"},
    {"method_signature", "method"},
    {"abstract_method_signature", "method"},
    {"variable_declarator", "function", Name::field, Require::functionValue},
    {"interface_declaration", "interface"},
    {"type_alias_declaration", "type"},
    {"enum_declaration", "enum"},
    {"internal_module", "namespace"},
    {"module", "module"},
};

constexpr Rule kJson[] = {{"pair", "key", Name::jsonKey}};

constexpr Rule kPython[] = {{"function_definition", "function"}, {"class_definition", "class"}};

constexpr Rule kRust[] = {
    {"function_item", "function"},  {"function_signature_item", "function"},
    {"struct_item", "struct"},      {"enum_item", "enum"},
    {"union_item", "union"},        {"trait_item", "trait"},
    {"impl_item", "impl", Name::rustImpl}, {"mod_item", "module"},
    {"macro_definition", "macro"},  {"type_item", "type"},
};

constexpr std::string_view kCppWrappers[] = {"template_declaration"};
constexpr std::string_view kJsWrappers[] = {"export_statement"};
constexpr std::string_view kPythonWrappers[] = {"decorated_definition"};
constexpr std::string_view kCppOpaque[] = {"lambda_expression"};
constexpr std::string_view kGoOpaque[] = {"func_literal"};
constexpr std::string_view kJavaOpaque[] = {"lambda_expression", "object_creation_expression"};
constexpr std::string_view kJsOpaque[] = {"arrow_function", "function_expression", "function", "generator_function",
                                          "class"};
constexpr std::string_view kJsonOpaque[] = {"array"};
constexpr std::string_view kPythonOpaque[] = {"lambda"};
constexpr std::string_view kRustOpaque[] = {"closure_expression"};

LanguageRules rulesFor(Language language) {
  switch (language) {
    case Language::bash: return {kBash, {}, {}};
    case Language::c: return {kC, {}, {}};
    case Language::cpp: return {kCpp, kCppWrappers, kCppOpaque};
    case Language::go: return {kGo, {}, kGoOpaque};
    case Language::java: return {kJava, {}, kJavaOpaque};
    case Language::javascript: return {kJavaScript, kJsWrappers, kJsOpaque};
    case Language::json: return {kJson, {}, kJsonOpaque};
    case Language::python: return {kPython, kPythonWrappers, kPythonOpaque};
    case Language::rust: return {kRust, {}, kRustOpaque};
    case Language::tsx:
    case Language::typescript: return {kTypeScript, kJsWrappers, kJsOpaque};
  }
  return {};
}

bool contains(std::span<const std::string_view> list, std::string_view type) {
  return std::find(list.begin(), list.end(), type) != list.end();
}

// Kinds whose insides are never outlined.
bool isLeafKind(std::string_view kind) {
  return kind == "function" || kind == "method" || kind == "constructor" || kind == "type" || kind == "macro" ||
         kind == "key" || kind == "annotation";
}

// Kinds whose functions are methods.
bool hasMethods(std::string_view kind) {
  return kind == "class" || kind == "struct" || kind == "union" || kind == "interface" || kind == "enum" ||
         kind == "record" || kind == "trait" || kind == "impl";
}

constexpr size_t kNameChars = 100;

std::string collapse(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > kNameChars) {
    size_t cut = kNameChars - 3;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return out;
}

TSNode field(TSNode node, std::string_view name) {
  return ts_node_child_by_field_name(node, name.data(), static_cast<uint32_t>(name.size()));
}

std::string_view typeOf(TSNode node) { return ts_node_is_null(node) ? std::string_view() : ts_node_type(node); }

// The name at the end of a C/C++ declarator chain, and whether the chain
// declares a function (a function pointer does not).
struct DeclaratorName {
  TSNode name{};
  bool function = false;
};
DeclaratorName declaratorName(TSNode node) {
  DeclaratorName out;
  TSNode d = field(node, "declarator");
  while (!ts_node_is_null(d)) {
    const std::string_view type = ts_node_type(d);
    TSNode next = field(d, "declarator");
    if (type == "function_declarator") {
      if (typeOf(next) == "parenthesized_declarator") return {};  // (*f)(...): a pointer
      out.function = true;
    } else if (ts_node_is_null(next) && type.ends_with("_declarator") && ts_node_named_child_count(d) > 0) {
      next = ts_node_named_child(d, ts_node_named_child_count(d) - 1);  // & and && declarators
    }
    if (ts_node_is_null(next)) break;
    d = next;
  }
  out.name = d;
  return out;
}

std::optional<std::string> nameOf(const SyntaxTree& tree, TSNode node, TSNode parent, const Rule& rule) {
  auto textOr = [&](TSNode n, std::string_view fallback) {
    return ts_node_is_null(n) ? std::string(fallback) : collapse(tree.text(n));
  };
  switch (rule.name) {
    case Name::field: return textOr(field(node, "name"), "(anonymous)");
    case Name::tag: {
      TSNode name = field(node, "name");
      if (ts_node_is_null(name) && typeOf(parent) == "type_definition") name = field(parent, "declarator");
      return textOr(name, "(anonymous)");
    }
    case Name::declarator: {
      DeclaratorName d = declaratorName(node);
      if (rule.require == Require::functionDeclarator && !d.function) return std::nullopt;
      return textOr(d.name, "(anonymous)");
    }
    case Name::rustImpl: {
      std::string type = textOr(field(node, "type"), "?");
      TSNode trait = field(node, "trait");
      return ts_node_is_null(trait) ? type : collapse(tree.text(trait)) + " for " + type;
    }
    case Name::goMethod: {
      std::string name = textOr(field(node, "name"), "(anonymous)");
      TSNode receiver = field(node, "receiver");
      return ts_node_is_null(receiver) ? name : collapse(tree.text(receiver)) + " " + name;
    }
    case Name::jsonKey: {
      std::string_view key = tree.text(field(node, "key"));
      if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
      return collapse(key);
    }
  }
  return std::nullopt;
}

bool meets(TSNode node, Require require) {
  switch (require) {
    case Require::none:
    case Require::functionDeclarator: return true;  // checked with the name
    case Require::body: return !ts_node_is_null(field(node, "body"));
    case Require::functionValue: {
      const std::string_view value = typeOf(field(node, "value"));
      return value == "arrow_function" || value == "function_expression" || value == "function" ||
             value == "generator_function";
    }
  }
  return false;
}

std::string_view kindOf(TSNode node, const Rule& rule) {
  if (!rule.kind.empty()) return rule.kind;
  const std::string_view type = typeOf(field(node, "type"));  // Go: type X struct {...}
  if (type == "struct_type") return "struct";
  if (type == "interface_type") return "interface";
  return "type";
}

const Rule* ruleFor(const LanguageRules& rules, std::string_view type) {
  for (const Rule& rule : rules.rules) {
    if (rule.node == type) return &rule;
  }
  return nullptr;
}

// 1-based lines; an end at column 0 belongs to the line before.
std::pair<int64_t, int64_t> linesOf(TSNode node, TSNode first) {
  const TSPoint start = ts_node_start_point(first);
  const TSPoint end = ts_node_end_point(node);
  int64_t endRow = end.row;
  if (end.column == 0 && end.row > start.row) --endRow;
  return {static_cast<int64_t>(start.row) + 1, endRow + 1};
}

}  // namespace

std::vector<Definition> findDefinitions(const SyntaxTree& tree, size_t maxDepth) {
  const LanguageRules rules = rulesFor(tree.language());
  std::vector<Definition> out;
  // The definitions enclosing the cursor: the cursor depth each sits at, and its index in `out`.
  std::vector<std::pair<uint32_t, size_t>> open;
  std::vector<TSNode> ancestors;  // of the cursor's node (ts_node_parent searches from the root)
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  uint32_t depth = 0;
  for (bool done = false; !done;) {
    while (!open.empty() && open.back().first >= depth) open.pop_back();
    ancestors.resize(depth);
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    const TSNode parent = depth > 0 ? ancestors.back() : TSNode{};
    const std::string_view type = ts_node_type(node);
    bool descend = !contains(rules.opaque, type);
    if (const Rule* rule = ruleFor(rules, type); rule && ts_node_is_named(node) && meets(node, rule->require)) {
      if (auto name = nameOf(tree, node, parent, *rule)) {
        std::string_view kind = kindOf(node, *rule);
        if (kind == "function" && !open.empty() && hasMethods(out[open.back().second].kind)) kind = "method";
        const TSNode first = contains(rules.wrappers, typeOf(parent)) ? parent : node;
        auto [startLine, endLine] = linesOf(node, first);
        out.push_back(Definition{std::string(kind), std::move(*name), startLine, endLine, open.size()});
        descend = !isLeafKind(kind) && (maxDepth == 0 || open.size() + 1 < maxDepth);
        if (descend) open.emplace_back(depth, out.size() - 1);
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      ancestors.push_back(node);
      ++depth;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
      --depth;
    }
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

}  // namespace lathe::tools::syntax
