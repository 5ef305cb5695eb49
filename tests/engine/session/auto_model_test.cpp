// The auto models: one classifier call per prompt picks flash or pro, the
// whole turn (its tool rounds too) stays on that model, a classifier that
// cannot say means pro, the picker shows what an auto model does; and the
// classifier's request keeps the verdict schema Gemini CLI 0.61 asks for
// (tests/fixtures/gemini-cli-0.61/auto-first-requests.json).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "engine/agent/session_options.h"
#include "engine/model/gemini/gemini_wire.h"
#include "engine/model/model_routing.h"
#include "engine/session/session.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

// Classifier replies from a script; turns answer with one list_directory call, then text.
class RoutedModel final : public ModelProvider {
 public:
  std::vector<std::string> verdicts;  // the classifier's reply texts, in order ("!" fails the call)
  std::vector<std::string> classified;  // classifier request bodies
  std::vector<std::string> streamedTo;  // the model of each turn request
  std::vector<std::string> generatedTo;

  Result<ModelReply> generate(const ModelRequest& request, const CancelToken&) override {
    generatedTo.push_back(request.model);
    classified.push_back(gemini::buildRequestBody(request));
    std::string text = verdicts.empty() ? "!" : verdicts.front();
    if (!verdicts.empty()) verdicts.erase(verdicts.begin());
    if (text == "!") return makeError(Errc::http, "the classifier is down");
    ModelReply reply;
    reply.content.parts = {Part::makeText(text)};
    return reply;
  }
  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken&) override {
    streamedTo.push_back(request.model);
    ModelChunk chunk;
    const bool answered = !request.contents->back().parts.empty() && request.contents->back().parts[0].functionResponse;
    if (answered) {
      chunk.parts = {Part::makeText("done")};
    } else {
      Part call;
      call.functionCall = FunctionCall{"c1", "list_directory", json::Raw{R"({"dir_path":"."})"}};
      chunk.parts = {call};
    }
    chunk.finishReason = FinishReason::stop;
    onChunk(chunk);
    ReplyAccumulator reply;
    reply.add(chunk);
    return reply.take();
  }
};

struct Fixture {
  TempDir dir;
  std::shared_ptr<RoutedModel> model = std::make_shared<RoutedModel>();
  AgentConfig config;
  testing::FakeEditor editor;
  std::shared_ptr<const tools::Workspace> workspace;
  Fixture() {
    dir.write("ws/README.md", "# demo\n");
    config.provider = model;
    config.model = "auto-gemini-2.5";
    config.modelChoices = {"auto-gemini-2.5", "gemini-2.5-pro"};
    config.memory.globalDir = (dir.path / "home/.gemini").string();
    config.approvalMode = ApprovalMode::yolo;
    workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create((dir.path / "ws").string()).value());
  }
  std::unique_ptr<Session> session() { return std::make_unique<Session>("s1", workspace, config, editor); }
};

json::Document parsed(const std::string& text) {
  auto doc = json::parse(text);
  REQUIRE(doc);
  return std::move(doc).value();
}

const json::Value& at(const json::Value& v, const char* key) {
  const json::Value* found = json::find(v, key);
  INFO(key);
  REQUIRE(found);
  return *found;
}

std::string fixtureText(const char* name) {
  std::ifstream in(std::string(LATHE_SOURCE_DIR) + "/tests/fixtures/gemini-cli-0.61/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("auto: the classifier picks flash or pro per prompt, and the turn's tool rounds stay on it") {
  Fixture f;
  f.model->verdicts = {R"({"reasoning":"one listing","model_choice":"flash"})",
                       "```json\n{\"reasoning\":\"needs design\",\"model_choice\":\"pro\"}\n```", "!", "not json"};
  auto session = f.session();
  REQUIRE(session->prompt({acp::TextBlock{"list the files"}}, CancelToken()));
  CHECK(f.model->generatedTo == std::vector<std::string>{"gemini-2.5-flash-lite"});
  CHECK(f.model->streamedTo == std::vector<std::string>{"gemini-2.5-flash", "gemini-2.5-flash"});
  CHECK(session->chosenModel() == "auto-gemini-2.5");
  CHECK(session->model() == "gemini-2.5-flash");

  REQUIRE(session->prompt({acp::TextBlock{"how should this be designed?"}}, CancelToken()));
  CHECK(f.model->streamedTo.back() == "gemini-2.5-pro");
  REQUIRE(session->prompt({acp::TextBlock{"third"}}, CancelToken()));  // the classifier failed: pro
  CHECK(f.model->streamedTo.back() == "gemini-2.5-pro");
  REQUIRE(session->prompt({acp::TextBlock{"fourth"}}, CancelToken()));  // no verdict in the reply: pro
  CHECK(f.model->streamedTo.back() == "gemini-2.5-pro");
  CHECK(f.model->generatedTo.size() == 4);  // one classifier call per prompt, none per tool round

  // The classifier saw the prompt last, and earlier turns without their tool calls.
  auto body = parsed(f.model->classified[1]);
  const json::Value& contents = at(body, "contents");
  const json::Value& last = contents[contents.Size() - 1];
  CHECK(std::string(last["parts"][0]["text"].GetString()) == "how should this be designed?");
  for (const auto& content : contents.GetArray()) {
    for (const auto& part : at(content, "parts").GetArray()) {
      CHECK_FALSE(json::find(part, "functionCall"));
      CHECK_FALSE(json::find(part, "functionResponse"));
    }
  }

  session->setModel("gemini-2.5-pro");  // not an auto model: no classifier
  REQUIRE(session->prompt({acp::TextBlock{"fifth"}}, CancelToken()));
  CHECK(f.model->generatedTo.size() == 4);
  CHECK(f.model->streamedTo.back() == "gemini-2.5-pro");
}

TEST_CASE("auto: the picker names the auto model by what it does, and other APIs do not route") {
  Fixture f;
  auto session = f.session();
  auto options = optionsOf(*session);
  REQUIRE(options[0].choices.size() == 2);
  CHECK(options[0].currentValue == "auto-gemini-2.5");
  CHECK(options[0].choices[0].name == "Auto (Gemini 2.5)");
  CHECK(options[0].choices[0].description == "For each prompt a quick classifier picks gemini-2.5-pro or gemini-2.5-flash");
  CHECK(options[0].choices[1].name == "gemini-2.5-pro");
  CHECK(findAutoModel("auto")->pro == "gemini-3-pro-preview");
  CHECK(concreteModel("auto-gemini-2.5") == "gemini-2.5-pro");
  CHECK(concreteModel("qwen") == "qwen");

  f.config.routeAutoModels = false;
  auto plain = f.session();
  REQUIRE(plain->prompt({acp::TextBlock{"hi"}}, CancelToken()));
  CHECK(f.model->generatedTo.empty());
}

TEST_CASE("auto: the classifier asks for the verdict Gemini CLI 0.61 asks for") {
  auto capture = parsed(fixtureText("auto-first-requests.json"));
  const json::Value& classifier = at(capture, "otherRequests")[0];
  auto theirs = parsed(std::string(at(classifier, "body").GetString()));
  std::vector<Content> history = {Content{Role::user, {Part::makeText("hi")}}};
  std::vector<Content> storage;
  auto ours = parsed(gemini::buildRequestBody(classifierRequest(history, storage)));

  const json::Value& theirConfig = at(theirs, "generationConfig");
  const json::Value& ourConfig = at(ours, "generationConfig");
  CHECK(std::string(at(ourConfig, "responseMimeType").GetString()) == at(theirConfig, "responseMimeType").GetString());
  const json::Value& theirSchema = at(theirConfig, "responseJsonSchema");
  const json::Value& ourSchema = at(ourConfig, "responseJsonSchema");
  CHECK(json::stringify(at(ourSchema, "required")) == json::stringify(at(theirSchema, "required")));
  CHECK(json::stringify(at(at(at(ourSchema, "properties"), "model_choice"), "enum")) ==
        json::stringify(at(at(at(theirSchema, "properties"), "model_choice"), "enum")));
  for (const auto& property : at(theirSchema, "properties").GetObject()) {
    INFO(property.name.GetString());
    CHECK(json::find(at(ourSchema, "properties"), property.name.GetString()));
  }
  // The prompt is the last content, as Gemini CLI sends it; a system instruction of its own.
  const json::Value& theirContents = at(theirs, "contents");
  CHECK(std::string(at(ours, "contents")[0]["parts"][0]["text"].GetString()) ==
        theirContents[theirContents.Size() - 1]["parts"][0]["text"].GetString());
  CHECK(json::find(ours, "systemInstruction"));
  CHECK_FALSE(json::find(ours, "tools"));
  CHECK(verdictOf(R"({"reasoning":"x","model_choice":"pro"})") == "pro");
  CHECK(verdictOf(R"({"model_choice":"ultra"})").empty());
}
