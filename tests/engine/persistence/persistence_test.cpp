// The session recording: history appended as it grows, the whole of it again
// after a rewrite (compression), histories rebuilt with the invariant, and the
// lock. Every store lives in a temp dir.
#include <catch2/catch.hpp>

#include "engine/persistence/content_codec.h"
#include "engine/persistence/session_meta.h"
#include "engine/persistence/session_recorder.h"
#include "protocol/acp/mcp_servers.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

#include <chrono>
#include <fstream>
#include <thread>

namespace lathe::engine::persist {
namespace {

using testing::TempDir;

std::string encoded(const History& history) {
  return json::build([&](json::Writer& w) { writeContents(w, history.contents(), 0, 0); });
}

Part callPart(const std::string& id, const std::string& name) {
  Part part;
  part.functionCall = FunctionCall{id, name, json::Raw{"{\"x\":1}"}};
  return part;
}

Part responsePart(const std::string& id, const std::string& name) {
  Part part;
  part.functionResponse = FunctionResponse{id, name, json::Raw{"{\"output\":\"ok\"}"}};
  return part;
}

// One exchange: a prompt, a call, its response, an answer.
void exchange(History& history, const std::string& prompt) {
  REQUIRE(history.appendUser({Part::makeText(prompt)}));
  REQUIRE(history.appendModel(Content{Role::model, {callPart("c-" + prompt, "read_file")}}));
  REQUIRE(history.appendResponses({responsePart("c-" + prompt, "read_file")}));
  REQUIRE(history.appendModel(Content{Role::model, {Part::makeText("answer to " + prompt)}}));
}

}  // namespace

inline SessionMeta metaFor(const std::string& id) {
  SessionMeta meta;
  meta.id = id;
  meta.cwd = "/tmp";
  return meta;
}

TEST_CASE("persist: history recorded by appends and snapshots reads back the same", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto recorder = SessionRecorder::create(store, metaFor("sess_a"));
  REQUIRE(recorder);
  History history;
  CancelToken token;
  exchange(history, "one");
  (*recorder)->turnEnded(history);
  const uint64_t afterOne = (*recorder)->bytesWritten();
  // The responses' content grows with the next prompt (user parts merge).
  REQUIRE(history.appendResponses({}));
  exchange(history, "two");
  (*recorder)->beforeModelRequest(history, token);
  (*recorder)->turnEnded(history);
  // A turn appends only what is new: about as much as the first.
  CHECK((*recorder)->bytesWritten() - afterOne < afterOne * 2);

  // Compression rewrites the head: the next record is the whole history.
  REQUIRE(history.replacePrefix(4, {Content{Role::user, {Part::makeText("summary")}},
                                    Content{Role::model, {Part::makeText("ok")}}}));
  exchange(history, "three");
  (*recorder)->turnEnded(history);
  (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, "ans"});
  (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, "wer"});
  (*recorder)->close();

  auto opened = SessionRecorder::open(store, "sess_a");
  REQUIRE(opened);
  CHECK(encoded(opened->history) == encoded(history));
  CHECK(opened->history.contents().front().parts.front().text == "summary");
  // Streamed chunks are recorded as one message.
  REQUIRE(opened->shown.size() == 1);
  CHECK(opened->shown[0].find("\"answer\"") != std::string::npos);
}

TEST_CASE("persist: a rebuilt history answers calls a crash left open", "[persist]") {
  std::vector<Content> contents{Content{Role::user, {Part::makeText("go")}},
                                Content{Role::model, {callPart("c1", "run_shell_command")}},
                                Content{Role::user, {Part::makeText("next prompt")}}};
  auto history = rebuildHistory(contents);
  REQUIRE(history);
  CHECK(history->pendingCalls().empty());
  REQUIRE(history->size() == 3);
  const auto& parts = history->contents()[2].parts;
  REQUIRE(parts.size() == 2);
  REQUIRE(parts[0].functionResponse);
  CHECK(parts[0].functionResponse->id == "c1");
  CHECK(parts[1].text == "next prompt");

  // A record that breaks the invariant is refused, not repaired.
  std::vector<Content> bad{Content{Role::user, {responsePart("zz", "nothing")}}};
  CHECK_FALSE(rebuildHistory(bad));
}

TEST_CASE("persist: the list holds prompted sessions only, newest first to the millisecond", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto never = SessionRecorder::create(store, metaFor("sess_never"));
  auto older = SessionRecorder::create(store, metaFor("sess_a_older"));
  auto newer = SessionRecorder::create(store, metaFor("sess_z_newer"));
  REQUIRE((never && older && newer));
  History history;
  exchange(history, "one");
  (*older)->turnEnded(history);
  // A later millisecond as the file system stamps it (one second used to tie
  // them): file times come from the kernel's coarse clock, a tick (up to 10 ms)
  // behind the wall clock.
  using std::chrono::floor, std::chrono::milliseconds, std::chrono::system_clock;
  const auto endedAt = floor<milliseconds>(system_clock::now());
  REQUIRE(testing::pollUntil([&] { return floor<milliseconds>(system_clock::now()) > endedAt + milliseconds(20); }));
  (*newer)->turnEnded(history);
  auto sessions = store.list();
  REQUIRE(sessions.size() == 2);
  CHECK(sessions[0].id == "sess_z_newer");
  CHECK(sessions[1].id == "sess_a_older");
  CHECK(sessions[0].updatedAt.size() == std::string("2026-11-23T10:27:31.148Z").size());
  CHECK(sessions[0].updatedAt > sessions[1].updatedAt);
  CHECK(store.readMeta("sess_never"));  // still there, and loadable by id
}

TEST_CASE("persist: one process at a time holds a session", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto recorder = SessionRecorder::create(store, metaFor("sess_b"));
  REQUIRE(recorder);
  auto second = SessionRecorder::open(store, "sess_b");
  REQUIRE_FALSE(second);
  CHECK(second.error().message.find("open in another Lathe process") != std::string::npos);
  (*recorder)->close();
  CHECK(SessionRecorder::open(store, "sess_b"));
  CHECK_FALSE(store.lock("../escape", true));
}

}  // namespace lathe::engine::persist

namespace lathe::engine::persist {

TEST_CASE("persist: history records that do not continue the history are damage, not a crash", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  for (const std::string line : {R"({"h":[{"r":"u","p":[{"x":"a"}]}],"at":-1,"skip":1})",
                                 R"({"h":[{"r":"u","p":[{"x":"a"}]}],"at":5})", R"({"h":[{"r":"x","p":[]}],"at":0})",
                                 R"({"s":[{"r":"u","p":7}]})", R"({"what":1})", "[]"}) {
    std::string id = "sess_bad" + std::to_string(line.size());
    auto recorder = SessionRecorder::create(store, metaFor(id));
    REQUIRE(recorder);
    (*recorder)->close();
    {
      std::ofstream out(dir.path / id / "record.jsonl", std::ios::binary);
      out << line << "\n";
    }
    auto opened = SessionRecorder::open(store, id);
    INFO(line);
    REQUIRE_FALSE(opened);
    CHECK(opened.error().message.find("is damaged") != std::string::npos);
  }
}

TEST_CASE("persist: a content's role reads back in its one letter, and another letter is named", "[persist]") {
  for (const char* text : {R"({"r":"u","p":[{"x":"hi"}]})", R"({"r":"m","p":[{"x":"hi"}]})"}) {
    auto doc = json::parse(text);
    REQUIRE(doc);
    auto reader = json::Reader::root(*doc, "c");
    Content content = readContent(reader);
    REQUIRE(reader.ok());
    CHECK(json::build([&](json::Writer& w) { writeContents(w, {content}, 0, 0); }) == "[" + std::string(text) + "]");
  }
  auto doc = json::parse(R"({"r":"x","p":[]})");
  REQUIRE(doc);
  auto reader = json::Reader::root(*doc, "c");
  readContent(reader);
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.error().message.find("c.r: expected \"u\" or \"m\"") != std::string::npos);
}

TEST_CASE("persist: the editor's MCP servers read back as session/new sent them, http and sse apart", "[persist]") {
  acp::McpHttpServer http{acp::McpHttpServer::Transport::http, "h", "http://127.0.0.1:1/mcp", {{"A", "b"}}};
  acp::McpHttpServer sse{acp::McpHttpServer::Transport::sse, "s", "http://127.0.0.1:1/sse", {}};
  acp::McpStdioServer stdio{"fs", "/bin/true", {"-x"}, {{"K", "v"}}};
  const std::vector<acp::McpServer> servers{http, sse, stdio};
  auto doc = json::parse("{\"mcpServers\":" + mcpServersJson(servers).text + "}");
  REQUIRE(doc);
  auto reader = json::Reader::root(*doc);
  auto back = acp::decodeMcpServers(reader);
  REQUIRE(back);
  REQUIRE(back->size() == 3);
  CHECK(std::get<acp::McpHttpServer>((*back)[0]).transport == acp::McpHttpServer::Transport::http);
  CHECK(std::get<acp::McpHttpServer>((*back)[0]).headers == http.headers);
  CHECK(std::get<acp::McpHttpServer>((*back)[1]).transport == acp::McpHttpServer::Transport::sse);
  CHECK(std::get<acp::McpStdioServer>((*back)[2]).args == stdio.args);
  CHECK(std::string(acp::toString(acp::McpHttpServer::Transport::sse)) == "sse");
}

}  // namespace lathe::engine::persist

namespace lathe::engine::persist {

TEST_CASE("persist: chunks join per message (role and messageId), notices are never recorded", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto recorder = SessionRecorder::create(store, metaFor("sess_ids"));
  REQUIRE(recorder);
  using Role = acp::MessageChunk::Role;
  (*recorder)->onUpdate(acp::MessageChunk{Role::agent, "Hel", "msg_1"});
  (*recorder)->onUpdate(acp::MessageChunk{Role::agent, "lo", "msg_1"});
  (*recorder)->onUpdate(acp::MessageChunk{Role::agent, "Next", "msg_2"});  // another reply, right after
  (*recorder)->onUpdate(acp::Notice{acp::NoticeSeverity::warning, "Loop detected", ""});
  (*recorder)->close();
  auto record = store.readRecord("sess_ids");
  REQUIRE(record);
  REQUIRE(record->shown.size() == 2);
  CHECK_THAT(record->shown[0], Catch::Contains(R"("text":"Hello"},"messageId":"msg_1")"));
  CHECK_THAT(record->shown[1], Catch::Contains(R"("text":"Next"},"messageId":"msg_2")"));
}

TEST_CASE("persist: the effort is kept in the metadata, and a deleted session is gone for good", "[persist]") {
  TempDir dir;
  SessionStore store(dir.str());
  {
    auto recorder = SessionRecorder::create(store, metaFor("sess_e"));
    REQUIRE(recorder);
    (*recorder)->onEffortChanged("high");
    (*recorder)->onUpdate(acp::MessageChunk{acp::MessageChunk::Role::user, "hi", "msg_u"});
    // Open here: another holder of the lock (another process) cannot delete it.
    auto refused = store.remove("sess_e");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("open in another Lathe process"));
    (*recorder)->close();
  }
  CHECK(store.readMeta("sess_e")->effort == "high");
  CHECK(store.list().size() == 1);
  REQUIRE(store.remove("sess_e"));
  CHECK(store.list().empty());
  auto gone = store.readMeta("sess_e");
  REQUIRE_FALSE(gone);
  CHECK(gone.error().code == Errc::not_found);
  CHECK_THAT(gone.error().message, Catch::Contains("no recorded session \"sess_e\""));
  auto again = store.remove("sess_e");
  REQUIRE_FALSE(again);
  CHECK(again.error().code == Errc::not_found);
}

}  // namespace lathe::engine::persist
