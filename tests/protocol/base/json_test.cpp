// The checked JSON reader and parsing rules.
#include <catch2/catch.hpp>

#include "protocol/base/base64.h"
#include "protocol/base/json.h"
#include "protocol/base/utf8.h"

using namespace lathe;

TEST_CASE("parse rejects invalid UTF-8 and trailing garbage") {
  CHECK(json::parse("{\"a\":\"ok\"}").ok());
  auto bad = json::parse(std::string("{\"a\":\"\xff\xfe\"}"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == Errc::parse_error);
  CHECK_FALSE(json::parse("{} {}").ok());
  CHECK_FALSE(json::parse("").ok());
}

TEST_CASE("reader reports the path of the first bad field") {
  auto doc = json::parse(R"({"cwd": 5, "prompt": [{"type": "text"}, {"type": "text", "text": 3}]})").value();
  auto r = json::Reader::root(doc);
  r.str("cwd");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == Errc::invalid_params);
  CHECK(r.error().message == "params.cwd: expected a string");

  auto r2 = json::Reader::root(doc);
  auto items = r2.array("prompt");
  REQUIRE(items.size() == 2);
  items[1].str("text");
  CHECK(r2.error().message == "params.prompt[1].text: expected a string");
}

TEST_CASE("reader: missing required fields, optional fields, nested objects") {
  auto doc = json::parse(R"({"a": {"b": true, "n": 7}, "list": ["x", "y"], "nul": null})").value();
  auto r = json::Reader::root(doc);
  auto a = r.object("a");
  CHECK(a.boolean("b"));
  CHECK(a.int64("n") == 7);
  CHECK_FALSE(r.optStr("nul").has_value());
  CHECK(r.optStrings("list").value() == std::vector<std::string>{"x", "y"});
  CHECK(r.ok());
  r.str("missing");
  CHECK(r.error().message == "params.missing: required string is missing");
}

TEST_CASE("reader: a non-object root is an error") {
  auto doc = json::parse("[1,2]").value();
  auto r = json::Reader::root(doc);
  CHECK_FALSE(r.ok());
  CHECK(r.error().message == "params: expected an object");
}

TEST_CASE("build and raw values round-trip") {
  json::Raw inner{R"({"x":[1,2]})"};
  std::string text = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "s", std::string("a\"b\n"));
    json::put(w, "raw", inner);
    json::put(w, "none", json::Raw{});
    w.EndObject();
  });
  CHECK(text == R"({"s":"a\"b\n","raw":{"x":[1,2]},"none":null})");
  auto doc = json::parse(text).value();
  CHECK(json::getStr(doc, "s").value() == "a\"b\n");
}

TEST_CASE("base64 encodes with padding") {
  CHECK(base64Encode("") == "");
  CHECK(base64Encode("f") == "Zg==");
  CHECK(base64Encode("fo") == "Zm8=");
  CHECK(base64Encode("foo") == "Zm9v");
  CHECK(base64Encode(std::string("\x00\xff", 2)) == "AP8=");
}

TEST_CASE("long strings are escaped in bulk exactly as RapidJSON escapes short ones") {
  std::string text;
  for (int i = 0; i < 600; ++i) {
    for (int c = 0; c < 0x20; ++c) text += static_cast<char>(c);
    text += "plain \"quoted\" back\\slash / caf\xC3\xA9 ";
  }
  REQUIRE(text.size() > 4096);
  std::string bulk = json::build([&](json::Writer& w) { json::str(w, text); });
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> reference(buffer);
  reference.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  CHECK(bulk == std::string(buffer.GetString(), buffer.GetSize()));
  auto back = json::parse(bulk);
  REQUIRE(back.ok());
  CHECK(std::string(back->GetString(), back->GetStringLength()) == text);
}

TEST_CASE("deep nesting is refused with a clear error, never a stack overflow") {
  std::string deep(1'000'000, '[');
  auto parsed = json::parse(deep);
  REQUIRE_FALSE(parsed.ok());
  CHECK_THAT(parsed.error().message, Catch::Contains("nested deeper than 256 levels"));
  std::string ok = std::string(256, '[') + std::string(256, ']');
  CHECK(json::parse(ok).ok());
  std::string inString = "[\"" + std::string(10'000, '[') + "\"]";
  CHECK(json::parse(inString).ok());  // brackets inside strings do not count
}

TEST_CASE("everything written is valid UTF-8: lone surrogates and bad bytes become U+FFFD") {
  auto doc = json::parse(R"({"t":"a\udc00b"})");  // a lone low surrogate decodes to invalid bytes
  REQUIRE(doc.ok());
  std::string out = json::stringify(*doc);
  CHECK(utf8::isValid(out));
  CHECK(out == "{\"t\":\"a\xEF\xBF\xBD" "b\"}");
  std::string bad = "ok \xC3 \xED\xA0\x80 \xF4\x90\x80\x80 \xC0\xAF end";
  std::string written = json::build([&](json::Writer& w) { json::str(w, bad); });
  CHECK(utf8::isValid(written));
  CHECK(utf8::sanitize("caf\xC3\xA9") == "caf\xC3\xA9");
  std::string big(10'000, 'x');
  big += "\xFF";
  CHECK(utf8::isValid(json::build([&](json::Writer& w) { json::str(w, big); })));
}
