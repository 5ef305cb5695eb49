// MCP tool naming, the mapping of tools/call results and of elicitations: pure functions.
#include <catch2/catch.hpp>

#include <set>

#include "protocol/base/json.h"
#include "tools/mcp/call_result.h"
#include "tools/mcp/elicitation.h"
#include "tools/mcp/tool_naming.h"

using namespace lathe;
using namespace lathe::tools::mcp;

namespace {

tools::ToolResult mapped(const std::string& resultJson) {
  auto doc = json::parse(resultJson);
  REQUIRE(doc);
  return mapCallResult(*doc, "srv", "tool");
}

std::string displayOf(const tools::ToolResult& result) { return std::get<std::string>(result.returnDisplay); }

}  // namespace

TEST_CASE("MCP tool names are server__tool, cleaned for model APIs") {
  CHECK(mcpToolName("everything", "get-tiny-image") == "everything__get-tiny-image");
  CHECK(mcpToolName("My Server.v2/x", "echo") == "My_Server.v2_x__echo");
  CHECK(mcpToolName("9lives", "t") == "_9lives__t");
  CHECK(mcpToolName("srv", "héllo wörld") == "srv__h__llo_w__rld");
}

TEST_CASE("Long MCP tool names keep both ends within 63 characters") {
  std::string name = mcpToolName("a_really_long_server_name_that_goes_on_and_on", "trigger-long-running-operation");
  CHECK(name.size() == kMaxToolNameLength);
  CHECK(name.rfind("a_really_long_server_name_that_", 0) == 0);
  CHECK(name.substr(name.size() - 30) == "trigger-long-running-operation");
}

TEST_CASE("A name collision gets a suffix derived from the pair, never an overwrite") {
  std::set<std::string> taken = {"a_b__t"};
  auto isTaken = [&](const std::string& n) { return taken.count(n) > 0; };
  std::string first = uniqueMcpToolName("a b", "t", isTaken);  // cleans to a_b__t: taken
  CHECK(first != "a_b__t");
  CHECK(first.rfind("a_b__t_", 0) == 0);
  CHECK(first == uniqueMcpToolName("a b", "t", isTaken));  // deterministic
  CHECK(first != uniqueMcpToolName("a.b", "t", [&](const std::string& n) { return n == "a.b__t" || isTaken(n); }));
  taken.insert(first);
  std::string second = uniqueMcpToolName("a b", "t", isTaken);
  CHECK(second != first);
  CHECK(second.size() <= kMaxToolNameLength);
  CHECK(uniqueMcpToolName("free", "t", isTaken) == "free__t");
}

TEST_CASE("MCP text reaches the model marked as the server's, and the person unmarked") {
  auto result = mapped(R"({"content":[{"type":"text","text":"hello"},{"type":"text","text":"world"}]})");
  REQUIRE(result.llmContent.size() == 1);
  CHECK(result.llmContent[0].text == untrustedServerNote("srv") + "\nhello\nworld");
  CHECK(result.llmContent[0].text.find("MCP server \"srv\"") != std::string::npos);
  CHECK(displayOf(result) == "hello\nworld");
  CHECK_FALSE(result.error);
}

TEST_CASE("MCP images and audio go to the model as inline data, blobs are described") {
  auto result = mapped(R"({"content":[
    {"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="},
    {"type":"audio","mimeType":"audio/wav","data":"UklGRg=="},
    {"type":"resource","resource":{"uri":"test://doc","mimeType":"text/plain","text":"embedded text"}},
    {"type":"resource","resource":{"uri":"test://blob","mimeType":"application/zip","blob":"UEsDBA=="}},
    {"type":"resource_link","uri":"test://linked","name":"linked.txt","mimeType":"text/plain"},
    {"type":"mystery"}]})");
  REQUIRE(result.llmContent.size() == 3);
  CHECK(result.llmContent[1].isInline());
  CHECK(result.llmContent[1].mimeType == "image/png");
  CHECK(result.llmContent[1].data == "iVBORw0KGgo=");
  CHECK(result.llmContent[2].isInline());
  CHECK(result.llmContent[2].mimeType == "audio/wav");
  CHECK(result.llmContent[2].data == "UklGRg==");
  const std::string& text = result.llmContent[0].text;
  CHECK(text.find("[Image from tool tool (image/png), attached]") != std::string::npos);
  CHECK(text.find("[Audio from tool tool (audio/wav), attached]") != std::string::npos);
  CHECK(text.find("Resource test://doc:\nembedded text") != std::string::npos);
  CHECK(text.find("Embedded resource test://blob from tool tool (application/zip") != std::string::npos);
  CHECK(text.find("Resource link: linked.txt at test://linked (text/plain)") != std::string::npos);
  CHECK(text.find("\"mystery\"") != std::string::npos);
  std::string display = displayOf(result);
  CHECK(display.find("[Image: image/png]") != std::string::npos);
  CHECK(display.find("[Audio: audio/wav]") != std::string::npos);
  CHECK(display.find("[Link to linked.txt: test://linked]") != std::string::npos);
  CHECK(display.find("embedded text") != std::string::npos);
}

TEST_CASE("structuredContent is JSON text only when there is no other content") {
  auto alone = mapped(R"({"content":[],"structuredContent":{"a":1}})");
  CHECK(alone.llmContent[0].text.find("{\"a\":1}") != std::string::npos);
  auto beside = mapped(R"({"content":[{"type":"text","text":"t"}],"structuredContent":{"a":1}})");
  CHECK(beside.llmContent[0].text.find("{\"a\":1}") == std::string::npos);
  auto empty = mapped(R"({"content":[]})");
  CHECK(empty.llmContent[0].text.find("no content") != std::string::npos);
}

TEST_CASE("isError is a tool error the model reads, marked as the server's") {
  auto result = mapped(R"({"content":[{"type":"text","text":"bad input"}],"isError":true})");
  REQUIRE(result.error);
  CHECK(result.error->message.find("MCP tool tool on server srv reported an error") != std::string::npos);
  CHECK(result.error->message.find(untrustedServerNote("srv") + "\nbad input") != std::string::npos);
}

TEST_CASE("a server's elicitation reaches the editor in ACP's words, and the answer comes back in MCP's") {
  auto params = json::parse(R"({"message":"Your name?","requestedSchema":{"type":"object","required":["name"],
    "properties":{"name":{"type":"string","title":"Name"},
                  "pet":{"type":"string","enum":["p1","p2"],"enumNames":["Cats","Dogs"],"default":"p1"}}}})");
  REQUIRE(params);
  auto request = elicitationFromMcp(*params, {true, false});
  REQUIRE(request);
  CHECK(request->mode == acp::ElicitationRequest::Mode::form);
  CHECK(request->message == "Your name?");
  auto schema = json::parse(request->requestedSchema.text);
  REQUIRE(schema);
  const json::Value& pet = (*schema)["properties"]["pet"];
  CHECK_FALSE(pet.HasMember("enumNames"));  // ACP spells titled choices as oneOf
  CHECK_FALSE(pet.HasMember("enum"));
  REQUIRE(pet["oneOf"].Size() == 2);
  CHECK(json::getStr(pet["oneOf"][1], "const") == "p2");
  CHECK(json::getStr(pet["oneOf"][1], "title") == "Dogs");
  CHECK(json::getStr(pet, "default") == "p1");
  CHECK((*schema)["required"][0] == "name");

  auto url = json::parse(R"({"mode":"url","message":"Log in","url":"https://example.com/x","elicitationId":"e1"})");
  CHECK_THAT(elicitationFromMcp(*url, {true, false}).error().message, Catch::Contains("cannot open URLs"));
  auto asUrl = elicitationFromMcp(*url, {true, true});
  REQUIRE(asUrl);
  CHECK(asUrl->mode == acp::ElicitationRequest::Mode::url);
  CHECK(asUrl->elicitationId == "e1");
  auto broken = json::parse(R"({"message":"x","requestedSchema":{"properties":{"a":"string"}}})");
  CHECK_THAT(elicitationFromMcp(*broken, {true, true}).error().message,
             Catch::Contains("params.requestedSchema.properties.a"));

  acp::ElicitationResponse accepted;
  accepted.action = acp::ElicitationResponse::Action::accept;
  accepted.content = json::Raw{R"({"name":"Ada"})"};
  CHECK(elicitationResultForMcp(accepted).text == R"({"action":"accept","content":{"name":"Ada"}})");
  acp::ElicitationResponse declined;
  declined.action = acp::ElicitationResponse::Action::decline;
  CHECK(elicitationResultForMcp(declined).text == R"({"action":"decline"})");
  CHECK(elicitationCapability({true, true}).text == R"({"form":{},"url":{}})");
}
