// End-to-end tests of what a turn costs, through the real binary: one kept-alive
// connection to the model server, the first answer before the title call,
// meta.json written lazily yet crash-safe, tool outputs shown as the model
// got them, large edits shown as their changed region, and leftover
// processes reaped by Lathe itself. Figures live in bench/cost_bench.
#include <sys/stat.h>

#include <csignal>
#include <set>

#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

std::string modeParams(const std::string& sid, const std::string& mode) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sid);
    json::put(w, "modeId", mode);
    w.EndObject();
  });
}

std::string loadParams(const std::string& sid, const std::string& cwd) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sid);
    json::put(w, "cwd", cwd);
    json::key(w, "mcpServers");
    w.StartArray();
    w.EndArray();
    w.EndObject();
  });
}

// The completed tool_call_update of a turn.
Message completedUpdate(const std::vector<Message>& updates) {
  for (const auto& m : ofKind(updates, "tool_call_update")) {
    if (field(m, "status") == "completed") return m;
  }
  return nullptr;
}

std::string rawOutputText(const Message& update) {
  const json::Value* u = update ? updateOf(update) : nullptr;
  const json::Value* raw = u ? member(*u, "rawOutput") : nullptr;
  return raw ? json::getStr(*raw, "output").value_or("") : "";
}

// A field of /proc/PID/status ("PPid"), or -1 once the process is gone.
long procStatus(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + ":", 0) == 0) return std::atol(line.c_str() + name.size() + 1);
  }
  return -1;
}

// Waits until /proc/PID is gone (a zombie still has one); false after the
// guard. The process is lathe's child, not ours: polled.
bool waitGone(pid_t pid, std::chrono::milliseconds guard) {
  return pollUntil([&] { return !fs::exists("/proc/" + std::to_string(pid)); }, guard);
}

}  // namespace

TEST_CASE("e2e cost: sequential model requests share one kept-alive connection", "[e2e][cost]") {
  TempDir ws;
  writeFile(ws.path / "a.txt", "alpha\n");
  auto fake = startFake();
  fake->push(textStream({"Hello."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE(client.prompt(sid, "hi").stopReason == "end_turn");
  REQUIRE(waitForTitle(client, sid));

  for (int i = 0; i < 4; ++i) fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"a.txt"})"));
  fake->push(textStream({"Read it four times."}));
  PromptOutcome turn = client.prompt(sid, "read a.txt four times, one after the other");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");
  auto requests = fake->generateRequests();
  REQUIRE(requests.size() == 6);
  std::set<int> ports;
  for (size_t i = 1; i < requests.size(); ++i) ports.insert(requests[i].remotePort);
  CHECK(ports.size() == 1);  // five requests, one connection (was five)
  finish(*agent);
}

TEST_CASE("e2e cost: the first prompt is answered before the title call ends, and the title follows", "[e2e][cost]") {
  TempDir ws;
  FakeGeminiOptions options;
  options.holdTitles = true;
  auto fake = startFake(options);
  fake->push(textStream({"Let us look at the parser."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());

  PromptOutcome turn = client.prompt(sid, "Fix the parser crash", 10s);
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");  // answered while the title call is held
  CHECK(ofKind(turn.updates, "session_info_update").empty());
  fake->releaseTitles();
  Message info = waitForTitle(client, sid);
  REQUIRE(info);
  CHECK(field(info, "title") == "Fake session title");
  REQUIRE(fake->titleRequests().size() == 1);
  CHECK(fake->titleRequests()[0].body.find("Fix the parser crash") != std::string::npos);
  finish(*agent);
}

TEST_CASE("e2e cost: mode changes do not rewrite meta.json, and a crash loses none of them", "[e2e][cost][persist]") {
  TempDir ws, state;
  FakeGeminiOptions options;
  options.titleReply = "";  // no title call: the prompt's first line names the session
  auto fake = startFake(options);
  fake->push(textStream({"Planned."}));
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  REQUIRE(client.prompt(sid, "Plan the migration\nwith details").stopReason == "end_turn");
  const fs::path meta = state.path / "lathe" / "sessions" / sid / "meta.json";
  struct stat before {};
  REQUIRE(::stat(meta.c_str(), &before) == 0);
  for (const char* mode : {"yolo", "plan", "autoEdit", "yolo", "plan"}) {
    Message answer = client.call("session/set_mode", modeParams(sid, mode));
    REQUIRE(member(*answer, "result"));
  }
  struct stat after {};
  REQUIRE(::stat(meta.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);  // not replaced: each write renames a new file over it
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
  agent->kill(9);
  REQUIRE(agent->wait(kExitGuard));

  auto next = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient again(*next);
  REQUIRE(again.initialize());
  Message list = again.call("session/list", "{}");
  REQUIRE(member(*list, "result"));
  const json::Value& sessions = *member(*member(*list, "result"), "sessions");
  REQUIRE(sessions.Size() == 1);
  CHECK(json::getStr(sessions[0], "title").value_or("") == "Plan the migration");
  Message loaded = again.call("session/load", loadParams(sid, ws.str()));
  INFO("lathe stderr:\n" << next->stderrText());
  REQUIRE(member(*loaded, "result"));
  const json::Value* modes = member(*member(*loaded, "result"), "modes");
  REQUIRE(modes);
  CHECK(json::getStr(*modes, "currentModeId").value_or("") == "plan");
  finish(*next);
}

TEST_CASE("e2e cost: a large read's completed update carries what the model got, and where the whole is", "[e2e][cost]") {
  TempDir ws, state;
  std::string big;
  for (int i = 0; big.size() < 1'000'000; ++i) big += "line " + std::to_string(i) + " of a large log file\n";
  writeFile(ws.path / "big.log", big);
  writeFile(ws.path / "small.txt", "small\n");
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"big.log"})"));
  fake->push(textStream({"Big."}));
  fake->push(ScriptedReply::functionCall("read_file", R"({"file_path":"small.txt"})"));
  fake->push(textStream({"Small."}));
  auto agent = startLathe(*fake, {{}, "gemini-e2e-model", state.str()});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  PromptOutcome turn = client.prompt(sid, "read big.log");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");

  const std::string shown = rawOutputText(completedUpdate(turn.updates));
  auto sent = lastFunctionResponses(fake->generateRequests()[1].body);
  REQUIRE(sent.size() == 1);
  CHECK(shown == responseField(sent[0].responseJson, "output"));  // what the model got, to the byte
  CHECK(shown.size() < 100'000);
  const fs::path sessionDir = state.path / "lathe" / "sessions" / sid;
  size_t at = shown.find(sessionDir.string());
  REQUIRE(at != std::string::npos);  // the path of the saved whole
  std::string saved = shown.substr(at, shown.find_first_of(" \n]", at) - at);
  std::ifstream wholeFile(saved, std::ios::binary);
  std::string whole((std::istreambuf_iterator<char>(wholeFile)), std::istreambuf_iterator<char>());
  CHECK(whole.find("line 0 of a large log file") != std::string::npos);
  CHECK(whole.size() > 2 * shown.size());  // the whole, not what was shown
  CHECK(fs::file_size(sessionDir / "record.jsonl") < 200'000);  // the untrimmed text is not recorded

  auto savedFiles = [&] {
    size_t n = 0;
    for (const auto& entry : fs::directory_iterator(sessionDir)) n += entry.path().filename().string().rfind("tool-", 0) == 0;
    return n;
  };
  const size_t afterBig = savedFiles();
  PromptOutcome small = client.prompt(sid, "read small.txt");
  REQUIRE(small.stopReason == "end_turn");
  CHECK(rawOutputText(completedUpdate(small.updates)).find("small") != std::string::npos);
  CHECK(savedFiles() == afterBig);  // nothing cut, nothing saved
  finish(*agent);
}

TEST_CASE("e2e cost: a replace in a 5 MB file asks with the changed region, not the whole file twice", "[e2e][cost]") {
  TempDir ws;
  std::string text;
  for (int i = 0; text.size() < 5'000'000; ++i) text += "int value" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  writeFile(ws.path / "big.cpp", text);
  const std::string from = "int value40000 = 40000;";
  const std::string to = "int value40000 = 7;";
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall(
      "replace", json::build([&](json::Writer& w) {
        w.StartObject();
        json::put(w, "file_path", (ws.path / "big.cpp").string());
        json::put(w, "old_string", from);
        json::put(w, "new_string", to);
        json::put(w, "instruction", "Set value40000 to 7.");
        w.EndObject();
      })));
  fake->push(textStream({"Changed."}));
  auto agent = startLathe(*fake);
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  PromptOutcome turn = client.prompt(sid, "set value40000 to 7");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");

  auto asks = permissionRequests(client);
  INFO("card texts: " << cardTexts(turn.updates));
  REQUIRE(asks.size() == 1);
  const json::Value& call = *member(*member(*asks[0], "params"), "toolCall");
  const json::Value* content = member(call, "content");
  REQUIRE(content);
  REQUIRE(content->Size() >= 1);
  const json::Value& diff = (*content)[0];
  CHECK(json::getStr(diff, "type").value_or("") == "diff");
  const std::string oldText = json::getStr(diff, "oldText").value_or("");
  const std::string newText = json::getStr(diff, "newText").value_or("");
  CHECK(oldText.size() < 64 * 1024);
  CHECK(newText.size() < 64 * 1024);
  CHECK(oldText.find(from) != std::string::npos);
  CHECK(newText.find(to) != std::string::npos);
  CHECK(oldText.find("int value39990 = 39990;\n") != std::string::npos);  // context before
  CHECK(newText.find("int value40010 = 40010;\n") != std::string::npos);  // and after
  CHECK(oldText.rfind("int value", 0) == 0);                             // whole lines
  CHECK(newText.back() == '\n');
  const json::Value* locations = member(call, "locations");
  REQUIRE(locations);
  CHECK(json::getInt((*locations)[0], "line").value_or(0) == 40001);

  // The edit itself is whole: the file is the old one with the one line changed.
  std::string expected = text;
  expected.replace(expected.find(from), from.size(), to);
  std::string written;
  for (const auto& write : client.writes()) written = write.content;
  if (written.empty()) {
    std::ifstream in(ws.path / "big.cpp", std::ios::binary);
    written.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  CHECK(written == expected);
  finish(*agent);
}

TEST_CASE("e2e cost: what a command leaves behind becomes Lathe's child and is reaped when it ends", "[e2e][cost][shell]") {
  TempDir ws;
  auto fake = startFake();
  fake->push(ScriptedReply::functionCall("run_shell_command",
                                         R"({"command":"sleep 30 >/dev/null 2>&1 & echo ORPHAN=$!"})"));
  fake->push(textStream({"Started."}));
  auto agent = startLathe(*fake, {{"--yolo"}});
  AcpTestClient client(*agent);
  REQUIRE(client.initialize());
  std::string sid = client.newSession(ws.str());
  PromptOutcome turn = client.prompt(sid, "start a sleeper");
  INFO("lathe stderr:\n" << agent->stderrText());
  REQUIRE(turn.stopReason == "end_turn");
  auto sent = lastFunctionResponses(fake->generateRequests()[1].body);
  REQUIRE(sent.size() == 1);
  const std::string output = responseField(sent[0].responseJson, "output");
  size_t at = output.find("Output: ORPHAN=");
  INFO("output: " << output);
  REQUIRE(at != std::string::npos);
  const pid_t orphan = static_cast<pid_t>(std::atol(output.c_str() + at + 15));
  REQUIRE(orphan > 0);
  // Its shell has exited: it was reparented to Lathe, not to PID 1.
  CHECK(procStatus(orphan, "PPid") == agent->pid());
  ::kill(orphan, SIGKILL);  // started by this test (through Lathe)
  CHECK(waitGone(orphan, 10s));  // reaped, not left a zombie
  finish(*agent);
}
