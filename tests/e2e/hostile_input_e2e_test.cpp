// Hostile input through the real binary never takes it down: a 1 MB line of
// nested arrays (on stdin, inside mcpServers, in a model's function-call
// arguments), lone surrogates both ways, an id-only message.
#include <catch2/catch.hpp>

#include "protocol/base/utf8.h"
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

TEST_CASE("e2e: deeply nested JSON gets clear errors and the process keeps serving", "[e2e][hostile]") {
  TempDir ws;
  auto fake = startFake();
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.sendRaw(std::string(1'000'000, '[')));
  Message refused = client.waitFor([](const json::Value& m) { return member(m, "error") && hasNullId(m); });
  REQUIRE(refused);
  CHECK(errorCode(refused) == -32700);
  CHECK_THAT(errorMessage(refused), Catch::Contains("nested deeper"));
  REQUIRE(client.initialize());

  std::string nested = std::string(100'000, '[') + std::string(100'000, ']');
  Message servers = client.call("session/new", R"({"cwd":")" + ws.str() + R"(","mcpServers":)" + nested + "}");
  REQUIRE(servers);
  CHECK(errorCode(servers) == -32700);

  std::string sid = client.newSession(ws.str());
  REQUIRE_FALSE(sid.empty());
  std::string deepArgs = std::string(100'000, '[') + std::string(100'000, ']');
  fake->push(ScriptedReply::stream({Chunk(R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"glob","args":{"pattern":)" +
                                          deepArgs + R"(}}}]},"finishReason":"STOP"}]})")}));
  PromptOutcome turn = client.prompt(sid, "glob it");
  REQUIRE(turn.error);  // the reply is refused with a sentence, the process lives on
  CHECK_THAT(*turn.error, Catch::Contains("nested deeper"));

  REQUIRE(client.sendRaw(R"({"jsonrpc":"2.0","id":"only-an-id"})"));
  Message invalid = client.waitFor([](const json::Value& m) {
    return json::getStr(m, "id").value_or("") == "only-an-id";
  });
  REQUIRE(invalid);
  CHECK(errorCode(invalid) == -32600);

  fake->push(ScriptedReply::text("still here"));
  CHECK(client.prompt(sid, "alive?").stopReason == "end_turn");
  checkOnlyJsonRpc(client);
  finish(*agent);
}

TEST_CASE("e2e: lone surrogates become U+FFFD both ways", "[e2e][hostile]") {
  TempDir ws;
  auto fake = startFake();
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  fake->push(ScriptedReply::stream({Chunk(R"({"candidates":[{"content":{"role":"model","parts":[{"text":"bad \udc00 text"}]},"finishReason":"STOP"}]})")}));
  PromptOutcome turn = client.promptBlocks(sid, R"([{"type":"text","text":"prompt with \udc00 inside"}])");
  REQUIRE(turn.stopReason == "end_turn");
  CHECK(joinedText(turn.updates, "agent_message_chunk") == "bad \xEF\xBF\xBD text");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 1);
  CHECK(utf8::isValid(requests[0].body));
  CHECK_THAT(requests[0].body, Catch::Contains("with \xEF\xBF\xBD inside"));
  for (const auto& m : client.messages()) CHECK(utf8::isValid(json::stringify(*m)));
  finish(*agent);
}
