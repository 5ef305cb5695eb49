#define TOML_EXCEPTIONS 0
#define TOML_HEADER_ONLY 1
#define TOML_ENABLE_FORMATTERS 1
#include "protocol/formats/toml.h"

#include <optional>
#include <sstream>
#include <variant>

// toml++ 3.3 asserts things about malformed input that its own error paths
// then handle ("[[>" in a table header), and with NDEBUG under clang it
// assumes them instead (undefined behaviour): neither may be taken from a
// file a person or a workspace wrote, so its assertions are off either way.
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

namespace lathe::formats {
namespace {

class Converter {
 public:
  explicit Converter(LocatedDocument& out) : out_(out), alloc_(out.value.GetAllocator()) {}

  json::Value convert(const toml::node& node, const std::string& path) {
    if (node.source().begin.line > 0) out_.lines.emplace(path, static_cast<int>(node.source().begin.line));
    if (const toml::table* table = node.as_table()) return convertTable(*table, path);
    if (const toml::array* array = node.as_array()) {
      json::Value items(rapidjson::kArrayType);
      for (size_t i = 0; i < array->size(); ++i) {
        items.PushBack(convert(*array->get(i), path + "[" + std::to_string(i) + "]"), alloc_);
      }
      return items;
    }
    if (auto text = node.value_exact<std::string>()) return json::Value(text->c_str(), alloc_);
    if (auto number = node.value_exact<int64_t>()) return json::Value(static_cast<int64_t>(*number));
    if (auto real = node.value_exact<double>()) return json::Value(*real);
    if (auto flag = node.value_exact<bool>()) return json::Value(*flag);
    // Dates and times: their TOML text.
    std::ostringstream text;
    node.visit([&](const auto& value) {
      if constexpr (toml::is_date<decltype(value)> || toml::is_time<decltype(value)> ||
                    toml::is_date_time<decltype(value)>) {
        text << value;
      }
    });
    return json::Value(text.str().c_str(), alloc_);
  }

  json::Value convertTable(const toml::table& table, const std::string& path) {
    json::Value object(rapidjson::kObjectType);
    for (const auto& [key, value] : table) {
      std::string name(key.str());
      std::string childPath = path.empty() ? name : path + "." + name;
      if (key.source().begin.line > 0) out_.lines[childPath] = static_cast<int>(key.source().begin.line);
      json::Value converted = convert(value, childPath);
      if (key.source().begin.line > 0) out_.lines[childPath] = static_cast<int>(key.source().begin.line);
      object.AddMember(json::Value(name.c_str(), alloc_), std::move(converted), alloc_);
    }
    return object;
  }

 private:
  LocatedDocument& out_;
  json::Document::AllocatorType& alloc_;
};

// Checks what toml++ 3.3 must not see. TOML allows no control character but
// tab and line ends anywhere, and non-ASCII text only inside strings and
// comments; toml++ asserts on some control characters (a NUL in a table
// header) and reaches __builtin_unreachable() on some non-ASCII characters
// where it looks for whitespace (U+00E9 among them): undefined behaviour a
// file from a workspace must never cause.
// A multi-line string's closing quotes: three, and up to two more that are
// still the string's own.
size_t closingRun(std::string_view text, size_t at) {
  size_t run = 0;
  while (at + run < text.size() && text[at + run] == text[at] && run < 5) ++run;
  return run;
}

std::optional<Error> unsafeCharacter(std::string_view text, const std::string& source) {
  enum class In { code, comment, basic, literal, multiBasic, multiLiteral } in = In::code;
  int line = 1;
  auto fail = [&](std::string what) {
    return makeError(Errc::parse_error, source + ":" + std::to_string(line) + ": " + std::move(what));
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return fail("control character " + std::to_string(c) + " is not allowed in TOML");
    }
    const bool triple = text.substr(i, 3) == std::string(3, text[i]);
    switch (in) {
      case In::code:
        if (c == '#') {
          in = In::comment;
        } else if (c == '"' || c == '\'') {
          in = c == '"' ? (triple ? In::multiBasic : In::basic) : (triple ? In::multiLiteral : In::literal);
          if (triple) i += 2;
        } else if (c >= 0x80) {
          return fail("non-ASCII text outside a string or comment");
        }
        break;
      case In::comment:
        if (c == '\n') in = In::code;
        break;
      case In::basic:
      case In::multiBasic:
        if (c == '\\') {
          if (++i < text.size() && text[i] == '\n') ++line;  // an escaped character stays inside
        } else if (c == '"' && (in == In::basic || triple)) {
          if (in == In::multiBasic) i += closingRun(text, i) - 1;
          in = In::code;
        } else if (c == '\n' && in == In::basic) {
          in = In::code;  // unterminated: toml++ says so
        }
        break;
      case In::literal:
      case In::multiLiteral:
        if (c == '\'' && (in == In::literal || triple)) {
          if (in == In::multiLiteral) i += closingRun(text, i) - 1;
          in = In::code;
        } else if (c == '\n' && in == In::literal) {
          in = In::code;
        }
        break;
    }
    if (c == '\n') ++line;
  }
  return std::nullopt;
}

// JSON into toml++ nodes, for writing.
class Builder {
 public:
  std::optional<Error> error;

  toml::table table(const json::Value& object, const std::string& path) {
    toml::table out;
    for (const auto& member : object.GetObject()) {
      std::string name(member.name.GetString(), member.name.GetStringLength());
      std::string childPath = path.empty() ? name : path + "." + name;
      if (auto node = value(member.value, childPath)) {
        std::visit([&](auto&& v) { out.insert(name, std::move(v)); }, std::move(*node));
      }
    }
    return out;
  }

 private:
  std::optional<toml::array> array(const json::Value& items, const std::string& path) {
    toml::array out;
    for (rapidjson::SizeType i = 0; i < items.Size(); ++i) {
      auto node = value(items[i], path + "[" + std::to_string(i) + "]");
      if (!node) return std::nullopt;
      std::visit([&](auto&& v) { out.push_back(std::move(v)); }, std::move(*node));
    }
    return out;
  }

  using Node = std::variant<toml::table, toml::array, std::string, int64_t, double, bool>;

  std::optional<Node> value(const json::Value& v, const std::string& path) {
    if (v.IsObject()) return Node(table(v, path));
    if (v.IsArray()) {
      auto items = array(v, path);
      if (!items) return std::nullopt;
      return Node(std::move(*items));
    }
    if (v.IsString()) return Node(std::string(v.GetString(), v.GetStringLength()));
    if (v.IsBool()) return Node(v.GetBool());
    if (v.IsInt64()) return Node(v.GetInt64());
    if (v.IsNumber()) return Node(v.GetDouble());
    if (!error) error = makeError(Errc::invalid_params, path + ": TOML has no null");
    return std::nullopt;
  }
};

}  // namespace

Result<std::string> writeToml(const json::Value& object) {
  if (!object.IsObject()) return makeError(Errc::invalid_params, "a TOML document is a table");
  Builder builder;
  toml::table table = builder.table(object, "");
  if (builder.error) return *builder.error;
  std::ostringstream out;
  out << toml::toml_formatter(table);
  return out.str() + "\n";
}

Result<LocatedDocument> parseToml(std::string_view text, std::string source) {
  if (auto bad = unsafeCharacter(text, source)) return *bad;
  toml::parse_result parsed = toml::parse(text, source);
  if (!parsed) {
    const toml::parse_error& error = parsed.error();
    return makeError(Errc::parse_error, source + ":" + std::to_string(error.source().begin.line) + ":" +
                                            std::to_string(error.source().begin.column) + ": " +
                                            std::string(error.description()));
  }
  LocatedDocument out;
  out.source = std::move(source);
  Converter converter(out);
  json::Value root = converter.convertTable(parsed.table(), "");
  static_cast<json::Value&>(out.value).Swap(root);  // Document::Swap would swap allocators too
  return out;
}

}  // namespace lathe::formats
