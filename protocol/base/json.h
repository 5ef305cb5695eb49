// JSON vocabulary on top of RapidJSON: parsing, a checked reader that names the
// path of a bad field, raw JSON carried uninterpreted, and small writer helpers.
// Never compare a rapidjson::Value with == (RapidJSON 1.1.0 recurses under C++20):
// read values through the typed accessors here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "protocol/base/result.h"

namespace lathe::json {

using Value = rapidjson::Value;
using Document = rapidjson::Document;
// An output stream for RapidJSON's writer that builds a std::string, so a
// finished text is moved out, not copied.
struct StringOut {
  using Ch = char;
  std::string text;
  void Put(char c) { text.push_back(c); }
  void Flush() {}
};

// RapidJSON's writer into a string; large raw values and strings are
// appended in bulk (its own RawValue copies byte by byte).
class Writer : public rapidjson::Writer<StringOut> {
 public:
  explicit Writer(StringOut& out) : rapidjson::Writer<StringOut>(out), out_(out) {}
  // Strings and keys are written as valid UTF-8 whatever they hold (hides
  // RapidJSON's own, so Value::Accept goes through these too).
  bool String(const char* text, rapidjson::SizeType length, bool copy = false);
  bool Key(const char* text, rapidjson::SizeType length, bool copy = false);
  // Writes a complete JSON value given as text.
  void bulkValue(std::string_view json, rapidjson::Type type);
  // Writes a string value, escaped straight into the output.
  void bulkString(std::string_view text);
  // Makes room for `bytes` of text about to be written as strings (with
  // their escapes) plus `extra`, so large values are not copied as the
  // output grows.
  void reserve(size_t bytes, size_t extra);

 private:
  StringOut& out_;
};

// A complete JSON text carried without interpretation (tool arguments, raw
// model payloads). Empty means "absent".
struct Raw {
  std::string text;
  bool empty() const { return text.empty(); }
};

// JSON nested deeper than this is refused: every walker of parsed JSON may
// then recurse safely, whatever the input.
inline constexpr int kMaxDepth = 256;

// Parses UTF-8 JSON (without recursion), rejecting invalid encodings and
// nesting deeper than kMaxDepth. The error says where.
Result<Document> parse(std::string_view text);
Result<std::shared_ptr<Document>> parseShared(std::string_view text);

std::string stringify(const Value& value);

// Builds a JSON text with a writer callback: json::build([&](Writer& w){...}).
template <class Fn>
std::string build(Fn&& fn) {
  StringOut out;
  Writer writer(out);
  fn(writer);
  return std::move(out.text);
}

// Writes an object whose members `fields` writes:
//   json::object(w, [&] { json::put(w, "name", name); });
template <class Fn>
void object(Writer& w, Fn&& fields) {
  w.StartObject();
  fields();
  w.EndObject();
}

// Writes an array whose elements `items` writes.
template <class Fn>
void array(Writer& w, Fn&& items) {
  w.StartArray();
  items();
  w.EndArray();
}

// A JSON object as text: json::buildObject([&](Writer& w) { json::put(w, ...); }).
template <class Fn>
std::string buildObject(Fn&& fields) {
  return build([&](Writer& w) { object(w, [&] { fields(w); }); });
}

// Appends `text` as JavaScript's JSON.stringify writes a string (only the
// quote, the backslash and control characters escaped, these as lower-case
// \u00xx): the text Gemini CLI's policy patterns are written against. Valid
// UTF-8 expected.
void appendJsString(std::string& out, std::string_view text);

// Writer helpers: keys and strings from string_views, raw values spliced in.
void key(Writer& w, std::string_view k);
void str(Writer& w, std::string_view v);
void raw(Writer& w, const Raw& r);  // writes null when empty
void put(Writer& w, std::string_view k, std::string_view v);
void put(Writer& w, std::string_view k, const char* v);
void put(Writer& w, std::string_view k, const std::string& v);
void put(Writer& w, std::string_view k, int64_t v);
void put(Writer& w, std::string_view k, int v);
void put(Writer& w, std::string_view k, bool v);
void put(Writer& w, std::string_view k, const Raw& v);

// Member `k` holding an object (or array) whose contents the callback writes.
template <class Fn>
void object(Writer& w, std::string_view k, Fn&& fields) {
  key(w, k);
  object(w, std::forward<Fn>(fields));
}
template <class Fn>
void array(Writer& w, std::string_view k, Fn&& items) {
  key(w, k);
  array(w, std::forward<Fn>(items));
}

// Reads fields of an object, remembering the first problem with its path
// ("params.prompt[2].text: expected a string"). Accessors return a default after
// an error, so a decoder reads everything and checks ok() once at the end.
class Reader {
 public:
  Reader(const Value* value, std::string path, std::shared_ptr<std::optional<Error>> error = nullptr);
  static Reader root(const Value& value, std::string path = "params");

  bool ok() const { return !error_->has_value(); }
  Error error() const;
  const std::string& path() const { return path_; }
  const Value* value() const { return value_; }
  bool isObject() const { return value_ && value_->IsObject(); }
  bool has(const char* k) const;

  std::string str(const char* k);
  std::optional<std::string> optStr(const char* k);
  int64_t int64(const char* k);
  std::optional<int64_t> optInt64(const char* k);
  std::optional<double> optNumber(const char* k);
  bool boolean(const char* k);
  std::optional<bool> optBool(const char* k);
  Reader object(const char* k);
  std::optional<Reader> optObject(const char* k);
  std::vector<Reader> array(const char* k);
  std::optional<std::vector<Reader>> optArray(const char* k);
  std::optional<std::vector<std::string>> optStrings(const char* k);
  // The member as raw JSON text, or empty when absent.
  Raw rawMember(const char* k) const;

  // This value itself (for array elements).
  std::string asStr();
  bool expectObject();

  void fail(const std::string& where, const std::string& what);

 private:
  const Value* member(const char* k) const;
  std::string childPath(const char* k) const;

  const Value* value_;
  std::string path_;
  std::shared_ptr<std::optional<Error>> error_;
};

// Typed lookups on a parsed value that tolerate absence (for reading model
// payloads, where unknown shapes are skipped rather than rejected).
const Value* find(const Value& obj, const char* k);
std::optional<std::string> getStr(const Value& obj, const char* k);
std::optional<int64_t> getInt(const Value& obj, const char* k);
std::optional<bool> getBool(const Value& obj, const char* k);

}  // namespace lathe::json
