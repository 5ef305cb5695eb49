// JSON-RPC decoding and encoding.
#include <catch2/catch.hpp>

#include "protocol/jsonrpc/message.h"

using namespace lathe;
using Kind = rpc::Incoming::Kind;

TEST_CASE("decode classifies requests, notifications and responses") {
  auto req = rpc::decode(R"({"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}})");
  REQUIRE(req);
  CHECK(req->kind == Kind::request);
  CHECK(req->id.raw.text == "7");
  CHECK(req->method == "initialize");
  REQUIRE(req->params);

  auto note = rpc::decode(R"({"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}})");
  REQUIRE(note);
  CHECK(note->kind == Kind::notification);

  auto resp = rpc::decode(R"({"jsonrpc":"2.0","id":"a-1","result":{"ok":true}})");
  REQUIRE(resp);
  CHECK(resp->kind == Kind::response);
  CHECK(resp->id.raw.text == "\"a-1\"");
  REQUIRE(resp->result);

  auto err = rpc::decode(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}})");
  REQUIRE(err);
  REQUIRE(err->error);
  CHECK(err->error->code == -32601);
}

TEST_CASE("decode failures carry the right code and the id when usable") {
  auto parse = rpc::decode("{not json");
  REQUIRE_FALSE(parse);
  CHECK(parse.error().code == rpc::code::kParseError);
  CHECK_FALSE(parse.error().id);

  auto version = rpc::decode(R"({"jsonrpc":"1.0","id":4,"method":"x"})");
  REQUIRE_FALSE(version);
  CHECK(version.error().code == rpc::code::kInvalidRequest);
  REQUIRE(version.error().id);
  CHECK(version.error().id->raw.text == "4");

  auto notObject = rpc::decode("[1]");
  REQUIRE_FALSE(notObject);
  CHECK(notObject.error().code == rpc::code::kInvalidRequest);

  auto badId = rpc::decode(R"({"jsonrpc":"2.0","id":{"x":1},"method":"x"})");
  REQUIRE_FALSE(badId);
}

TEST_CASE("encoders produce exact JSON-RPC") {
  rpc::Id id{json::Raw{"12"}};
  CHECK(rpc::encodeResult(id, json::Raw{}) == R"({"jsonrpc":"2.0","id":12,"result":{}})");
  CHECK(rpc::encodeError(std::nullopt, {rpc::code::kParseError, "Parse error", {}}) ==
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
  CHECK(rpc::encodeNotification("session/update", json::Raw{R"({"a":1})"}) ==
        R"({"jsonrpc":"2.0","method":"session/update","params":{"a":1}})");
  CHECK(rpc::encodeRequest(id, "fs/read_text_file", json::Raw{"{}"}) ==
        R"({"jsonrpc":"2.0","id":12,"method":"fs/read_text_file","params":{}})");
}

TEST_CASE("internal errors map to JSON-RPC codes in one place") {
  CHECK(rpc::errorCodeFor(Errc::invalid_params) == -32602);
  CHECK(rpc::errorCodeFor(Errc::method_not_found) == -32601);
  CHECK(rpc::errorCodeFor(Errc::auth_required) == -32000);
  CHECK(rpc::errorCodeFor(Errc::not_found) == -32002);
  CHECK(rpc::errorCodeFor(Errc::model) == -32603);
}

TEST_CASE("broken responses are marked so they are never answered, a null-id request is still a request") {
  auto nullIdResponse = rpc::decode(R"({"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"x"}})");
  REQUIRE_FALSE(nullIdResponse);
  CHECK(nullIdResponse.error().wasResponse);
  auto noVersion = rpc::decode(R"({"id":3,"result":{}})");
  REQUIRE_FALSE(noVersion);
  CHECK(noVersion.error().wasResponse);
  auto badRequest = rpc::decode(R"({"id":3,"method":"x"})");
  REQUIRE_FALSE(badRequest);
  CHECK_FALSE(badRequest.error().wasResponse);
  auto nullIdRequest = rpc::decode(R"({"jsonrpc":"2.0","id":null,"method":"session/prompt"})");
  REQUIRE(nullIdRequest);
  CHECK(nullIdRequest->kind == Kind::request);
  CHECK(rpc::encodeResult(nullIdRequest->id, json::Raw{}) == R"({"jsonrpc":"2.0","id":null,"result":{}})");
}

TEST_CASE("an id alone is an Invalid Request answered with that id, never a response") {
  for (std::string text : {R"({"jsonrpc":"2.0","id":1})", R"({"jsonrpc":"2.0","id":null})"}) {
    auto d = rpc::decode(text);
    REQUIRE_FALSE(d);
    CHECK(d.error().code == rpc::code::kInvalidRequest);
    CHECK_FALSE(d.error().wasResponse);
    REQUIRE(d.error().id);
  }
}

TEST_CASE("a request whose bytes are not UTF-8 is answered with its id when it can be read") {
  auto d = rpc::decode("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"session/prompt\",\"params\":{\"t\":\"\xFF\"}}");
  REQUIRE_FALSE(d);
  CHECK(d.error().code == rpc::code::kParseError);
  REQUIRE(d.error().id);
  CHECK(d.error().id->raw.text == "42");
  CHECK_THAT(d.error().message, Catch::Contains("UTF-8"));
  auto unreadable = rpc::decode("{\"id\":\xFF");
  REQUIRE_FALSE(unreadable);
  CHECK_FALSE(unreadable.error().id);
}

TEST_CASE("a request too deep to parse is answered with its id") {
  std::string deep = std::string(5000, '[') + std::string(5000, ']');
  auto d = rpc::decode(R"({"jsonrpc":"2.0","id":"req-7","method":"session/new","params":{"mcpServers":)" + deep + "}}");
  REQUIRE_FALSE(d);
  CHECK(d.error().code == rpc::code::kParseError);
  REQUIRE(d.error().id);
  CHECK(d.error().id->raw.text == "\"req-7\"");
  CHECK_FALSE(d.error().wasResponse);
  auto nestedId = rpc::decode(R"({"jsonrpc":"2.0","params":{"id":3},"method":"x","x":)" + deep + "}");
  REQUIRE_FALSE(nestedId);
  CHECK_FALSE(nestedId.error().id);  // only the top level counts
}
