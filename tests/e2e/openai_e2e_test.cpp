// The ReAct loop end to end through ACP with the OpenAI-compatible provider:
// the real binary against the fake OpenAI server, reading, an edit with
// permission, a shell command, malformed arguments, and the model chosen from
// the editor with configOptions; every conversation checked against the ACP
// schema and every model request against the tool-call invariant.
#include <catch2/catch.hpp>

#include "tests/e2e/e2e_support.h"
#include "tests/support/fake_openai_server.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;
using Reply = OpenAiReply;

namespace {

struct OpenAiSetup {
  TempDir ws;
  FakeOpenAiServer fake;
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;
  std::string session;
  Message created;

  OpenAiSetup() {
    writeFile(ws.path / "notes.txt", "alpha\nbeta\n");
    writeFile(ws.path / "settings.json", R"({"model":{"choices":{"openai":["local-small","local-large"]}}})");
    REQUIRE(fake.start().ok());
    SubprocessOptions spawn;
    spawn.argv = {LATHE_BINARY, "--acp", "--provider", "openai", "--settings", (ws.path / "settings.json").string()};
    spawn.env = {{"OPENAI_BASE_URL", fake.baseUrl()}, {"OPENAI_API_KEY", "sk-e2e"}, {"OPENAI_MODEL", "local-small"},
                 {"HOME", ws.str()}};
    spawn.unsetEnv = {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"};
    auto child = Subprocess::spawn(spawn);
    REQUIRE(child);
    lathe = std::move(child).value();
    client = std::make_unique<AcpTestClient>(*lathe);
    client->initialize();
    created = client->call("session/new", R"({"cwd":")" + ws.str() + R"(","mcpServers":[]})");
    REQUIRE(created);
    session = json::getStr((*created)["result"], "sessionId").value_or("");
    REQUIRE_FALSE(session.empty());
  }
  ~OpenAiSetup() {
    client.reset();
    if (lathe) finish(*lathe);
  }
  std::string model(size_t request) {
    auto body = json::parse(fake.requests().at(request)).value();
    return body["model"].GetString();
  }
};

std::vector<std::string> callEvents(const std::string& id, const std::string& name, const std::string& args) {
  std::vector<std::string> events{Reply::toolDelta(0, id, name, "")};
  for (size_t i = 0; i < args.size(); i += 7) events.push_back(Reply::toolDelta(0, "", "", args.substr(i, 7)));
  events.push_back(Reply::finish("tool_calls"));
  return events;
}

}  // namespace

TEST_CASE("e2e openai: read, edit with permission, shell, history stays paired", "[e2e][openai]") {
  OpenAiSetup s;
  std::string notes = (s.ws.path / "notes.txt").string();
  s.fake.push(Reply::stream(callEvents("c1", "read_file", R"({"file_path":")" + notes + R"("})")));
  s.fake.push(Reply::stream(callEvents("c2", "write_file", R"({"file_path":")" + notes + R"(","content":"gamma\n"})")));
  s.fake.push(Reply::stream(callEvents("c3", "run_shell_command", R"({"command":"cat notes.txt"})")));
  s.fake.push(Reply::stream({Reply::reasoningDelta("All done."), Reply::textDelta("Changed it to gamma."),
                             Reply::finish("stop"), Reply::usage(100, 8)}));
  auto outcome = s.client->prompt(s.session, "replace the notes");
  REQUIRE(outcome.stopReason == "end_turn");
  CHECK(readFile(s.ws.path / "notes.txt") == "gamma\n");
  CHECK(joinedText(outcome.updates, "agent_message_chunk") == "Changed it to gamma.");
  CHECK(joinedText(outcome.updates, "agent_thought_chunk") == "All done.");
  auto requests = s.fake.requests();
  REQUIRE(requests.size() == 4);
  CHECK(s.fake.violations().empty());
  CHECK_THAT(requests[1], Catch::Contains("alpha"));  // read_file's output went back as a tool message
  CHECK_THAT(requests[3], Catch::Contains("gamma"));  // and the shell's
  bool asked = false;
  for (const auto& m : s.client->messages()) {
    if (json::getStr(*m, "method").value_or("") == "session/request_permission") asked = true;
  }
  CHECK(asked);  // the write asked first
  checkOnlyJsonRpc(*s.client);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e openai: malformed arguments become a tool error the model reads", "[e2e][openai]") {
  OpenAiSetup s;
  s.fake.push(Reply::stream(callEvents("c1", "read_file", R"({"file_path": )")));
  s.fake.push(Reply::stream({Reply::textDelta("Sorry, let me fix that."), Reply::finish("stop")}));
  auto outcome = s.client->prompt(s.session, "read something");
  REQUIRE(outcome.stopReason == "end_turn");
  auto requests = s.fake.requests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(requests[1], Catch::Contains("not valid JSON"));
  CHECK(s.fake.violations().empty());
  checkOnlyJsonRpc(*s.client);
  checkAgainstSchema(*s.client);
}

TEST_CASE("e2e openai: the editor picks the model through configOptions", "[e2e][openai]") {
  OpenAiSetup s;
  const json::Value& options = (*s.created)["result"]["configOptions"];
  REQUIRE(options.IsArray());
  REQUIRE(options.Size() == 3);  // model, mode, and the effort as reasoning_effort
  CHECK(std::string(options[2]["category"].GetString()) == "thought_level");
  CHECK(std::string(options[0]["id"].GetString()) == "model");
  CHECK(std::string(options[0]["currentValue"].GetString()) == "local-small");
  CHECK(options[0]["options"].Size() == 2);

  s.fake.push(Reply::stream({Reply::textDelta("small"), Reply::finish("stop")}));
  REQUIRE(s.client->prompt(s.session, "one").stopReason == "end_turn");
  auto set = s.client->call("session/set_config_option",
                            R"({"sessionId":")" + s.session + R"(","configId":"model","value":"local-large"})");
  REQUIRE(set);
  CHECK(std::string((*set)["result"]["configOptions"][0]["currentValue"].GetString()) == "local-large");
  auto bad = s.client->call("session/set_config_option",
                            R"({"sessionId":")" + s.session + R"(","configId":"model","value":"gpt-9"})");
  REQUIRE(bad);
  CHECK(errorCode(bad) == -32602);
  auto mode = s.client->call("session/set_config_option",
                             R"({"sessionId":")" + s.session + R"(","configId":"mode","value":"plan"})");
  REQUIRE(mode);
  CHECK(std::string((*mode)["result"]["configOptions"][1]["currentValue"].GetString()) == "plan");
  auto effort = s.client->call("session/set_config_option",
                               R"({"sessionId":")" + s.session + R"(","configId":"effort","value":"high"})");
  REQUIRE(effort);
  s.fake.push(Reply::stream({Reply::textDelta("large"), Reply::finish("stop")}));
  REQUIRE(s.client->prompt(s.session, "two").stopReason == "end_turn");
  CHECK(s.model(0) == "local-small");
  CHECK(s.model(1) == "local-large");
  CHECK(s.fake.requests().at(0).find("reasoning_effort") == std::string::npos);  // the server's default
  CHECK(s.fake.requests().at(1).find(R"("reasoning_effort":"high")") != std::string::npos);
  checkAgainstSchema(*s.client);
}
