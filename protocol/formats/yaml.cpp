#include "protocol/formats/yaml.h"

#include <cmath>
#include <cstdlib>
#include <regex>

#include <yaml-cpp/yaml.h>

namespace lathe::formats {
namespace {

constexpr size_t kMaxNodes = 100000;  // aliases may repeat a node many times over

// yaml-cpp's parser recurses once per level of flow nesting ("[[[[") and of
// block indentation; this counts both, loosely, before it is run.
bool nestedTooDeeply(std::string_view text) {
  int flow = 0;
  for (char c : text) {
    if (c == '[' || c == '{') {
      if (++flow > json::kMaxDepth) return true;
    } else if ((c == ']' || c == '}') && flow > 0) {
      --flow;
    }
  }
  size_t lineStart = 0;
  while (lineStart < text.size()) {
    size_t indent = text.find_first_not_of(" -", lineStart);
    if (indent == std::string_view::npos) break;
    if (indent - lineStart > static_cast<size_t>(json::kMaxDepth) * 4) return true;
    size_t next = text.find('\n', lineStart);
    if (next == std::string_view::npos) break;
    lineStart = next + 1;
  }
  return false;
}

json::Value plainScalar(const std::string& text, json::Document::AllocatorType& alloc) {
  static const std::regex integer("[-+]?[0-9]+");
  static const std::regex real("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return json::Value();
  if (text == "true" || text == "True" || text == "TRUE") return json::Value(true);
  if (text == "false" || text == "False" || text == "FALSE") return json::Value(false);
  if (text.size() < 20 && std::regex_match(text, integer)) return json::Value(static_cast<int64_t>(std::strtoll(text.c_str(), nullptr, 10)));
  if (text.size() < 40 && std::regex_match(text, real)) {
    double value = std::strtod(text.c_str(), nullptr);
    if (std::isfinite(value)) return json::Value(value);
  }
  return json::Value(text.c_str(), alloc);
}

class Converter {
 public:
  Converter(LocatedDocument& out, int firstLine) : out_(out), alloc_(out.value.GetAllocator()), firstLine_(firstLine) {}

  Result<json::Value> convert(const YAML::Node& node, const std::string& path, int depth) {
    if (++nodes_ > kMaxNodes) return fail(node, "expands to too many values");
    if (depth > json::kMaxDepth) return fail(node, "is nested too deeply");
    out_.lines.emplace(path, lineOf(node));
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return json::Value();
      case YAML::NodeType::Scalar:
        if (node.Tag() == "?") return plainScalar(node.Scalar(), alloc_);
        return json::Value(node.Scalar().c_str(), alloc_);
      case YAML::NodeType::Sequence: {
        json::Value items(rapidjson::kArrayType);
        size_t i = 0;
        for (const YAML::Node& item : node) {
          auto converted = convert(item, path + "[" + std::to_string(i++) + "]", depth + 1);
          if (!converted) return converted.error();
          items.PushBack(std::move(converted).value(), alloc_);
        }
        return items;
      }
      case YAML::NodeType::Map: {
        json::Value object(rapidjson::kObjectType);
        for (const auto& member : node) {
          if (!member.first.IsScalar()) return fail(member.first, "a key must be plain text");
          const std::string& name = member.first.Scalar();
          std::string childPath = path.empty() ? name : path + "." + name;
          if (object.HasMember(name.c_str())) return fail(member.first, "key '" + name + "' appears twice");
          auto converted = convert(member.second, childPath, depth + 1);
          if (!converted) return converted.error();
          out_.lines[childPath] = lineOf(member.first);
          object.AddMember(json::Value(name.c_str(), alloc_), std::move(converted).value(), alloc_);
        }
        return object;
      }
    }
    return json::Value();
  }

 private:
  int lineOf(const YAML::Node& node) const { return node.Mark().line < 0 ? 0 : node.Mark().line + firstLine_; }
  Error fail(const YAML::Node& node, const std::string& what) const {
    return makeError(Errc::parse_error, out_.source + ":" + std::to_string(lineOf(node)) + ": " + what);
  }

  LocatedDocument& out_;
  json::Document::AllocatorType& alloc_;
  int firstLine_;
  size_t nodes_ = 0;
};

}  // namespace

Result<LocatedDocument> parseYaml(std::string_view text, std::string source, int firstLine) {
  if (nestedTooDeeply(text)) return makeError(Errc::parse_error, source + ": YAML nested too deeply");
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& error) {
    std::string where = error.mark.is_null() ? source
                                             : source + ":" + std::to_string(error.mark.line + firstLine) + ":" +
                                                   std::to_string(error.mark.column + 1);
    return makeError(Errc::parse_error, where + ": " + error.msg);
  }
  LocatedDocument out;
  out.source = std::move(source);
  Converter converter(out, firstLine);
  auto value = converter.convert(root, "", 0);
  if (!value) return value.error();
  static_cast<json::Value&>(out.value).Swap(value.value());  // Document::Swap would swap allocators too
  return out;
}

}  // namespace lathe::formats
