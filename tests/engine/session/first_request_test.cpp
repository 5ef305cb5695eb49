// The first model request keeps the shape of Gemini CLI 0.61's, captured byte
// for byte for the same session (tests/fixtures/gemini-cli-0.61/: the
// capture, how it was made, and how Lathe answers each of its parts), field
// by field: the body's members, the generation settings, the session's
// context before the prompt, the working guide's sections, the tools.
// Also: the context's parts (folder tree, git), its refresh on resume, the
// guide's conditional sections, generation settings per family and settings.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/config/settings.h"
#include "engine/session/folder_tree.h"
#include "engine/session/session_context.h"
#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/generation_settings.h"
#include "engine/session/session.h"
#include "engine/session/system_prompt.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/temp_dir.h"
#include "tools/process/captured_run.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// Keeps every request's Gemini body; answers "ok" (or fails while failures remain).
class CapturingModel final : public ModelProvider {
 public:
  std::vector<std::string> bodies;
  int failures = 0;

  Result<ModelReply> generate(const ModelRequest&, const CancelToken&) override {
    return makeError(Errc::model, "not scripted");
  }
  bool supportsWebSearch() const override { return true; }  // as the Gemini API does
  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken&) override {
    bodies.push_back(gemini::buildRequestBody(request));
    if (failures > 0) {
      --failures;
      return makeError(Errc::http, "the model is down");
    }
    ModelChunk chunk;
    chunk.parts = {Part::makeText("ok")};
    chunk.finishReason = FinishReason::stop;
    onChunk(chunk);
    ReplyAccumulator reply;
    reply.add(chunk);
    return reply.take();
  }
};

json::Document parsed(const std::string& text) {
  auto doc = json::parse(text);
  REQUIRE(doc);
  return std::move(doc).value();
}

std::string fixtureText(const char* name) {
  std::ifstream in(std::string(LATHE_SOURCE_DIR) + "/tests/fixtures/gemini-cli-0.61/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void git(const fs::path& dir, std::vector<std::string> args) {
  tools::process::CapturedRunSpec spec;
  spec.argv = {"git"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = dir.string();
  spec.env.set = {{"GIT_AUTHOR_NAME", "t"}, {"GIT_AUTHOR_EMAIL", "t@t"}, {"GIT_COMMITTER_NAME", "t"},
                  {"GIT_COMMITTER_EMAIL", "t@t"}};
  auto run = tools::process::runCaptured(spec, CancelToken());
  REQUIRE(run);
  INFO(run->err);
  REQUIRE(run->ok());
}

struct Fixture {
  TempDir dir;
  fs::path ws;
  std::shared_ptr<CapturingModel> model = std::make_shared<CapturingModel>();
  AgentConfig config;
  testing::FakeEditor editor;
  std::shared_ptr<const tools::Workspace> workspace;

  Fixture() {
    ws = dir.path / "ws";
    dir.write("ws/README.md", "# demo\n");
    dir.write("ws/src/main.cpp", "int main() {}\n");
    dir.write("ws/build/out.o", "binary");
    dir.write("ws/.gitignore", "build/\n");
    git(ws, {"init", "-q", "-b", "trunk"});
    git(ws, {"add", "."});
    git(ws, {"commit", "-q", "-m", "start"});
    config.provider = model;
    config.maxTurnRequests = 3;
    config.memory.globalDir = (dir.path / "home/.gemini").string();
    workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(ws.string()).value());
  }
  std::unique_ptr<Session> session() { return std::make_unique<Session>("s1", workspace, config, editor); }
};

const json::Value& member(const json::Value& v, const char* key) {
  const json::Value* found = json::find(v, key);
  INFO(key);
  REQUIRE(found);
  return *found;
}

std::string text(const json::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

std::string systemText(const json::Document& body) {
  return text(member(member(body, "systemInstruction"), "parts")[0]["text"]);
}

// Every field of the recorded generationConfig, recursively, has Lathe's same value.
void checkSameFields(const json::Value& recorded, const json::Value& ours, const std::string& path) {
  for (const auto& field : recorded.GetObject()) {
    std::string name(field.name.GetString(), field.name.GetStringLength());
    INFO(path + "." + name);
    const json::Value* mine = json::find(ours, name.c_str());
    REQUIRE(mine);
    if (field.value.IsObject()) {
      REQUIRE(mine->IsObject());
      checkSameFields(field.value, *mine, path + "." + name);
    } else if (field.value.IsNumber()) {
      REQUIRE(mine->IsNumber());
      CHECK(std::abs(mine->GetDouble() - field.value.GetDouble()) < 1e-9);
    } else {
      CHECK(json::stringify(*mine) == json::stringify(field.value));
    }
  }
}

// The headings (lines starting with '#') of a system instruction.
std::vector<std::string> headingsOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("#")) out.push_back(line);
  }
  return out;
}

// A tool's parameters: their names, and the required ones.
std::pair<std::set<std::string>, std::set<std::string>> parametersOf(const json::Value& declaration) {
  const json::Value& schema = member(declaration, "parametersJsonSchema");
  std::set<std::string> names, required;
  if (const json::Value* properties = json::find(schema, "properties")) {
    for (const auto& property : properties->GetObject()) names.insert(property.name.GetString());
  }
  if (const json::Value* list = json::find(schema, "required")) {
    for (const auto& name : list->GetArray()) required.insert(name.GetString());
  }
  return {names, required};
}

}  // namespace

TEST_CASE("the first request keeps the shape of Gemini CLI 0.61's, field by field") {
  Fixture f;
  auto session = f.session();
  REQUIRE(session->prompt({acp::TextBlock{"hi"}}, CancelToken()));
  REQUIRE(f.model->bodies.size() == 1);
  json::Document ours = parsed(f.model->bodies[0]);
  json::Document capture = parsed(fixtureText("first-request.json"));
  json::Document answers = parsed(fixtureText("lathe-answers.json"));
  json::Document theirs = parsed(text(member(capture, "body")));
  REQUIRE(text(member(capture, "model")) == session->model());
  CHECK(text(member(capture, "path")) == "/v1beta/models/" + session->model() + ":streamGenerateContent?alt=sse");

  SECTION("the body's members") {
    std::set<std::string> theirMembers, ourMembers;
    for (const auto& m : theirs.GetObject()) theirMembers.insert(m.name.GetString());
    for (const auto& m : ours.GetObject()) ourMembers.insert(m.name.GetString());
    CHECK(ourMembers == theirMembers);
    const json::Value& differences = member(answers, "differences");
    for (const auto& m : member(theirs, "systemInstruction").GetObject()) {
      std::string name = m.name.GetString();
      INFO("systemInstruction." + name);
      CHECK((json::find(member(ours, "systemInstruction"), name.c_str()) ||
             json::find(differences, ("systemInstruction." + name).c_str())));
    }
  }
  SECTION("generation settings") {
    checkSameFields(member(theirs, "generationConfig"), member(ours, "generationConfig"), "generationConfig");
    checkSameFields(member(ours, "generationConfig"), member(theirs, "generationConfig"), "generationConfig");
  }
  SECTION("the session's context, then the prompt") {
    REQUIRE(member(ours, "contents").Size() == member(theirs, "contents").Size());
    const json::Value& want = member(theirs, "contents")[0];
    const json::Value& got = member(ours, "contents")[0];
    CHECK(text(member(got, "role")) == text(member(want, "role")));
    const json::Value& wantParts = member(want, "parts");
    const json::Value& gotParts = member(got, "parts");
    REQUIRE(gotParts.Size() == wantParts.Size());
    const std::string theirContext = text(member(wantParts[0], "text"));
    const std::string context = text(member(gotParts[0], "text"));
    CHECK(context.starts_with(theirContext.substr(0, theirContext.find('\n') + 1)));  // <session_context>
    CHECK(context.ends_with(theirContext.substr(theirContext.rfind('\n'))));        // </session_context>
    CHECK(theirContext.find("Today's date is ${DATE}") != std::string::npos);
    CHECK(context.find("Today's date: " + todayLong()) != std::string::npos);
    CHECK(theirContext.find("My operating system is: ") != std::string::npos);
    CHECK(context.find("Operating system: ") != std::string::npos);
    CHECK(theirContext.find("  - ${WORKSPACE}\n") != std::string::npos);
    CHECK(context.find("- " + f.ws.string() + "\n") != std::string::npos);
    CHECK(theirContext.find("Showing up to 200 items") != std::string::npos);
    CHECK(context.find("Folder tree of " + f.ws.string() + " (up to 200") != std::string::npos);
    for (const char* entry : {"README.md", ".gitignore", "main.cpp"}) {
      INFO(entry);
      CHECK(theirContext.find(entry) != std::string::npos);
      CHECK(context.find(entry) != std::string::npos);
    }
    CHECK(context.find("├── src/\n│   └── main.cpp\n") != std::string::npos);
    CHECK(context.find("out.o") == std::string::npos);  // .gitignore'd, as Gemini CLI leaves it out
    CHECK(theirContext.find("out.o") == std::string::npos);
    CHECK(context.find("Git in " + f.ws.string() + ": branch trunk, no uncommitted changes") != std::string::npos);
    CHECK(text(member(gotParts[1], "text")) == text(member(wantParts[1], "text")));
  }
  SECTION("the working guide's sections") {
    const std::string system = systemText(ours);
    const json::Value& sections = member(answers, "sections");
    for (const std::string& heading : headingsOf(systemText(theirs))) {
      INFO("Gemini CLI's " << heading);
      const json::Value* lathe = json::find(sections, heading.c_str());
      REQUIRE(lathe);  // a new part of Gemini CLI's guide: map it in lathe-answers.json
      if (lathe->IsNull()) {
        CHECK(json::find(member(answers, "why"), heading.c_str()));
        continue;
      }
      for (const auto& ourHeading : lathe->GetArray()) CHECK(system.find("\n" + text(ourHeading) + "\n") != std::string::npos);
    }
    for (const auto& heading : coreSectionHeadings()) CHECK(system.find("\n" + heading + "\n") != std::string::npos);
    CHECK(system.find("<session_context>") == std::string::npos);  // where it works is in the contents
  }
  SECTION("tools declared, with Gemini CLI's names and parameters") {
    std::map<std::string, const json::Value*> ourTools;
    for (const auto& declaration : member(ours, "tools")[0]["functionDeclarations"].GetArray()) {
      ourTools[text(member(declaration, "name"))] = &declaration;
    }
    const json::Value& mapped = member(answers, "tools");
    for (const auto& declaration : member(theirs, "tools")[0]["functionDeclarations"].GetArray()) {
      const std::string name = text(member(declaration, "name"));
      INFO("Gemini CLI's tool " << name);
      const json::Value* lathe = json::find(mapped, name.c_str());
      REQUIRE(lathe);  // a new tool of Gemini CLI's: map it in lathe-answers.json
      if (lathe->IsNull()) {
        CHECK(json::find(member(answers, "why"), name.c_str()));
        continue;
      }
      REQUIRE(ourTools.count(text(*lathe)));
      // Every parameter and the required ones as Gemini CLI's, or a difference said in lathe-answers.json.
      const json::Value& differences = member(answers, "differences");
      auto differs = [&](const std::string& what) { return json::find(differences, (name + "." + what).c_str()) != nullptr; };
      auto [theirNames, theirRequired] = parametersOf(declaration);
      auto [ourNames, ourRequired] = parametersOf(*ourTools[text(*lathe)]);
      for (const auto& parameter : theirNames) {
        INFO("parameter " << parameter);
        CHECK((ourNames.count(parameter) || differs(parameter)));
      }
      CHECK((ourRequired == theirRequired || differs("required")));
    }
  }
}

TEST_CASE("the session's context is given once, again after a failed first turn, and afresh on resume") {
  Fixture f;
  f.model->failures = 1;
  auto session = f.session();
  CHECK_FALSE(session->prompt({acp::TextBlock{"first"}}, CancelToken()));
  REQUIRE(session->prompt({acp::TextBlock{"second"}}, CancelToken()));
  REQUIRE(session->prompt({acp::TextBlock{"third"}}, CancelToken()));
  auto contextParts = [](const History& history) {
    size_t n = 0;
    for (const auto& content : history.contents()) {
      for (const auto& part : content.parts) n += isSessionContext(part);
    }
    return n;
  };
  CHECK(contextParts(session->history()) == 1);
  CHECK(isSessionContext(session->history().contents().front().parts.front()));

  f.dir.write("ws/NEW.md", "fresh\n");
  auto resumed = f.session();
  resumed->restoreHistory(session->history(), 0);
  REQUIRE(resumed->prompt({acp::TextBlock{"fourth"}}, CancelToken()));
  CHECK(contextParts(resumed->history()) == 2);
  json::Document last = parsed(f.model->bodies.back());
  const json::Value& contents = member(last, "contents");
  const json::Value& parts = member(contents[contents.Size() - 1], "parts");
  REQUIRE(parts.Size() == 2);
  std::string context = text(member(parts[0], "text"));
  CHECK(context.find("NEW.md") != std::string::npos);
  CHECK(context.find("1 file changed or untracked") != std::string::npos);
  CHECK(text(member(parts[1], "text")) == "fourth");
}

TEST_CASE("the guide's optional sections appear only with their feature") {
  PromptFeatures bare;
  std::string plain = buildSystemPrompt(bare);
  CHECK(plain.find("# Memory") == std::string::npos);
  CHECK(plain.find("# Plan mode") == std::string::npos);
  CHECK(plain.find("write_todos") == std::string::npos);
  CHECK(plain.find("run_shell_command") == std::string::npos);

  PromptFeatures full;
  full.tools = {"save_memory", "write_todos", "run_shell_command", "web_fetch"};
  full.planMode = true;
  full.sandbox = true;
  full.contextFiles = "--- Context from: /x/GEMINI.md ---\nRULE\n--- End of Context from: /x/GEMINI.md ---\n";
  std::string rich = buildSystemPrompt(full);
  CHECK(rich.find("\n# Memory\n") != std::string::npos);
  CHECK(rich.find("`save_memory`") != std::string::npos);
  CHECK(rich.find("\n# Plan mode\n") != std::string::npos);
  CHECK(rich.find("`write_todos`") != std::string::npos);
  CHECK(rich.find("Shell commands run in a sandbox") != std::string::npos);
  CHECK(rich.ends_with(full.contextFiles));

  SECTION("a session in plan mode is told so from its next request") {
    Fixture f;
    auto session = f.session();
    REQUIRE(session->prompt({acp::TextBlock{"one"}}, CancelToken()));
    session->setMode(ApprovalMode::plan);
    REQUIRE(session->prompt({acp::TextBlock{"two"}}, CancelToken()));
    CHECK(systemText(parsed(f.model->bodies[0])).find("# Plan mode") == std::string::npos);
    CHECK(systemText(parsed(f.model->bodies[1])).find("\n# Plan mode\n") != std::string::npos);
  }
}

TEST_CASE("generation settings follow the model family, under the person's overrides") {
  GenerationConfig pro = generationFor("gemini-2.5-pro");
  CHECK(pro.temperature == 1.0);
  CHECK(pro.topP == 0.95);
  CHECK(pro.topK == 64);
  CHECK(pro.thinkingBudget == 8192);
  CHECK_FALSE(pro.thinkingLevel);
  GenerationConfig three = generationFor("models/gemini-3-pro-preview");
  CHECK(three.thinkingLevel == "HIGH");
  CHECK_FALSE(three.thinkingBudget);
  GenerationConfig other = generationFor("qwen2.5-coder");
  CHECK_FALSE(other.temperature);
  CHECK_FALSE(other.topK);
  CHECK_FALSE(other.thinkingBudget);

  GenerationOverrides overrides;
  overrides["gemini"].temperature = 0.5;
  overrides["gemini-2.5"].temperature = 0.2;
  overrides["gemini-2.5"].thinkingLevel = "LOW";
  overrides["gemini-2.5-flash"].topK = 10;
  GenerationConfig flash = generationFor("gemini-2.5-flash", overrides);
  CHECK(flash.temperature == 0.2);  // the longer key wins
  CHECK(flash.topK == 10);
  CHECK(flash.thinkingLevel == "LOW");
  CHECK_FALSE(flash.thinkingBudget);  // a level replaces the budget
  CHECK(generationFor("gemini-2.5-pro", overrides).topK == 64);

  SECTION("from settings model.generationConfig, with errors naming the field") {
    TempDir dir;
    auto file = dir.write("settings.json", R"({"model": {"generationConfig": {"gemini-2.5": {"temperature": 0.3, "thinkingBudget": 1024}}}})");
    Settings settings;
    REQUIRE(mergeSettingsFile(file.string(), settings));
    CHECK(settings.generation.at("gemini-2.5").temperature == 0.3);
    CHECK(settings.generation.at("gemini-2.5").thinkingBudget == 1024);
    auto bad = dir.write("bad.json", R"({"model": {"generationConfig": {"gemini-2.5": {"topP": 3}}}})");
    Settings broken;
    auto status = mergeSettingsFile(bad.string(), broken);
    REQUIRE_FALSE(status);
    CHECK(status.error().message.find("model.generationConfig.gemini-2.5.topP: must be a number from 0 to 1") !=
          std::string::npos);
  }
}

TEST_CASE("the folder tree stops at its budget and marks what it left out") {
  TempDir dir;
  for (int i = 0; i < 30; ++i) dir.write("d/f" + std::to_string(100 + i) + ".txt", "x");
  dir.write("top.txt", "x");
  FolderTreeOptions options;
  options.maxItems = 10;
  std::string tree = folderTree(dir.str(), options, CancelToken());
  size_t entries = 0;
  for (size_t at = tree.find("── "); at != std::string::npos; at = tree.find("── ", at + 1)) ++entries;
  CHECK(entries == 10 + 1);  // ten entries and the mark of the cut folder
  CHECK(tree.find("├── d/\n│   ├── f100.txt\n") != std::string::npos);
  CHECK(tree.find("│   ├── f107.txt\n│   └── …\n└── top.txt\n") != std::string::npos);  // nearest first
  CHECK(tree.find("f108.txt") == std::string::npos);
}
