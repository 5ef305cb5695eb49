// The ReAct loop of a session, against an in-process scripted model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "engine/session/session_context.h"
#include "engine/session/session.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/wait.h"

using namespace lathe;
using namespace lathe::engine;
namespace fs = std::filesystem;

namespace {

// Returns once `cancel` fires (at once if it has).
void waitForCancel(const CancelToken& cancel) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  auto reg = cancel.onCancel([&] {
    std::lock_guard lock(m);
    done = true;
    cv.notify_all();
  });
  std::unique_lock lock(m);
  cv.wait(lock, [&] { return done; });
}

// A model that answers from a script and keeps a copy of every request's history.
class ScriptedModel final : public ModelProvider {
 public:
  struct Reply {
    Reply(std::vector<Part> p, FinishReason finish = FinishReason::stop, std::optional<Error> e = std::nullopt, bool block = false)
        : parts(std::move(p)), finishReason(std::move(finish)), error(std::move(e)), blockUntilCancelled(block) {}
    std::vector<Part> parts;
    FinishReason finishReason;
    std::optional<Error> error;
    bool blockUntilCancelled;
  };
  std::vector<Reply> script;
  std::vector<std::vector<Content>> requests;
  std::vector<ModelRequest> sent;  // each request as sent (model, generation settings)
  std::atomic<size_t> requestsStarted{0};  // what another thread may wait for on `started`
  testing::Notice started;
  std::vector<tools::ToolDeclaration> lastTools;

  Result<ModelReply> generate(const ModelRequest&, const CancelToken&) override {
    return makeError(Errc::model, "not scripted");
  }

  Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk, const CancelToken& cancel) override {
    requests.push_back(*request.contents);
    sent.push_back(request);
    sent.back().contents = nullptr;
    sent.back().tools = nullptr;
    started.update([&] { ++requestsStarted; });
    lastTools = request.tools ? *request.tools : std::vector<tools::ToolDeclaration>{};
    if (requests.size() > script.size()) return makeError(Errc::model, "script exhausted");
    const Reply& reply = script[requests.size() - 1];
    if (reply.blockUntilCancelled) {
      waitForCancel(cancel);
      return makeError(Errc::cancelled, "cancelled");
    }
    if (reply.error) return *reply.error;
    ReplyAccumulator acc;
    for (const Part& part : reply.parts) {
      ModelChunk chunk;
      chunk.parts.push_back(part);
      onChunk(chunk);
      acc.add(chunk);
    }
    ModelChunk last;
    last.finishReason = reply.finishReason;
    last.usage = Usage{100, 10, 0, 110};
    acc.add(last);
    return acc.take();
  }
};

using Recorder = testing::FakeEditor;

Part text(std::string t, bool thought = false) {
  Part p = Part::makeText(std::move(t));
  p.thought = thought;
  return p;
}

Part call(std::string name, std::string args, std::string id = "") {
  Part p;
  p.functionCall = FunctionCall{std::move(id), std::move(name), json::Raw{std::move(args)}};
  return p;
}

std::vector<acp::ContentBlock> promptText(const std::string& t) { return {acp::TextBlock{t}}; }

struct Fixture {
  fs::path dir;
  std::shared_ptr<ScriptedModel> model = std::make_shared<ScriptedModel>();
  AgentConfig config;
  Recorder editor;
  std::unique_ptr<Session> session;

  // `setup` shapes the config and the editor before the session is made.
  explicit Fixture(const std::function<void(AgentConfig&, Recorder&)>& setup = nullptr) {
    std::string tmpl = (fs::temp_directory_path() / "lathe-session-XXXXXX").string();
    dir = fs::canonical(::mkdtemp(tmpl.data()));
    std::ofstream(dir / "notes.txt") << "alpha\nbeta\n";
    config.provider = model;
    config.maxTurnRequests = 5;
    if (setup) setup(config, editor);
    auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.string()).value());
    session = std::make_unique<Session>("s1", ws, config, editor);
  }
  ~Fixture() { fs::remove_all(dir); }
};

// Every model functionCall must be answered by the next user content, in order.
void requirePaired(const std::vector<Content>& history) {
  for (size_t i = 0; i < history.size(); ++i) {
    std::vector<std::string> calls;
    for (const auto& p : history[i].parts) {
      if (p.functionCall) calls.push_back(p.functionCall->name);
    }
    if (calls.empty()) continue;
    REQUIRE(i + 1 < history.size());
    std::vector<std::string> answers;
    for (const auto& p : history[i + 1].parts) {
      if (p.functionResponse) answers.push_back(p.functionResponse->name);
    }
    REQUIRE(answers == calls);
  }
}

}  // namespace

TEST_CASE("a text-only reply streams chunks and ends the turn") {
  Fixture f;
  f.model->script.push_back({{text("thinking...", true), text("Hello "), text("world")}});
  auto stop = f.session->prompt(promptText("hi"), CancelToken());
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::end_turn);
  auto chunks = f.editor.all<acp::MessageChunk>();
  REQUIRE(chunks.size() == 3);
  CHECK(chunks[0].role == acp::MessageChunk::Role::thought);
  CHECK(chunks[1].text == "Hello ");
  CHECK(chunks[2].text == "world");
  CHECK(f.editor.all<acp::UsageUpdate>().size() == 1);
  // Thoughts are shown but not replayed; the model's text is merged.
  const auto& history = f.session->history().contents();
  REQUIRE(history.size() == 2);
  REQUIRE(history[1].parts.size() == 1);
  CHECK(*history[1].parts[0].text == "Hello world");
}

TEST_CASE("a function call runs the tool and the response goes back paired") {
  Fixture f;
  f.model->script.push_back({{call("read_file", R"({"file_path":"notes.txt"})", "c1")}});
  f.model->script.push_back({{text("It says alpha and beta.")}});
  auto stop = f.session->prompt(promptText("read notes"), CancelToken());
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::end_turn);
  REQUIRE(f.model->requests.size() == 2);
  const auto& second = f.model->requests[1];
  requirePaired(second);
  const Part& answer = second.back().parts[0];
  REQUIRE(answer.functionResponse);
  CHECK(answer.functionResponse->id == "c1");
  CHECK(answer.functionResponse->response.text.find("alpha\\nbeta") != std::string::npos);

  auto calls = f.editor.all<acp::ToolCall>();
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].kind == acp::ToolKind::read);
  CHECK(calls[0].title == "ReadFile: notes.txt");
  REQUIRE(calls[0].locations.size() == 1);
  CHECK(calls[0].locations[0].path == (f.dir / "notes.txt").string());
  auto updates = f.editor.all<acp::ToolCallUpdate>();
  REQUIRE(updates.size() == 2);
  CHECK(*updates[0].status == acp::ToolCallStatus::in_progress);
  CHECK(*updates[1].status == acp::ToolCallStatus::completed);
}

TEST_CASE("unknown tools and bad arguments are told to the model and the turn goes on") {
  Fixture f;
  f.model->script.push_back({{call("no_such_tool", "{}"), call("read_file", R"({"file_path": 5})"),
                              call("read_file", R"({"file_path":"../../etc/passwd"})")}});
  f.model->script.push_back({{text("sorry")}});
  auto stop = f.session->prompt(promptText("go"), CancelToken());
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::end_turn);
  const auto& answers = f.model->requests[1].back().parts;
  REQUIRE(answers.size() == 3);
  CHECK(answers[0].functionResponse->response.text.find("does not exist") != std::string::npos);
  CHECK(answers[1].functionResponse->response.text.find("params.file_path") != std::string::npos);
  CHECK(answers[2].functionResponse->response.text.find("outside the workspace") != std::string::npos);
  for (const auto& a : answers) CHECK(a.functionResponse->response.text.rfind("{\"error\"", 0) == 0);
  auto updates = f.editor.all<acp::ToolCallUpdate>();
  REQUIRE(updates.size() == 3);
  for (const auto& u : updates) CHECK(*u.status == acp::ToolCallStatus::failed);
}

TEST_CASE("parallel read-only calls answer in call order") {
  Fixture f;
  std::vector<Part> calls;
  for (int i = 0; i < 6; ++i) calls.push_back(call(i % 2 ? "list_directory" : "read_file",
                                                   i % 2 ? R"({"dir_path":"."})" : R"({"file_path":"notes.txt"})",
                                                   "id" + std::to_string(i)));
  f.model->script.push_back(ScriptedModel::Reply(calls));
  f.model->script.push_back({{text("ok")}});
  REQUIRE(f.session->prompt(promptText("go"), CancelToken()).ok());
  const auto& answers = f.model->requests[1].back().parts;
  REQUIRE(answers.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(answers[i].functionResponse->id == "id" + std::to_string(i));
  requirePaired(f.model->requests[1]);
}

TEST_CASE("the turn limit ends with max_turn_requests") {
  Fixture f;
  for (int i = 0; i < 10; ++i) f.model->script.push_back({{call("list_directory", R"({"dir_path":"."})")}});
  auto stop = f.session->prompt(promptText("loop"), CancelToken());
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_turn_requests);
  CHECK(f.model->requests.size() == 5);
  requirePaired(f.session->history().contents());
}

TEST_CASE("finish reasons map to stop reasons") {
  Fixture f;
  f.model->script.push_back({{text("cut")}, FinishReason::max_tokens});
  f.model->script.push_back({{}, FinishReason::safety});
  CHECK(*f.session->prompt(promptText("a"), CancelToken()) == acp::StopReason::max_tokens);
  CHECK(*f.session->prompt(promptText("b"), CancelToken()) == acp::StopReason::refusal);
}

TEST_CASE("cancel during the model stream ends the turn as cancelled, the next turn is clean") {
  Fixture f;
  f.model->script.push_back({{}, FinishReason::stop, std::nullopt, true});
  f.model->script.push_back({{text("fine")}});
  auto token = CancelToken::create();
  std::thread canceller([&] {
    f.model->started.waitFor([&] { return f.model->requestsStarted > 0; });
    token.cancel();
  });
  auto stop = f.session->prompt(promptText("slow"), token);
  canceller.join();
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::cancelled);
  REQUIRE(*f.session->prompt(promptText("again"), CancelToken()) == acp::StopReason::end_turn);
  requirePaired(f.model->requests[1]);
  // The cancelled prompt left nothing behind: the next request holds only
  // "again", after the session's context (still due: the model never answered).
  REQUIRE(f.model->requests[1].size() == 1);
  REQUIRE(f.model->requests[1][0].parts.size() == 2);
  CHECK(isSessionContext(f.model->requests[1][0].parts[0]));
  CHECK(*f.model->requests[1][0].parts[1].text == "again");
}

namespace {

// Hooks that record what they see and act as told.
struct TestHooks : TurnHooks {
  std::vector<std::string> seen;  // "request", "chunk", "call:<name>", "update:<kind>"
  std::string refuse;             // a tool to answer without running
  std::string stopOnText;         // streamed text that ends the turn
  std::optional<TurnStop> beforeModelRequest(History&, const CancelToken&) override {
    seen.push_back("request");
    return std::nullopt;
  }
  std::optional<TurnStop> onChunk(const ModelChunk& chunk) override {
    seen.push_back("chunk");
    for (const auto& part : chunk.parts) {
      if (!stopOnText.empty() && part.text && *part.text == stopOnText) {
        return TurnStop{acp::StopReason::max_turn_requests, "Stopped: the model repeated itself."};
      }
    }
    return std::nullopt;
  }
  CallVerdict onFunctionCall(const FunctionCall& call) override {
    seen.push_back("call:" + call.name);
    if (call.name == refuse) return {CallVerdict::Action::refuse, "You already ran this; do something else.", {}};
    return {};
  }
  void onUpdate(const acp::SessionUpdate& update) override {
    if (auto* chunk = std::get_if<acp::MessageChunk>(&update)) {
      seen.push_back(chunk->role == acp::MessageChunk::Role::user ? "update:user:" + chunk->text : "update:chunk");
    } else if (std::holds_alternative<acp::ToolCall>(update)) {
      seen.push_back("update:tool_call");
    }
  }
};

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

TEST_CASE("turn hooks run in order: before each request, per chunk, per call, per update") {
  Fixture f;
  auto hooks = std::make_shared<TestHooks>();
  hooks->refuse = "list_directory";
  f.session->addHooks(hooks);
  f.model->script.push_back({{call("list_directory", R"({"dir_path":"."})"), call("read_file", R"({"file_path":"notes.txt"})")}});
  f.model->script.push_back({{text("done")}});
  REQUIRE(*f.session->prompt(promptText("hi"), CancelToken()) == acp::StopReason::end_turn);
  const auto& seen = hooks->seen;
  REQUIRE(seen.size() > 4);
  CHECK(seen[0] == "update:user:hi");  // the prompt, for recordings; the editor is not sent it
  CHECK(seen[1] == "request");
  CHECK(has(seen, "call:list_directory"));
  CHECK(has(seen, "update:tool_call"));
  CHECK(f.editor.all<acp::ToolCall>().size() == 1);  // only read_file ran
  // The refused call was answered with the hook's words, paired as ever.
  const auto& second = f.model->requests[1];
  requirePaired(second);
  CHECK_THAT(second.back().parts[0].functionResponse->response.text, Catch::Contains("do something else"));
}

TEST_CASE("a hook's stop ends the turn with its reason and a visible message") {
  Fixture f;
  auto hooks = std::make_shared<TestHooks>();
  hooks->stopOnText = "again";
  f.session->addHooks(hooks);
  f.model->script.push_back({{text("again")}});
  auto stop = f.session->prompt(promptText("hi"), CancelToken());
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::max_turn_requests);
  auto chunks = f.editor.all<acp::MessageChunk>();
  REQUIRE_FALSE(chunks.empty());
  CHECK(chunks.back().text == "Stopped: the model repeated itself.");
}

TEST_CASE("a model error on the first call fails the turn and forgets the prompt") {
  Fixture f;
  f.model->script.push_back({{}, FinishReason::stop, Error{Errc::http, "Gemini API error 400: bad"}});
  auto stop = f.session->prompt(promptText("x"), CancelToken());
  REQUIRE_FALSE(stop.ok());
  CHECK(stop.error().message == "Gemini API error 400: bad");
  CHECK(f.session->history().empty());
}

TEST_CASE("settings tools.core and tools.exclude decide which tools a session declares") {
  auto names = [](const AgentConfig& config) {
    Recorder editor;
    std::string tmpl = (fs::temp_directory_path() / "lathe-registry-XXXXXX").string();
    fs::path dir = fs::canonical(::mkdtemp(tmpl.data()));
    auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.string()).value());
    Session session("s", ws, config, editor);
    std::vector<std::string> out;
    for (const auto& tool : session.registry().all()) out.push_back(tool->name());
    fs::remove_all(dir);
    return out;
  };
  AgentConfig all;
  auto everything = names(all);
  CHECK(everything.size() == 13);  // write_todos, web_fetch; google_web_search needs a provider that searches: none here
  AgentConfig core;
  core.coreTools = {"read_file", "glob"};
  CHECK(names(core) == std::vector<std::string>{"glob", "read_file"});
  AgentConfig excluded;
  excluded.excludeTools = {"run_shell_command", "write_file"};
  auto rest = names(excluded);
  CHECK(rest.size() == 11);
  CHECK(std::find(rest.begin(), rest.end(), "run_shell_command") == rest.end());
  CHECK(std::find(rest.begin(), rest.end(), "write_file") == rest.end());
}

TEST_CASE("a prompt without usable content is refused") {
  Fixture f;
  auto stop = f.session->prompt({}, CancelToken());
  REQUIRE_FALSE(stop.ok());
  CHECK(stop.error().code == Errc::invalid_params);
}

TEST_CASE("every message has its id: one model reply's chunks share it, each reply has its own") {
  Fixture f;
  f.model->script.push_back({{text("Let me look. "), call("read_file", R"({"file_path":"notes.txt"})")}});
  f.model->script.push_back({{text("hmm", true), text("It says "), text("alpha.")}});
  REQUIRE(*f.session->prompt(promptText("read notes"), CancelToken()) == acp::StopReason::end_turn);
  auto chunks = f.editor.all<acp::MessageChunk>();
  REQUIRE(chunks.size() == 4);
  for (const auto& chunk : chunks) CHECK(chunk.messageId.starts_with("msg_"));
  CHECK(chunks[1].messageId == chunks[2].messageId);  // thought and text of one reply
  CHECK(chunks[2].messageId == chunks[3].messageId);
  CHECK(chunks[0].messageId != chunks[1].messageId);
  // The tool call names its tool as the model called it.
  auto calls = f.editor.all<acp::ToolCall>();
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].name == "read_file");
}

TEST_CASE("usage_update carries the session's cost from the price table, and the turn's tokens add up") {
  Fixture f([](AgentConfig& config, Recorder&) {
    config.model = "test-model";
    config.pricing["test-"] = Price{1.0, 2.0, std::nullopt};  // USD per million tokens
  });
  f.model->script.push_back({{call("read_file", R"({"file_path":"notes.txt"})")}});
  f.model->script.push_back({{text("done")}});
  REQUIRE(*f.session->prompt(promptText("go"), CancelToken()) == acp::StopReason::end_turn);
  auto usage = f.editor.all<acp::UsageUpdate>();
  REQUIRE(usage.size() == 2);
  // Each reply: 100 prompt tokens at $1, 10 output at $2 per million.
  REQUIRE(usage[0].cost);
  CHECK(usage[0].cost->amount == Approx(0.00012));
  CHECK(usage[0].cost->currency == "USD");
  CHECK(usage[1].cost->amount == Approx(0.00024));  // cumulative
  auto turn = f.session->turnUsage();
  REQUIRE(turn);
  CHECK(turn->inputTokens == 200);
  CHECK(turn->outputTokens == 20);
  CHECK(turn->totalTokens == 220);
  // The next turn counts its own tokens; the cost goes on.
  f.model->script.push_back({{text("again")}});
  REQUIRE(f.session->prompt(promptText("more"), CancelToken()));
  CHECK(f.session->turnUsage()->inputTokens == 100);
  CHECK(f.editor.all<acp::UsageUpdate>().back().cost->amount == Approx(0.00036));
}

TEST_CASE("a model of no known price leaves the cost out, never an understated figure") {
  Fixture f([](AgentConfig& config, Recorder&) { config.model = "local-llama"; });
  f.model->script.push_back({{text("hi")}});
  REQUIRE(f.session->prompt(promptText("go"), CancelToken()));
  auto usage = f.editor.all<acp::UsageUpdate>();
  REQUIRE(usage.size() == 1);
  CHECK_FALSE(usage[0].cost);
}

TEST_CASE("the effort applies from the next request, as each family thinks") {
  Fixture f([](AgentConfig& config, Recorder&) { config.model = "gemini-2.5-flash"; });
  for (int i = 0; i < 4; ++i) f.model->script.push_back({{text("ok")}});
  REQUIRE(f.session->prompt(promptText("one"), CancelToken()));
  CHECK(f.model->sent.back().config.thinkingBudget == 8192);  // the family's default
  f.session->setEffort(Effort::high);
  REQUIRE(f.session->prompt(promptText("two"), CancelToken()));
  CHECK(f.model->sent.back().config.thinkingBudget == 24576);
  f.session->setModel("gemini-3-pro-preview");  // thinks by level: "high" it has too
  CHECK(f.session->effort() == Effort::high);
  f.session->setEffort(Effort::low);
  REQUIRE(f.session->prompt(promptText("three"), CancelToken()));
  CHECK(f.model->sent.back().config.thinkingLevel == "LOW");
  CHECK_FALSE(f.model->sent.back().config.thinkingBudget);
  f.session->setModel("gpt-5-mini");
  f.session->setEffort(Effort::low);
  REQUIRE(f.session->prompt(promptText("four"), CancelToken()));
  CHECK(f.model->sent.back().config.reasoningEffort == "low");
  f.session->setModel("gemini-2.0-flash");  // thinks not: back to the default
  CHECK(f.session->effort() == Effort::standard);
}

namespace {

acp::ElicitationResponse accepted(std::string content) {
  acp::ElicitationResponse r;
  r.action = acp::ElicitationResponse::Action::accept;
  r.content = json::Raw{std::move(content)};
  return r;
}

// The response the model got for the call of the first request's reply.
std::string responseToFirstCall(const ScriptedModel& model) {
  for (const auto& part : model.requests.at(1).back().parts) {
    if (part.functionResponse) return part.functionResponse->response.text;
  }
  return "";
}

constexpr const char* kTwoQuestions = R"({"questions":[
  {"question":"Which login?","header":"Auth","type":"choice",
   "options":[{"label":"OAuth","description":"standard"},{"label":"Keys","description":"simple"}]},
  {"question":"Ship today?","header":"Ship","type":"yesno"}]})";

}  // namespace

TEST_CASE("ask_user asks through the editor's form, tied to the call, and the model reads the answers") {
  Fixture f([](AgentConfig&, Recorder& editor) { editor.caps.elicitationForm = true; });
  f.editor.elicitAnswer = [](const acp::ElicitationRequest&, const CancelToken&) {
    return Result<acp::ElicitationResponse>(accepted(R"({"q1":"OAuth","q2":"No","q2_other":"tomorrow"})"));
  };
  f.model->script.push_back({{call("ask_user", kTwoQuestions)}});
  f.model->script.push_back({{text("Thanks.")}});
  REQUIRE(*f.session->prompt(promptText("set up auth"), CancelToken()) == acp::StopReason::end_turn);
  REQUIRE(f.editor.elicited.size() == 1);
  const auto& asked = f.editor.elicited[0];
  CHECK(asked.sessionId == "s1");
  CHECK(asked.toolCallId == "call_1");
  CHECK(asked.mode == acp::ElicitationRequest::Mode::form);
  auto schema = json::parse(asked.requestedSchema.text);
  REQUIRE(schema);
  const json::Value& props = (*schema)["properties"];
  CHECK(json::getStr(props["q1"], "title") == "Auth");
  CHECK(props["q1"]["oneOf"].Size() == 2);
  CHECK(json::getStr(props["q1"]["oneOf"][0], "const") == "OAuth");
  CHECK(json::getStr(props["q2"]["oneOf"][1], "const") == "No");
  CHECK(props.HasMember("q2_other"));
  CHECK(responseToFirstCall(*f.model) == R"({"output":"{\"answers\":{\"0\":\"OAuth\",\"1\":\"No — tomorrow\"}}"})");
  auto calls = f.editor.all<acp::ToolCall>();
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].name == "ask_user");
}

TEST_CASE("ask_user: a decline and a cancel reach the model in those words, and plan mode asks too") {
  for (auto action : {acp::ElicitationResponse::Action::decline, acp::ElicitationResponse::Action::cancel}) {
    Fixture f([](AgentConfig& config, Recorder& editor) {
      editor.caps.elicitationForm = true;
      config.approvalMode = ApprovalMode::plan;
    });
    f.editor.elicitAnswer = [action](const acp::ElicitationRequest&, const CancelToken&) {
      acp::ElicitationResponse r;
      r.action = action;
      return Result<acp::ElicitationResponse>(r);
    };
    f.model->script.push_back({{call("ask_user", kTwoQuestions)}});
    f.model->script.push_back({{text("ok")}});
    REQUIRE(*f.session->prompt(promptText("?"), CancelToken()) == acp::StopReason::end_turn);
    const std::string response = responseToFirstCall(*f.model);
    INFO(response);
    CHECK(response.find(action == acp::ElicitationResponse::Action::decline ? "declined" : "cancelled") !=
          std::string::npos);
  }
}

TEST_CASE("ask_user is not declared when the editor cannot show a form") {
  Fixture f;
  CHECK_FALSE(f.session->registry().find("ask_user"));
  Fixture withForms([](AgentConfig&, Recorder& editor) { editor.caps.elicitationForm = true; });
  CHECK(withForms.session->registry().find("ask_user"));
}

TEST_CASE("a turn cancelled while ask_user waits withdraws the question and ends at once") {
  Fixture f([](AgentConfig&, Recorder& editor) { editor.caps.elicitationForm = true; });
  testing::Notice asking;
  bool asked = false;
  f.editor.elicitAnswer = [&](const acp::ElicitationRequest&, const CancelToken& cancel) -> Result<acp::ElicitationResponse> {
    asking.update([&] { asked = true; });
    waitForCancel(cancel);
    return makeError(Errc::cancelled, "elicitation/create was cancelled");
  };
  f.model->script.push_back({{call("ask_user", kTwoQuestions)}});
  auto token = CancelToken::create();
  std::thread canceller([&] {
    asking.waitFor([&] { return asked; });
    token.cancel();
  });
  auto stop = f.session->prompt(promptText("?"), token);
  canceller.join();
  REQUIRE(stop.ok());
  CHECK(*stop == acp::StopReason::cancelled);
  auto updates = f.editor.all<acp::ToolCallUpdate>();
  REQUIRE_FALSE(updates.empty());
  CHECK(updates.back().status == acp::ToolCallStatus::failed);
}

TEST_CASE("a notice is an ACP notice where the editor shows them, else a card of its own") {
  Fixture cards;
  cards.session->notify(acp::Notice{acp::NoticeSeverity::warning, "Loop detected", "the same call"});
  auto card = cards.editor.all<acp::ToolCall>();
  REQUIRE(card.size() == 1);
  CHECK(card[0].title == "Loop detected");
  CHECK(cards.editor.all<acp::Notice>().empty());
  Fixture notices([](AgentConfig&, Recorder& editor) { editor.caps.notices = true; });
  notices.session->notify(acp::Notice{acp::NoticeSeverity::warning, "Loop detected", "the same call"});
  REQUIRE(notices.editor.all<acp::Notice>().size() == 1);
  CHECK(notices.editor.all<acp::ToolCall>().empty());
}
