// Tests of the ACP test client against a scripted shell "agent" (test support code).
#include <catch2/catch.hpp>

#include "protocol/base/json.h"
#include "tests/support/acp_client.h"

using namespace lathe;
using namespace lathe::testing;
using namespace std::chrono_literals;

namespace {

// A pretend agent: answers initialize, asks the client for permission and a
// file, and ends the prompt with the outcome it got.
const char* kAgent = R"(
read -r init
echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}'
read -r prompt
echo '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}'
echo '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"other","update":{}}}'
echo '{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"yes","name":"Yes","kind":"allow_once"},{"optionId":"no","name":"No","kind":"reject_once"}]}}'
read -r permission
echo '{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/buffer.txt","line":2,"limit":1}}'
read -r file
echo '{"jsonrpc":"2.0","id":8,"method":"no/such_method","params":{}}'
read -r unknown
printf "%s\n" "$permission" >&2
printf "%s\n" "$file" >&2
printf "%s\n" "$unknown" >&2
echo '{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}'
read -r eof
)";

}  // namespace

TEST_CASE("the ACP client collects a turn and answers agent requests") {
  auto agent = Subprocess::spawn({"sh", "-c", kAgent});
  REQUIRE(agent);
  AcpTestClient client(**agent);
  client.setBuffer("/buffer.txt", "line one\nline two\nline three\n");

  Message init = client.initialize();
  REQUIRE(init);
  CHECK(json::getInt((*init)["result"], "protocolVersion") == 1);

  PromptOutcome turn = client.prompt("s1", "hello", 10s);
  CHECK(turn.stopReason == "end_turn");
  CHECK_FALSE(turn.error);
  REQUIRE(turn.updates.size() == 1);  // the other session's update is not this turn's

  (*agent)->closeStdin();
  REQUIRE((*agent)->wait(5s));
  std::string stderrText = (*agent)->stderrText();
  CHECK(stderrText.find(R"("id":"p1","result":{"outcome":{"outcome":"selected","optionId":"yes"})") !=
        std::string::npos);
  CHECK(stderrText.find(R"("result":{"content":"line two\n"})") != std::string::npos);
  CHECK(stderrText.find(R"("error":{"code":-32601)") != std::string::npos);
  CHECK(client.unparsedFrames().empty());
  CHECK(client.notifications().size() == 2);
}

TEST_CASE("the ACP client speaks Content-Length framing when asked") {
  // Echoes one framed message back: the client must decode it as a response.
  auto agent = Subprocess::spawn(
      {"sh", "-c",
        "head -c 70 >/dev/null; body='{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}'; "
        "printf 'Content-Length: %d\\r\\n\\r\\n%s' ${#body} \"$body\"; sleep 5"});
  REQUIRE(agent);
  AcpClientOptions options;
  options.framing = Framing::content_length;
  AcpTestClient client(**agent, options);
  Message response = client.call("x", R"({"padding":"0123456789012345678901234567890"})", 5s);
  REQUIRE(response);
  CHECK(json::find(*response, "result") != nullptr);
}
