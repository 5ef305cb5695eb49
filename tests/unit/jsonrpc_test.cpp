// JSON-RPC decoding and encoding.
#include <catch2/catch.hpp>

#include "protocol/jsonrpc/message.h"

using namespace lathe;
using Kind = rpc::Incoming::Kind;

TEST_CASE("decode classifies requests, notifications and responses") {
  auto req = rpc::decode(R"({"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}})");
  REQUIRE(req.message);
  CHECK(req.message->kind == Kind::request);
  CHECK(req.message->id.raw.text == "7");
  CHECK(req.message->method == "initialize");
  REQUIRE(req.message->params);

  auto note = rpc::decode(R"({"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}})");
  REQUIRE(note.message);
  CHECK(note.message->kind == Kind::notification);

  auto resp = rpc::decode(R"({"jsonrpc":"2.0","id":"a-1","result":{"ok":true}})");
  REQUIRE(resp.message);
  CHECK(resp.message->kind == Kind::response);
  CHECK(resp.message->id.raw.text == "\"a-1\"");
  REQUIRE(resp.message->result);

  auto err = rpc::decode(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}})");
  REQUIRE(err.message);
  REQUIRE(err.message->error);
  CHECK(err.message->error->code == -32601);
}

TEST_CASE("decode failures carry the right code and the id when usable") {
  auto parse = rpc::decode("{not json");
  REQUIRE(parse.failure);
  CHECK(parse.failure->code == rpc::code::kParseError);
  CHECK_FALSE(parse.failure->id);

  auto version = rpc::decode(R"({"jsonrpc":"1.0","id":4,"method":"x"})");
  REQUIRE(version.failure);
  CHECK(version.failure->code == rpc::code::kInvalidRequest);
  REQUIRE(version.failure->id);
  CHECK(version.failure->id->raw.text == "4");

  auto notObject = rpc::decode("[1]");
  REQUIRE(notObject.failure);
  CHECK(notObject.failure->code == rpc::code::kInvalidRequest);

  auto badId = rpc::decode(R"({"jsonrpc":"2.0","id":{"x":1},"method":"x"})");
  REQUIRE(badId.failure);
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
  REQUIRE(nullIdResponse.failure);
  CHECK(nullIdResponse.failure->wasResponse);
  auto noVersion = rpc::decode(R"({"id":3,"result":{}})");
  REQUIRE(noVersion.failure);
  CHECK(noVersion.failure->wasResponse);
  auto badRequest = rpc::decode(R"({"id":3,"method":"x"})");
  REQUIRE(badRequest.failure);
  CHECK_FALSE(badRequest.failure->wasResponse);
  auto nullIdRequest = rpc::decode(R"({"jsonrpc":"2.0","id":null,"method":"session/prompt"})");
  REQUIRE(nullIdRequest.message);
  CHECK(nullIdRequest.message->kind == Kind::request);
  CHECK(rpc::encodeResult(nullIdRequest.message->id, json::Raw{}) == R"({"jsonrpc":"2.0","id":null,"result":{}})");
}

TEST_CASE("an id alone is an Invalid Request answered with that id, never a response") {
  for (std::string text : {R"({"jsonrpc":"2.0","id":1})", R"({"jsonrpc":"2.0","id":null})"}) {
    auto d = rpc::decode(text);
    REQUIRE(d.failure);
    CHECK(d.failure->code == rpc::code::kInvalidRequest);
    CHECK_FALSE(d.failure->wasResponse);
    REQUIRE(d.failure->id);
  }
}

TEST_CASE("a request whose bytes are not UTF-8 is answered with its id when it can be read") {
  auto d = rpc::decode("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"session/prompt\",\"params\":{\"t\":\"\xFF\"}}");
  REQUIRE(d.failure);
  CHECK(d.failure->code == rpc::code::kParseError);
  REQUIRE(d.failure->id);
  CHECK(d.failure->id->raw.text == "42");
  CHECK_THAT(d.failure->message, Catch::Contains("UTF-8"));
  auto unreadable = rpc::decode("{\"id\":\xFF");
  REQUIRE(unreadable.failure);
  CHECK_FALSE(unreadable.failure->id);
}

TEST_CASE("a request too deep to parse is answered with its id") {
  std::string deep = std::string(5000, '[') + std::string(5000, ']');
  auto d = rpc::decode(R"({"jsonrpc":"2.0","id":"req-7","method":"session/new","params":{"mcpServers":)" + deep + "}}");
  REQUIRE(d.failure);
  CHECK(d.failure->code == rpc::code::kParseError);
  REQUIRE(d.failure->id);
  CHECK(d.failure->id->raw.text == "\"req-7\"");
  CHECK_FALSE(d.failure->wasResponse);
  auto nestedId = rpc::decode(R"({"jsonrpc":"2.0","params":{"id":3},"method":"x","x":)" + deep + "}");
  REQUIRE(nestedId.failure);
  CHECK_FALSE(nestedId.failure->id);  // only the top level counts
}
