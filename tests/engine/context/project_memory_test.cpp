// A session's memory: context files in the system prompt, just-in-time
// context in a tool's result (once per session), /memory's reload, and
// save_memory asking before it writes the global file.
#include <catch2/catch.hpp>

#include <filesystem>

#include "engine/commands/session_commands.h"
#include "engine/context/memory_command.h"
#include "engine/session/session.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::readFile;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// Answers from a script; keeps each request's system instruction and history.
class ScriptedModel final : public ModelProvider {
 public:
  std::vector<std::vector<Part>> script;
  std::vector<std::string> systems;
  std::vector<std::vector<Content>> histories;

  Result<ModelReply> generate(const ModelRequest&, const CancelToken&) override {
    return makeError(Errc::model, "not scripted");
  }
  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken&) override {
    systems.push_back(request.systemInstruction);
    histories.push_back(*request.contents);
    if (histories.size() > script.size()) return makeError(Errc::model, "script exhausted");
    ReplyAccumulator acc;
    ModelChunk chunk;
    chunk.parts = script[histories.size() - 1];
    onChunk(chunk);
    acc.add(chunk);
    ModelChunk last;
    last.finishReason = FinishReason::stop;
    acc.add(last);
    return acc.take();
  }
};

Part call(const std::string& name, const std::string& args) {
  Part p;
  p.functionCall = FunctionCall{"", name, json::Raw{args}};
  return p;
}

// The text of the function responses in the last request's last content.
std::string lastResponses(const ScriptedModel& model) {
  std::string text;
  for (const auto& part : model.histories.back().back().parts) {
    if (part.functionResponse) text += part.functionResponse->response.text;
  }
  return text;
}

std::string jsonString(const std::string& s) {
  return json::build([&](json::Writer& w) { json::str(w, s); });
}

struct Fixture {
  TempDir dir;
  fs::path ws;
  std::shared_ptr<ScriptedModel> model = std::make_shared<ScriptedModel>();
  AgentConfig config;
  testing::FakeEditor editor;
  std::unique_ptr<Session> session;

  Fixture() {
    dir.write("home/.gemini/GEMINI.md", "GLOBAL RULE");
    fs::create_directories(dir.path / "ws/.git");
    dir.write("ws/GEMINI.md", "ROOT RULE");
    dir.write("ws/sub/GEMINI.md", "SUB RULE");
    dir.write("ws/sub/a.txt", "alpha");
    dir.write("ws/sub/b.txt", "beta");
    dir.write(".gitignore", "");
    ws = dir.path / "ws";
    config.provider = model;
    config.maxTurnRequests = 5;
    config.memory.globalDir = (dir.path / "home/.gemini").string();
    config.memory.maxScanDirs = 1;  // the root only: sub/GEMINI.md waits for a tool to go there
    auto workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(ws.string()).value());
    session = std::make_unique<Session>("s1", workspace, config, editor);
    auto commands = std::make_shared<SessionCommands>(*session);
    addMemoryCommand(*session, commands->registry());
    session->addHooks(std::move(commands));
  }
  // What the agent told the person, all messages joined.
  std::string agentText() {
    std::string text;
    for (const auto& chunk : editor.all<acp::MessageChunk>()) {
      if (chunk.role == acp::MessageChunk::Role::agent) text += chunk.text;
    }
    return text;
  }
  Result<acp::StopReason> prompt(const std::string& text) {
    return session->prompt({acp::TextBlock{text}}, CancelToken());
  }
};

}  // namespace

TEST_CASE("the system prompt holds the context files in order, each with its path") {
  Fixture f;
  f.model->script = {{Part::makeText("ok")}};
  REQUIRE(f.prompt("hi"));
  const std::string& system = f.model->systems.at(0);
  const std::string global = (f.dir.path / "home/.gemini/GEMINI.md").string();
  const std::string root = (f.ws / "GEMINI.md").string();
  size_t g = system.find("--- Context from: " + global + " ---\nGLOBAL RULE\n--- End of Context from: " + global + " ---");
  size_t r = system.find("--- Context from: " + root + " ---\nROOT RULE\n--- End of Context from: " + root + " ---");
  REQUIRE(g != std::string::npos);
  REQUIRE(r != std::string::npos);
  CHECK(g < r);
  CHECK(system.find("SUB RULE") == std::string::npos);
}

TEST_CASE("a subfolder's context file joins the first tool result there, once per session") {
  Fixture f;
  const std::string a = (f.ws / "sub/a.txt").string();
  const std::string b = (f.ws / "sub/b.txt").string();
  const std::string sub = (f.ws / "sub/GEMINI.md").string();
  f.model->script = {{call("read_file", "{\"file_path\":" + jsonString(a) + "}")},
                     {call("read_file", "{\"file_path\":" + jsonString(b) + "}")},
                     {Part::makeText("done")},
                     {call("list_directory", "{\"dir_path\":" + jsonString((f.ws / "sub").string()) + "}")},
                     {Part::makeText("done again")}};
  REQUIRE(f.prompt("read them"));
  REQUIRE(f.model->histories.size() == 3);
  std::string first;
  for (const auto& part : f.model->histories[1].back().parts) {
    if (part.functionResponse) first += part.functionResponse->response.text;
  }
  CHECK(first.find("alpha") != std::string::npos);
  CHECK(first.find("--- Newly Discovered Project Context ---") != std::string::npos);
  CHECK(first.find("--- Context from: " + sub + " ---") != std::string::npos);
  CHECK(first.find("SUB RULE") != std::string::npos);
  const std::string second = lastResponses(*f.model);
  CHECK(second.find("beta") != std::string::npos);
  CHECK(second.find("SUB RULE") == std::string::npos);
  // The next turn of the same session does not bring it again either.
  REQUIRE(f.prompt("list"));
  CHECK(lastResponses(*f.model).find("SUB RULE") == std::string::npos);
  CHECK(f.session->memory().describe().find(sub + " (added when a tool worked in its folder)") != std::string::npos);
}

TEST_CASE("refreshing memory reloads the files into the next request's system prompt") {
  Fixture f;
  f.model->script = {{Part::makeText("one")}, {Part::makeText("two")}};
  REQUIRE(f.prompt("first"));
  f.dir.write("ws/GEMINI.md", "CHANGED RULE");
  auto loaded = f.session->refreshMemory(CancelToken());
  CHECK(loaded.files == 2);
  CHECK(loaded.bytes == std::string("GLOBAL RULE").size() + std::string("CHANGED RULE").size());
  REQUIRE(f.prompt("second"));
  CHECK(f.model->systems.at(1).find("CHANGED RULE") != std::string::npos);
  CHECK(f.model->systems.at(1).find("ROOT RULE") == std::string::npos);
}

TEST_CASE("save_memory asks with the exact line, then writes the global file") {
  Fixture f;
  const fs::path file = f.dir.path / "home/.gemini/GEMINI.md";
  f.model->script = {{call("save_memory", "{\"fact\":\"  prefers tabs \"}")}, {Part::makeText("saved")},
                     {call("save_memory", "{\"fact\":\"never this\"}")}, {Part::makeText("not saved")}};
  f.editor.answer = [](const acp::RequestPermissionRequest&) { return testing::FakeEditor::select("allow_once"); };
  REQUIRE(f.prompt("remember I prefer tabs"));
  REQUIRE(f.editor.asked.size() == 1);
  const auto& ask = f.editor.asked[0];
  CHECK(ask.toolCall.kind == acp::ToolKind::other);
  REQUIRE(ask.toolCall.content);
  std::string shown;
  for (const auto& item : *ask.toolCall.content) shown += item.text;
  CHECK(shown.find(file.string()) != std::string::npos);
  CHECK(shown.find("\n- prefers tabs") != std::string::npos);
  CHECK(readFile(file) == "GLOBAL RULE\n\n## Gemini Added Memories\n- prefers tabs\n");

  f.editor.answer = [](const acp::RequestPermissionRequest&) { return testing::FakeEditor::select("reject_once"); };
  REQUIRE(f.prompt("remember something else"));
  CHECK(f.editor.asked.size() == 2);
  CHECK(readFile(file) == "GLOBAL RULE\n\n## Gemini Added Memories\n- prefers tabs\n");
}

TEST_CASE("save_memory refuses a multi-line fact before asking") {
  Fixture f;
  f.model->script = {{call("save_memory", "{\"fact\":\"a\\nb\"}")}, {Part::makeText("ok")}};
  REQUIRE(f.prompt("remember"));
  CHECK(f.editor.asked.empty());
  CHECK(lastResponses(*f.model).find("single line") != std::string::npos);
  CHECK(readFile(f.dir.path / "home/.gemini/GEMINI.md") == "GLOBAL RULE");
}

TEST_CASE("save_memory is refused in plan mode") {
  Fixture f;
  f.session->setMode(ApprovalMode::plan);
  f.model->script = {{call("save_memory", "{\"fact\":\"x\"}")}, {Part::makeText("ok")}};
  REQUIRE(f.prompt("remember"));
  CHECK(f.editor.asked.empty());
  CHECK(readFile(f.dir.path / "home/.gemini/GEMINI.md") == "GLOBAL RULE");
}

TEST_CASE("/memory show lists the loaded files with their paths and contents, without the model") {
  Fixture f;
  REQUIRE(f.prompt("/memory show").value() == acp::StopReason::end_turn);
  CHECK(f.model->systems.empty());
  const std::string text = f.agentText();
  CHECK(text.find("Context loaded from 2 file(s)") != std::string::npos);
  CHECK(text.find((f.dir.path / "home/.gemini/GEMINI.md").string() + "\n\nGLOBAL RULE") != std::string::npos);
  CHECK(text.find((f.ws / "GEMINI.md").string() + "\n\nROOT RULE") != std::string::npos);
  REQUIRE(f.prompt("/memory list"));
  CHECK(f.agentText().find("2 context file(s) in use:\n\n- " + (f.dir.path / "home/.gemini/GEMINI.md").string()) != std::string::npos);
}

TEST_CASE("/memory refresh reloads and says how many files and characters") {
  Fixture f;
  f.model->script = {{Part::makeText("ok")}};
  f.dir.write("ws/GEMINI.md", "NEW ROOT");
  REQUIRE(f.prompt("/memory refresh"));
  CHECK(f.agentText().find("Memory reloaded: 2 context file(s), 19 bytes.") != std::string::npos);
  REQUIRE(f.prompt("go"));
  CHECK(f.model->systems.at(0).find("NEW ROOT") != std::string::npos);
}

TEST_CASE("/memory add writes the fact without asking, and the next request carries it") {
  Fixture f;
  f.model->script = {{Part::makeText("ok")}};
  const fs::path file = f.dir.path / "home/.gemini/GEMINI.md";
  REQUIRE(f.prompt("/memory add   I like tea  ").value() == acp::StopReason::end_turn);
  CHECK(f.editor.asked.empty());
  CHECK(readFile(file) == "GLOBAL RULE\n\n## Gemini Added Memories\n- I like tea\n");
  CHECK(f.agentText().find("Added to " + file.string() + ":\n\n- I like tea") != std::string::npos);
  REQUIRE(f.prompt("hello"));
  CHECK(f.model->systems.at(0).find("## Gemini Added Memories\n- I like tea") != std::string::npos);
}

TEST_CASE("/memory add with no fact, and an unknown sub-command, are clear errors that change nothing") {
  Fixture f;
  const fs::path file = f.dir.path / "home/.gemini/GEMINI.md";
  REQUIRE(f.prompt("/memory add"));
  CHECK(f.agentText().find("/memory: the fact is empty") != std::string::npos);
  REQUIRE(f.prompt("/memory forget"));
  CHECK(f.agentText().find("/memory: unknown sub-command \"forget\"") != std::string::npos);
  CHECK(readFile(file) == "GLOBAL RULE");
  CHECK(f.model->systems.empty());
}

TEST_CASE("the global memory file stays out of reach of the file tools") {
  Fixture f;
  const fs::path file = f.dir.path / "home/.gemini/GEMINI.md";
  f.model->script = {{call("write_file", "{\"file_path\":" + jsonString(file.string()) + ",\"content\":\"pwned\"}")},
                     {call("read_file", "{\"file_path\":" + jsonString(file.string()) + "}")},
                     {Part::makeText("ok")}};
  f.editor.answer = [](const acp::RequestPermissionRequest&) { return testing::FakeEditor::select("allow_once"); };
  REQUIRE(f.prompt("overwrite my memory"));
  CHECK(f.editor.asked.empty());
  CHECK(readFile(file) == "GLOBAL RULE");
  REQUIRE(f.model->histories.size() == 3);
  CHECK(lastResponses(*f.model).find("outside") != std::string::npos);
}

TEST_CASE("read_many_files brings the context files of the folders it read") {
  Fixture f;
  f.model->script = {{call("read_many_files", "{\"include\":[\"sub/*.txt\"]}")}, {Part::makeText("ok")}};
  REQUIRE(f.prompt("read sub"));
  const std::string out = lastResponses(*f.model);
  CHECK(out.find("alpha") != std::string::npos);
  CHECK(out.find("--- Context from: " + (f.ws / "sub/GEMINI.md").string() + " ---") != std::string::npos);
  CHECK(out.find("SUB RULE") != std::string::npos);
}
