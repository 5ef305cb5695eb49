// Implementation of the JSON vocabulary. Pure functions; any thread.
#include "protocol/base/json.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <rapidjson/error/en.h>

#include <cstring>

#include "protocol/base/utf8.h"

namespace lathe::json {

namespace {

// The offset where nesting first passes kMaxDepth, if it does (strings skipped).
std::optional<size_t> tooDeep(std::string_view text) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Document> parse(std::string_view text) {
  if (auto at = tooDeep(text)) {
    return makeError(Errc::parse_error, "invalid JSON at offset " + std::to_string(*at) + ": nested deeper than " +
                                            std::to_string(kMaxDepth) + " levels");
  }
  Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc.HasParseError()) {
    return makeError(Errc::parse_error, std::string("invalid JSON at offset ") + std::to_string(doc.GetErrorOffset()) +
                                            ": " + rapidjson::GetParseError_En(doc.GetParseError()));
  }
  return doc;
}

Result<std::shared_ptr<Document>> parseShared(std::string_view text) {
  auto doc = parse(text);
  if (!doc) return doc.error();
  return std::make_shared<Document>(std::move(doc).value());
}

std::string stringify(const Value& value) {
  return build([&](Writer& w) { value.Accept(w); });
}

void key(Writer& w, std::string_view k) { w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }
bool Writer::String(const char* text, rapidjson::SizeType length, bool copy) {
  std::string_view view(text, length);
  if (utf8::isValid(view)) return rapidjson::Writer<StringOut>::String(text, length, copy);
  std::string clean = utf8::sanitize(view);
  return rapidjson::Writer<StringOut>::String(clean.data(), static_cast<rapidjson::SizeType>(clean.size()), true);
}

bool Writer::Key(const char* text, rapidjson::SizeType length, bool copy) {
  std::string_view view(text, length);
  if (utf8::isValid(view)) return rapidjson::Writer<StringOut>::Key(text, length, copy);
  std::string clean = utf8::sanitize(view);
  return rapidjson::Writer<StringOut>::Key(clean.data(), static_cast<rapidjson::SizeType>(clean.size()), true);
}

void Writer::bulkValue(std::string_view json, rapidjson::Type type) {
  RawValue("", 0, type);  // the separator and the writer's bookkeeping
  out_.text.append(json);
}

namespace {

// The same escaping as RapidJSON's writer, in bulk: runs that need none are
// copied whole (file texts in diffs are megabytes). JavaScript writes the hex
// digits of \u00xx in lower case.
void appendQuoted(std::string& out, std::string_view v, bool lowerHex = false) {
  const char* kHex = lowerHex ? "0123456789abcdef" : "0123456789ABCDEF";
  out.reserve(out.size() + v.size() + v.size() / 16 + 2);
  out += '"';
  size_t start = 0;
  for (size_t i = 0; i < v.size(); ++i) {
#ifdef __SSE2__
    // Sixteen bytes at a time while none needs escaping.
    const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80)), space = _mm_set1_epi8(static_cast<char>(0x20 ^ 0x80));
    while (i + 16 <= v.size()) {
      __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.data() + i));
      __m128i special = _mm_or_si128(_mm_cmplt_epi8(_mm_xor_si128(bytes, flip), space),
                                     _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, slash)));
      int mask = _mm_movemask_epi8(special);
      if (mask != 0) {
        i += static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
        break;
      }
      i += 16;
    }
    if (i >= v.size()) break;
#endif
    auto c = static_cast<unsigned char>(v[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(v.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += "\\u00"; out += kHex[c >> 4]; out += kHex[c & 15];
    }
  }
  out.append(v.data() + start, v.size() - start);
  out += '"';
}

}  // namespace

void appendJsString(std::string& out, std::string_view text) { appendQuoted(out, text, true); }

void Writer::bulkString(std::string_view text) {
  RawValue("", 0, rapidjson::kStringType);
  if (utf8::isValid(text)) return appendQuoted(out_.text, text);
  appendQuoted(out_.text, utf8::sanitize(text));
}

void Writer::reserve(size_t bytes, size_t extra) {
  out_.text.reserve(out_.text.size() + bytes + bytes / 16 + extra);
}

void str(Writer& w, std::string_view v) {
  if (v.size() < 4096) {
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    return;
  }
  w.bulkString(v);
}
void raw(Writer& w, const Raw& r) {
  if (r.empty()) {
    w.Null();
  } else {
    w.bulkValue(r.text, rapidjson::kObjectType);
  }
}
void put(Writer& w, std::string_view k, std::string_view v) { key(w, k), str(w, v); }
void put(Writer& w, std::string_view k, const char* v) { key(w, k), str(w, v); }
void put(Writer& w, std::string_view k, const std::string& v) { key(w, k), str(w, v); }
void put(Writer& w, std::string_view k, int64_t v) { key(w, k), w.Int64(v); }
void put(Writer& w, std::string_view k, int v) { key(w, k), w.Int(v); }
void put(Writer& w, std::string_view k, bool v) { key(w, k), w.Bool(v); }
void put(Writer& w, std::string_view k, const Raw& v) { key(w, k), raw(w, v); }

Reader::Reader(const Value* value, std::string path, std::shared_ptr<std::optional<Error>> error)
    : value_(value), path_(std::move(path)), error_(error ? std::move(error) : std::make_shared<std::optional<Error>>()) {}

Reader Reader::root(const Value& value, std::string path) {
  Reader r(&value, std::move(path));
  r.expectObject();
  return r;
}

Error Reader::error() const { return error_->value_or(Error{Errc::invalid_params, ""}); }

void Reader::fail(const std::string& where, const std::string& what) {
  if (!error_->has_value()) *error_ = Error{Errc::invalid_params, where + ": " + what};
}

bool Reader::expectObject() {
  if (isObject()) return true;
  fail(path_, "expected an object");
  return false;
}

std::string Reader::childPath(const char* k) const { return path_.empty() ? std::string(k) : path_ + "." + k; }

const Value* Reader::member(const char* k) const {
  if (!isObject()) return nullptr;
  auto it = value_->FindMember(k);
  if (it == value_->MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

bool Reader::has(const char* k) const { return member(k) != nullptr; }

std::optional<std::string> Reader::optStr(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  if (!v->IsString()) {
    fail(childPath(k), "expected a string");
    return std::nullopt;
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::string Reader::str(const char* k) {
  if (!member(k)) {
    fail(childPath(k), "required string is missing");
    return {};
  }
  return optStr(k).value_or(std::string());
}

std::optional<int64_t> Reader::optInt64(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  if (!v->IsInt64()) {
    fail(childPath(k), "expected an integer");
    return std::nullopt;
  }
  return v->GetInt64();
}

int64_t Reader::int64(const char* k) {
  if (!member(k)) {
    fail(childPath(k), "required integer is missing");
    return 0;
  }
  return optInt64(k).value_or(0);
}

std::optional<double> Reader::optNumber(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  if (!v->IsNumber()) {
    fail(childPath(k), "expected a number");
    return std::nullopt;
  }
  return v->GetDouble();
}

std::optional<bool> Reader::optBool(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  if (!v->IsBool()) {
    fail(childPath(k), "expected a boolean");
    return std::nullopt;
  }
  return v->GetBool();
}

bool Reader::boolean(const char* k) {
  if (!member(k)) {
    fail(childPath(k), "required boolean is missing");
    return false;
  }
  return optBool(k).value_or(false);
}

std::optional<Reader> Reader::optObject(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  Reader r(v, childPath(k), error_);
  if (!r.expectObject()) return std::nullopt;
  return r;
}

Reader Reader::object(const char* k) {
  if (auto r = optObject(k)) return *r;
  if (!member(k)) fail(childPath(k), "required object is missing");
  return Reader(nullptr, childPath(k), error_);
}

std::optional<std::vector<Reader>> Reader::optArray(const char* k) {
  const Value* v = member(k);
  if (!v) return std::nullopt;
  if (!v->IsArray()) {
    fail(childPath(k), "expected an array");
    return std::nullopt;
  }
  std::vector<Reader> out;
  out.reserve(v->Size());
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    out.emplace_back(&(*v)[i], childPath(k) + "[" + std::to_string(i) + "]", error_);
  }
  return out;
}

std::vector<Reader> Reader::array(const char* k) {
  if (!member(k)) {
    fail(childPath(k), "required array is missing");
    return {};
  }
  return optArray(k).value_or(std::vector<Reader>{});
}

std::optional<std::vector<std::string>> Reader::optStrings(const char* k) {
  auto items = optArray(k);
  if (!items) return std::nullopt;
  std::vector<std::string> out;
  for (auto& item : *items) out.push_back(item.asStr());
  return out;
}

std::string Reader::asStr() {
  if (!value_ || !value_->IsString()) {
    fail(path_, "expected a string");
    return {};
  }
  return std::string(value_->GetString(), value_->GetStringLength());
}

Raw Reader::rawMember(const char* k) const {
  const Value* v = member(k);
  return v ? Raw{stringify(*v)} : Raw{};
}

const Value* find(const Value& obj, const char* k) {
  if (!obj.IsObject()) return nullptr;
  auto it = obj.FindMember(k);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string> getStr(const Value& obj, const char* k) {
  const Value* v = find(obj, k);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<int64_t> getInt(const Value& obj, const char* k) {
  const Value* v = find(obj, k);
  if (!v || !v->IsInt64()) return std::nullopt;
  return v->GetInt64();
}

std::optional<bool> getBool(const Value& obj, const char* k) {
  const Value* v = find(obj, k);
  if (!v || !v->IsBool()) return std::nullopt;
  return v->GetBool();
}

}  // namespace lathe::json
