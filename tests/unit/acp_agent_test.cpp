// The ACP handlers in-process: an AcpAgent and a client peer joined by an
// in-memory channel pair, nothing spawned. Also the terminal diff of `lathe run`.
#include <catch2/catch.hpp>

#include <thread>

#include "protocol/jsonrpc/channel.h"
#include "protocol/jsonrpc/peer.h"
#include "server/acp_agent.h"
#include "server/terminal_diff.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace std::chrono_literals;

namespace {

// Answers every request with one text reply.
class EchoModel final : public engine::ModelProvider {
 public:
  Result<engine::ModelReply> stream(const engine::ModelRequest&, const engine::ChunkSink& onChunk,
                                    const CancelToken&) override {
    engine::ModelChunk chunk;
    chunk.parts.push_back(engine::Part::makeText("hello from the model"));
    chunk.finishReason = engine::FinishReason::stop;
    if (onChunk) onChunk(chunk);
    engine::ReplyAccumulator reply;
    reply.add(chunk);
    return reply.take();
  }
  Result<engine::ModelReply> generate(const engine::ModelRequest& r, const CancelToken& c) override {
    return stream(r, nullptr, c);
  }
};

struct InProcess {
  std::unique_ptr<rpc::ByteChannel> agentSide, clientSide;
  std::shared_ptr<rpc::Peer> agentPeer, client;
  std::unique_ptr<server::AcpAgent> agent;
  std::thread agentLoop, clientLoop;
  std::mutex mutex;
  std::vector<std::string> updates;

  InProcess() {
    std::tie(agentSide, clientSide) = rpc::makeMemoryChannelPair();
    agentPeer = rpc::Peer::create(*agentSide);
    client = rpc::Peer::create(*clientSide);
    engine::AgentConfig config;
    config.provider = std::make_shared<EchoModel>();
    agent = std::make_unique<server::AcpAgent>(agentPeer, std::move(config));
    client->onNotification("session/update", [this](const rpc::Incoming& msg) {
      std::lock_guard lock(mutex);
      updates.push_back(json::stringify(*msg.params));
    });
    agentLoop = std::thread([this] { agentPeer->serve(); });
    clientLoop = std::thread([this] { client->serve(); });
  }
  ~InProcess() {
    clientSide->closeWrite();  // the agent reads end of input
    agentLoop.join();
    agent->shutdown();
    agentSide->closeWrite();
    clientLoop.join();
  }
  Result<rpc::Response> call(const std::string& method, const std::string& params) {
    return client->call(method, json::Raw{params}, 10s, CancelToken());
  }
};

}  // namespace

TEST_CASE("ACP handlers run in-process over the in-memory channel") {
  InProcess p;
  auto early = p.call("session/new", R"({"cwd":"/","mcpServers":[]})");
  REQUIRE_FALSE(early.ok());
  CHECK_THAT(early.error().message, Catch::Contains("initialize"));

  auto init = p.call("initialize", R"({"protocolVersion":1,"clientCapabilities":{}})");
  REQUIRE(init.ok());
  const json::Value& caps = (*init->result)["agentCapabilities"];
  CHECK(caps["sessionCapabilities"].HasMember("close"));
  CHECK(caps["sessionCapabilities"].HasMember("additionalDirectories"));
  CHECK(caps["mcpCapabilities"]["http"].GetBool());
  CHECK(caps["mcpCapabilities"]["sse"].GetBool());

  testing::TempDir dir;
  auto bad = p.call("session/new", R"({"cwd":"/tmp","mcpServers":[{"type":"smoke","name":"x"}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message, Catch::Contains("mcpServers[0].type"));

  auto badRoot = p.call("session/new", R"({"cwd":")" + dir.path.string() +
                                           R"(","additionalDirectories":["/no/such/dir"],"mcpServers":[]})");
  REQUIRE_FALSE(badRoot.ok());
  CHECK_THAT(badRoot.error().message, Catch::Contains("params.additionalDirectories[0]"));

  auto created = p.call("session/new", R"({"cwd":")" + dir.path.string() +
                                           R"(","mcpServers":[{"name":"fs","command":"/bin/true","args":[],"env":[]}]})");
  REQUIRE(created.ok());
  std::string id = json::getStr(*created->result, "sessionId").value();
  auto prompt = p.call("session/prompt", R"({"sessionId":")" + id + R"(","prompt":[{"type":"text","text":"hi"}]})");
  REQUIRE(prompt.ok());
  CHECK(json::getStr(*prompt->result, "stopReason") == "end_turn");
  {
    std::lock_guard lock(p.mutex);
    REQUIRE(p.updates.size() >= 3);
    // The session's commands once session/new is answered; /bin/true is no
    // MCP server: the person is told first, then the turn goes on.
    CHECK_THAT(p.updates.front(), Catch::Contains("\"available_commands_update\""));
    CHECK_THAT(p.updates[1], Catch::Contains("MCP server \\\"fs\\\" failed to start"));
    CHECK_THAT(p.updates[2], Catch::Contains("hello from the model"));
  }

  auto closed = p.call("session/close", R"({"sessionId":")" + id + R"("})");
  REQUIRE(closed.ok());
  CHECK(json::stringify(*closed->result) == "{}");
  auto gone = p.call("session/prompt", R"({"sessionId":")" + id + R"(","prompt":[{"type":"text","text":"hi"}]})");
  REQUIRE_FALSE(gone.ok());
  CHECK_THAT(gone.error().message, Catch::Contains("no session"));
}

TEST_CASE("the terminal diff shows the changed lines with context, coloured on request") {
  std::string before = "a\nb\nc\nd\ne\nf\ng\n";
  std::string after = "a\nb\nc\nD\ne\nf\ng\n";
  std::string plain = server::terminalDiff(before, after, false);
  CHECK(plain == "--- a\n+++ b\n@@ -1 +1 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n");
  std::string coloured = server::terminalDiff(before, after, true);
  CHECK_THAT(coloured, Catch::Contains("\x1b[31m-d\x1b[0m") && Catch::Contains("\x1b[32m+D\x1b[0m"));
  CHECK(server::terminalDiff(std::nullopt, "new\n", false) == "--- /dev/null\n+++ b\n@@ -1 +1 @@\n+new\n");
}

namespace {

// Streams a chunk every few milliseconds until cancelled.
class EndlessModel final : public engine::ModelProvider {
 public:
  std::atomic<bool> cancelled{false};
  std::atomic<int> chunks{0};
  Result<engine::ModelReply> stream(const engine::ModelRequest&, const engine::ChunkSink& onChunk,
                                    const CancelToken& cancel) override {
    while (!cancel.cancelled()) {
      engine::ModelChunk chunk;
      chunk.parts.push_back(engine::Part::makeText("more "));
      onChunk(chunk);
      ++chunks;
      std::this_thread::sleep_for(5ms);
    }
    cancelled = true;
    return makeError(Errc::cancelled, "cancelled");
  }
  Result<engine::ModelReply> generate(const engine::ModelRequest& r, const CancelToken& c) override {
    return stream(r, nullptr, c);
  }
};

}  // namespace

TEST_CASE("an editor that stops reading cancels every turn") {
  auto [agentSide, clientSide] = rpc::makeMemoryChannelPair();
  auto agentPeer = rpc::Peer::create(*agentSide);
  auto model = std::make_shared<EndlessModel>();
  engine::AgentConfig config;
  config.provider = model;
  auto agent = std::make_unique<server::AcpAgent>(agentPeer, config);
  std::thread loop([&] { agentPeer->serve(); });
  testing::TempDir dir;
  auto send = [&](const std::string& line) { REQUIRE(clientSide->write(line + "\n")); };
  send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}})");
  send(R"({"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":")" + dir.str() + R"(","mcpServers":[]}})");
  // Read until the session id shows up.
  std::string seen;
  char buffer[4096];
  while (seen.find("sess_") == std::string::npos) seen.append(buffer, clientSide->read(buffer, sizeof buffer));
  size_t at = seen.find("sess_");
  std::string id = seen.substr(at, seen.find('"', at) - at);
  send(R"({"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":")" + id +
       R"(","prompt":[{"type":"text","text":"go on forever"}]}})");
  while (model->chunks < 3) std::this_thread::sleep_for(1ms);
  // The editor goes away; the agent notices when its next write fails.
  clientSide.reset();
  for (int i = 0; i < 2000 && !model->cancelled; ++i) std::this_thread::sleep_for(1ms);
  CHECK(model->cancelled);
  loop.join();
  agent->shutdown();
}
