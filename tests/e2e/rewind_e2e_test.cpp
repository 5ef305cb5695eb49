// End-to-end tests of rewinds: /undo of edits (restored through the editor's
// fs/write_text_file) and of a shell command's changes, whose diffs its final
// update carries; /rewind N and /redo with the conversation; a file the person
// changed meanwhile; a loaded session; a workspace with its own git left alone.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string readWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string writeArgs(const std::string& path, const std::string& content) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "file_path", path);
    json::put(w, "content", content);
  });
}

struct Rewind {
  PrivateHome home;
  TempDir ws;
  HomeAgent agent{home, "allow_once"};
  std::string session;
  Rewind() {
    session = agent.client->newSession(ws.str());
    REQUIRE_FALSE(session.empty());
  }
  // A prompt whose turn writes `path` with `content`, then answers.
  void promptWriting(const std::string& words, const std::string& path, const std::string& content) {
    agent.fake->push(ScriptedReply::functionCall("write_file", writeArgs(path, content)));
    agent.fake->push(ScriptedReply::text("done"));
    REQUIRE(agent.client->prompt(session, words).stopReason == "end_turn");
  }
  PromptOutcome command(const std::string& text) {
    auto outcome = agent.client->prompt(session, text);
    REQUIRE(outcome.stopReason == "end_turn");
    return outcome;
  }
  // The body of the model request a plain prompt sends now.
  std::string nextRequest(const std::string& words) {
    agent.fake->push(ScriptedReply::text("ok"));
    REQUIRE(agent.client->prompt(session, words).stopReason == "end_turn");
    return agent.fake->generateRequests().back().body;
  }
};

// The diffs (path, oldText or "<none>", newText) of a tool_call_update.
std::vector<std::tuple<std::string, std::string, std::string>> diffsOf(const Message& m) {
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  const json::Value* u = updateOf(m);
  const json::Value* content = u ? member(*u, "content") : nullptr;
  if (!content || !content->IsArray()) return out;
  for (const auto& item : content->GetArray()) {
    if (json::getStr(item, "type").value_or("") != "diff") continue;
    const json::Value* old = member(item, "oldText");
    out.emplace_back(json::getStr(item, "path").value_or(""), old && old->IsString() ? old->GetString() : "<none>",
                     json::getStr(item, "newText").value_or(""));
  }
  return out;
}

// A digest of every file under `dir` (names and bytes), to prove nothing there changed.
std::string treeOf(const fs::path& dir) {
  std::string out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    out += file.string() + "\n";
    if (fs::is_regular_file(file)) out += readWhole(file) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("e2e rewind: /undo puts back an edit through the editor and takes the prompt out of the conversation",
          "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "a.txt", "one\n");
  r.promptWriting("make a.txt say two", "a.txt", "two\n");
  REQUIRE(readWhole(r.ws.path / "a.txt") == "two\n");

  auto undo = r.command("/undo");
  // The person was shown the file before anything was written, and asked.
  auto asks = permissionRequests(*r.agent.client);
  REQUIRE(asks.size() == 2);  // the write, then the rewind
  const json::Value& card = (*asks.back())["params"]["toolCall"];
  CHECK(json::getStr(card, "title").value_or("").find("Rewind") != std::string::npos);
  CHECK(json::stringify(card).find("a.txt: put back as it was") != std::string::npos);
  // Restored through the editor, so its buffer follows.
  auto writes = r.agent.client->writes();
  REQUIRE_FALSE(writes.empty());
  CHECK(writes.back().path == (r.ws.path / "a.txt").string());
  CHECK(writes.back().content == "one\n");
  CHECK(readWhole(r.ws.path / "a.txt") == "one\n");
  CHECK(joinedText(undo.updates, "agent_message_chunk").find("these files are as they were: a.txt") != std::string::npos);
  // The next request carries nothing of the undone prompt.
  std::string body = r.nextRequest("hello again");
  CHECK(body.find("make a.txt say two") == std::string::npos);
  CHECK(body.find("hello again") != std::string::npos);
  // "hello again" changed no file: taking it back only cuts the conversation.
  CHECK(joinedText(r.command("/undo").updates, "agent_message_chunk").find("no file needed changing") != std::string::npos);
  CHECK(r.agent.fake->violations().empty());
  checkAgainstSchema(*r.agent.client);
}

TEST_CASE("e2e rewind: a shell command's changes are shown as diffs and undone", "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "b.txt", "old\n");
  writeFile(r.ws.path / "d.txt", "doomed\n");
  writeFile(r.ws.path / "same.txt", "untouched\n");
  r.agent.fake->push(ScriptedReply::functionCall(
      "run_shell_command", shellArgs("echo new > b.txt && echo made > c.txt && rm d.txt && cat same.txt")));
  r.agent.fake->push(ScriptedReply::text("done"));
  auto turn = r.agent.client->prompt(r.session, "change things");
  REQUIRE(turn.stopReason == "end_turn");
  Message last;
  for (const auto& m : ofKind(turn.updates, "tool_call_update")) {
    if (field(m, "status") == "completed") last = m;
  }
  REQUIRE(last);
  auto diffs = diffsOf(last);
  std::sort(diffs.begin(), diffs.end());
  const std::string ws = r.ws.str();
  REQUIRE(diffs.size() == 3);  // same.txt was only read
  CHECK(diffs[0] == std::make_tuple(ws + "/b.txt", std::string("old\n"), std::string("new\n")));
  CHECK(diffs[1] == std::make_tuple(ws + "/c.txt", std::string("<none>"), std::string("made\n")));
  CHECK(diffs[2] == std::make_tuple(ws + "/d.txt", std::string("doomed\n"), std::string("")));
  CHECK(cardTexts({last}).find("d.txt was deleted") != std::string::npos);

  r.command("/undo");
  CHECK(readWhole(r.ws.path / "b.txt") == "old\n");
  CHECK_FALSE(fs::exists(r.ws.path / "c.txt"));
  CHECK(readWhole(r.ws.path / "d.txt") == "doomed\n");
  CHECK(readWhole(r.ws.path / "same.txt") == "untouched\n");
  checkAgainstSchema(*r.agent.client);
}

TEST_CASE("e2e rewind: /rewind lists the prompts, /rewind N goes back to before N, /redo comes forward again",
          "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "x.txt", "v0\n");
  r.promptWriting("first version", "x.txt", "v1\n");
  r.promptWriting("second version", "x.txt", "v2\n");
  r.promptWriting("third version", "x.txt", "v3\n");

  std::string list = joinedText(r.command("/rewind").updates, "agent_message_chunk");
  CHECK(list.find("1. \u201cfirst version\u201d \u2014 changed x.txt") != std::string::npos);
  CHECK(list.find("3. \u201cthird version\u201d") != std::string::npos);
  auto bad = r.agent.client->prompt(r.session, "/rewind 9");
  CHECK(joinedText(bad.updates, "agent_message_chunk").find("from 1 to 3") != std::string::npos);

  r.command("/rewind 2");
  CHECK(readWhole(r.ws.path / "x.txt") == "v1\n");
  r.command("/redo");
  CHECK(readWhole(r.ws.path / "x.txt") == "v3\n");
  std::string body = r.nextRequest("after the redo");
  CHECK(body.find("third version") != std::string::npos);

  r.command("/rewind 2");
  CHECK(readWhole(r.ws.path / "x.txt") == "v1\n");
  body = r.nextRequest("after the rewind");
  CHECK(body.find("first version") != std::string::npos);
  CHECK(body.find("second version") == std::string::npos);
  CHECK(body.find("third version") == std::string::npos);
  // A new prompt came after the rewind: what it took away stays away.
  CHECK(joinedText(r.command("/redo").updates, "agent_message_chunk").find("Nothing to redo") != std::string::npos);
}

TEST_CASE("e2e rewind: a file the person changed since is named and left alone unless they choose to overwrite it",
          "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "p.txt", "original\n");
  writeFile(r.ws.path / "q.txt", "q original\n");
  r.agent.fake->push(ScriptedReply::functionCall("write_file", writeArgs("p.txt", "agent\n")));
  r.agent.fake->push(ScriptedReply::functionCall("write_file", writeArgs("q.txt", "q agent\n")));
  r.agent.fake->push(ScriptedReply::text("done"));
  REQUIRE(r.agent.client->prompt(r.session, "write both").stopReason == "end_turn");
  // The person edits p.txt in the editor (an unsaved buffer).
  r.agent.client->setBuffer((r.ws.path / "p.txt").string(), "person\n");

  std::string said = joinedText(r.command("/undo").updates, "agent_message_chunk");
  auto card = json::stringify((*permissionRequests(*r.agent.client).back())["params"]);
  CHECK(card.find("p.txt was changed since") != std::string::npos);
  CHECK(card.find("Restore them all, overwriting the changes since") != std::string::npos);
  CHECK(r.agent.client->buffer((r.ws.path / "p.txt").string()) == "person\n");
  CHECK(readWhole(r.ws.path / "q.txt") == "q original\n");
  CHECK(said.find("Left alone (changed since, not by the prompt): p.txt") != std::string::npos);

  // Redo puts q.txt forward; then an undo that overwrites takes p.txt back too.
  r.command("/redo");
  CHECK(readWhole(r.ws.path / "q.txt") == "q agent\n");
  r.agent.client->setPermissionKind("rewind_overwrite");
  r.command("/undo");
  CHECK(r.agent.client->buffer((r.ws.path / "p.txt").string()) == "original\n");
  CHECK(readWhole(r.ws.path / "q.txt") == "q original\n");
  // And the person's version was kept: /redo brings it back.
  r.agent.client->setPermissionKind("allow_once");
  r.command("/redo");
  CHECK(r.agent.client->buffer((r.ws.path / "p.txt").string()) == "person\n");
}

TEST_CASE("e2e rewind: refusing the question changes nothing", "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "a.txt", "one\n");
  r.promptWriting("make it two", "a.txt", "two\n");
  r.agent.client->setPermissionKind("reject_once");
  std::string said = joinedText(r.command("/undo").updates, "agent_message_chunk");
  CHECK(said.find("Nothing was changed") != std::string::npos);
  CHECK(readWhole(r.ws.path / "a.txt") == "two\n");
  r.agent.client->setPermissionKind("allow_once");
  std::string body = r.nextRequest("still here?");
  CHECK(body.find("make it two") != std::string::npos);
}

TEST_CASE("e2e rewind: a session loaded by a new process can still undo", "[e2e][rewind]") {
  PrivateHome home;
  TempDir ws;
  writeFile(ws.path / "a.txt", "before\n");
  std::string session;
  {
    HomeAgent agent(home, "allow_once");
    session = agent.client->newSession(ws.str());
    agent.fake->push(ScriptedReply::functionCall("write_file", writeArgs("a.txt", "after\n")));
    agent.fake->push(ScriptedReply::text("done"));
    REQUIRE(agent.client->prompt(session, "change a").stopReason == "end_turn");
  }
  REQUIRE(readWhole(ws.path / "a.txt") == "after\n");
  HomeAgent agent(home, "allow_once");
  Message loaded = agent.client->call("session/load", json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", session);
    json::put(w, "cwd", ws.str());
    json::put(w, "mcpServers", json::Raw{"[]"});
  }));
  REQUIRE(loaded);
  REQUIRE(member(*loaded, "result"));
  REQUIRE(agent.client->prompt(session, "/undo").stopReason == "end_turn");
  CHECK(readWhole(ws.path / "a.txt") == "before\n");
}

TEST_CASE("e2e rewind: a workspace with its own git: its .git is never touched", "[e2e][rewind]") {
  Rewind r;
  writeFile(r.ws.path / "tracked.txt", "tracked\n");
  writeFile(r.ws.path / ".gitignore", "ignored.log\n");
  SubprocessOptions git;
  git.argv = {"/bin/sh", "-c", "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init"};
  git.cwd = r.ws.str();
  auto init = Subprocess::spawn(git);
  REQUIRE(init);
  (*init)->closeStdin();
  auto status = (*init)->wait(kExitGuard);
  REQUIRE(status);
  REQUIRE(status->success());
  const std::string gitBefore = treeOf(r.ws.path / ".git");

  r.agent.fake->push(ScriptedReply::functionCall("run_shell_command",
                                                 shellArgs("echo changed > tracked.txt && echo noise > ignored.log")));
  r.agent.fake->push(ScriptedReply::text("done"));
  auto turn = r.agent.client->prompt(r.session, "change tracked");
  REQUIRE(turn.stopReason == "end_turn");
  std::string all;
  for (const auto& m : ofKind(turn.updates, "tool_call_update")) {
    for (const auto& [path, old, now] : diffsOf(m)) all += path + "\n";
  }
  CHECK(all.find("tracked.txt") != std::string::npos);
  CHECK(all.find("ignored.log") == std::string::npos);  // what git ignores is not kept
  r.command("/undo");
  CHECK(readWhole(r.ws.path / "tracked.txt") == "tracked\n");
  CHECK(treeOf(r.ws.path / ".git") == gitBefore);
}
