// The ACP handlers in-process: an AcpAgent and a client peer joined by an
// in-memory channel pair, nothing spawned. Also the terminal diff of `lathe run`.
#include <catch2/catch.hpp>

#include <set>
#include <thread>

#include "protocol/jsonrpc/channel.h"
#include "protocol/jsonrpc/peer.h"
#include "server/acp_agent.h"
#include "server/terminal_diff.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

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

  explicit InProcess(engine::AgentConfig config = {}) {
    std::tie(agentSide, clientSide) = rpc::makeMemoryChannelPair();
    agentPeer = rpc::Peer::create(*agentSide);
    client = rpc::Peer::create(*clientSide);
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

namespace {

std::string newSession(InProcess& p, const std::string& cwd) {
  auto created = p.call("session/new", R"({"cwd":")" + cwd + R"(","mcpServers":[]})");
  REQUIRE(created.ok());
  return json::getStr(*created->result, "sessionId").value();
}

void prompt(InProcess& p, const std::string& id) {
  auto done = p.call("session/prompt", R"({"sessionId":")" + id + R"(","prompt":[{"type":"text","text":"hi"}]})");
  REQUIRE(done.ok());
}

struct ListedPage {
  std::vector<std::pair<std::string, std::string>> sessions;  // id, cwd
  std::optional<std::string> nextCursor;
};

ListedPage listPage(InProcess& p, const std::string& params) {
  auto answer = p.call("session/list", params);
  REQUIRE(answer.ok());
  ListedPage page;
  for (const auto& s : (*answer->result)["sessions"].GetArray()) {
    page.sessions.emplace_back(json::getStr(s, "sessionId").value_or(""), json::getStr(s, "cwd").value_or(""));
  }
  page.nextCursor = json::getStr(*answer->result, "nextCursor");
  return page;
}

// Every page of session/list with these filters, following nextCursor.
std::vector<ListedPage> allPages(InProcess& p, const std::string& cwdFilter) {
  std::vector<ListedPage> pages;
  std::optional<std::string> cursor;
  do {
    std::string params = "{";
    if (!cwdFilter.empty()) params += R"("cwd":")" + cwdFilter + "\"";
    if (cursor) params += std::string(cwdFilter.empty() ? "" : ",") + R"("cursor":")" + *cursor + "\"";
    params += "}";
    pages.push_back(listPage(p, params));
    cursor = pages.back().nextCursor;
    REQUIRE(pages.size() < 10);  // a cursor that never ends would loop
  } while (cursor);
  return pages;
}

}  // namespace

TEST_CASE("session/list over ACP: the cwd filter, pages joined by nextCursor, bad cursors, unprompted sessions") {
  testing::TempDir state, one, two;
  engine::AgentConfig config;
  config.dataDir = state.str();
  config.sessionListPage = 2;
  InProcess p(std::move(config));
  REQUIRE(p.call("initialize", R"({"protocolVersion":1,"clientCapabilities":{}})").ok());
  std::set<std::string> inOne, inTwo;
  for (int i = 0; i < 3; ++i) {
    std::string id = newSession(p, one.str());
    prompt(p, id);
    inOne.insert(id);
  }
  for (int i = 0; i < 2; ++i) {
    std::string id = newSession(p, two.str());
    prompt(p, id);
    inTwo.insert(id);
  }
  std::string unprompted = newSession(p, one.str());

  // cwd one: three sessions over two pages, the first full and pointing on.
  auto pages = allPages(p, one.str());
  REQUIRE(pages.size() == 2);
  CHECK(pages[0].sessions.size() == 2);
  CHECK(pages[0].nextCursor);
  CHECK(pages[1].sessions.size() == 1);
  CHECK_FALSE(pages[1].nextCursor);
  std::set<std::string> listed;
  for (const auto& page : pages) {
    for (const auto& [id, cwd] : page.sessions) {
      CHECK(cwd == one.str());
      CHECK(listed.insert(id).second);  // no session on two pages
    }
  }
  CHECK(listed == inOne);  // the never-prompted session is not among them
  CHECK_FALSE(listed.count(unprompted));

  // No filter: all five prompted sessions, over three pages.
  auto everything = allPages(p, "");
  CHECK(everything.size() == 3);
  std::set<std::string> all;
  for (const auto& page : everything) {
    for (const auto& [id, cwd] : page.sessions) all.insert(id);
  }
  std::set<std::string> expected = inOne;
  expected.insert(inTwo.begin(), inTwo.end());
  CHECK(all == expected);

  // A cursor this agent never gave is a clear invalid-params error.
  for (const char* bad : {"abc", "-1", "2x", ""}) {
    INFO("cursor: " << bad);
    auto refused = p.call("session/list", R"({"cursor":")" + std::string(bad) + R"("})");
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error().message, Catch::Contains("-32602") && Catch::Contains("params.cursor"));
  }
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

// Streams a chunk every few milliseconds until cancelled; says so on each.
class EndlessModel final : public engine::ModelProvider {
 public:
  std::atomic<bool> cancelled{false};
  std::atomic<int> chunks{0};
  testing::Notice changed;
  Result<engine::ModelReply> stream(const engine::ModelRequest&, const engine::ChunkSink& onChunk,
                                    const CancelToken& cancel) override {
    while (!cancel.cancelled()) {
      engine::ModelChunk chunk;
      chunk.parts.push_back(engine::Part::makeText("more "));
      onChunk(chunk);
      changed.update([&] { ++chunks; });
      std::this_thread::sleep_for(5ms);  // paces the endless stream; nobody waits on it
    }
    changed.update([&] { cancelled = true; });
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
  REQUIRE(model->changed.waitFor([&] { return model->chunks >= 3; }));
  // The editor goes away; the agent notices when its next write fails.
  clientSide.reset();
  CHECK(model->changed.waitFor([&] { return model->cancelled.load(); }));
  loop.join();
  agent->shutdown();
}
