// Shared fixtures for the end-to-end tests: temporary workspaces, starting the
// real lathe binary against a FakeGeminiServer, and readers for ACP messages
// and the model requests Lathe sent. Test-only; each test owns its objects.
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/gemini_chunks.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

#ifndef LATHE_BINARY
#error "LATHE_BINARY must name the lathe executable"
#endif
#ifndef LATHE_SOURCE_DIR
#error "LATHE_SOURCE_DIR must name the source tree"
#endif

namespace lathe::testing::e2e {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// Hang guards: far above anything a healthy run needs.
inline constexpr auto kExitGuard = 15s;
inline constexpr auto kCancelGuard = 10s;

inline void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  REQUIRE(out);
  out << text;
  REQUIRE(out.good());
}

struct LatheOptions {
  std::vector<std::string> extraArgs;
  std::string model = "gemini-e2e-model";
  // XDG_STATE_HOME (where sessions are recorded); empty: one temp dir per test binary.
  std::string stateHome = "";
};

// Sessions recorded by tests never land in the real state directory.
inline const std::string& defaultStateHome() {
  static TempDir dir;
  return dir.path.native();
}

// Starts `lathe --acp` talking to the fake model server.
inline std::unique_ptr<Subprocess> startLathe(const FakeGeminiServer& fake, const LatheOptions& options = {},
                                              const std::vector<std::pair<std::string, std::string>>& env = {}) {
  SubprocessOptions spawn;
  spawn.argv = {LATHE_BINARY, "--acp"};
  spawn.argv.insert(spawn.argv.end(), options.extraArgs.begin(), options.extraArgs.end());
  spawn.env = {{"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()},
               {"GEMINI_API_KEY", "test-key"},
               {"GEMINI_MODEL", options.model},
               {"XDG_STATE_HOME", options.stateHome.empty() ? defaultStateHome() : options.stateHome}};
  spawn.env.insert(spawn.env.end(), env.begin(), env.end());  // more variables (HOME, XDG_STATE_HOME) win
  spawn.unsetEnv = {"GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "HTTPS_PROXY", "HTTP_PROXY",
                    "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"};
  auto child = Subprocess::spawn(spawn);
  REQUIRE(child);
  return std::move(child).value();
}

inline std::unique_ptr<FakeGeminiServer> startFake(FakeGeminiOptions options = {}) {
  auto fake = std::make_unique<FakeGeminiServer>(std::move(options));
  REQUIRE(fake->start());
  return fake;
}

// Closes stdin and checks that Lathe exits cleanly.
inline void finish(Subprocess& agent) {
  agent.closeStdin();
  auto status = agent.wait(kExitGuard);
  INFO("lathe stderr:\n" << agent.stderrText());
  REQUIRE(status);
  CHECK(status->success());
}

// A HOME, GEMINI_CLI_HOME and XDG_STATE_HOME of the test's own: no person's
// settings, policies, kept answers or consent leak in, and none leak out.
struct PrivateHome {
  TempDir home;
  TempDir state;
  std::vector<std::pair<std::string, std::string>> env() const {
    return {{"HOME", home.str()}, {"XDG_STATE_HOME", state.str()}, {"GEMINI_CLI_HOME", home.str()}};
  }
};

// Lathe (with these arguments) in a private home against a fake model, its
// client answering permission questions with `permissionKind` (see
// AcpClientOptions::permissionKind).
struct HomeAgent {
  std::unique_ptr<FakeGeminiServer> fake = startFake();
  std::unique_ptr<Subprocess> lathe;
  std::unique_ptr<AcpTestClient> client;

  HomeAgent(const PrivateHome& home, const std::string& permissionKind, std::vector<std::string> args = {}) {
    LatheOptions options{std::move(args)};
    options.stateHome = home.state.str();
    lathe = startLathe(*fake, options, home.env());
    AcpClientOptions clientOptions;
    clientOptions.permissionKind = permissionKind;
    client = std::make_unique<AcpTestClient>(*lathe, clientOptions);
    client->initialize();
  }
  ~HomeAgent() {
    client.reset();
    if (lathe) finish(*lathe);
  }
};

// run_shell_command's arguments for a command line.
inline std::string shellArgs(const std::string& command) {
  return json::buildObject([&](json::Writer& w) { json::put(w, "command", command); });
}

// --- reading messages ---

inline const json::Value* member(const json::Value& v, const char* k) {
  return v.IsObject() ? json::find(v, k) : nullptr;
}

inline const json::Value* updateOf(const Message& m) {
  const json::Value* params = member(*m, "params");
  return params ? member(*params, "update") : nullptr;
}

inline std::string sessionOf(const Message& m) {
  const json::Value* params = member(*m, "params");
  return params ? json::getStr(*params, "sessionId").value_or("") : "";
}

inline std::string kindOf(const Message& m) {
  const json::Value* u = updateOf(m);
  return u ? json::getStr(*u, "sessionUpdate").value_or("") : "";
}

inline std::string field(const Message& m, const char* k) {
  const json::Value* u = updateOf(m);
  return u ? json::getStr(*u, k).value_or("") : "";
}

// The text of an agent_message_chunk / agent_thought_chunk.
inline std::string chunkText(const Message& m) {
  const json::Value* u = updateOf(m);
  const json::Value* content = u ? member(*u, "content") : nullptr;
  return content ? json::getStr(*content, "text").value_or("") : "";
}

inline std::vector<Message> ofKind(const std::vector<Message>& updates, const std::string& kind) {
  std::vector<Message> out;
  for (const auto& m : updates) {
    if (kindOf(m) == kind) out.push_back(m);
  }
  return out;
}

inline std::string joinedText(const std::vector<Message>& updates, const std::string& kind) {
  std::string text;
  for (const auto& m : ofKind(updates, kind)) text += chunkText(m);
  return text;
}

// The session's session_info_update (its title), which follows the answer
// to its first prompt; null after the guard.
inline Message waitForTitle(AcpTestClient& client, const std::string& sessionId,
                            std::chrono::milliseconds guard = std::chrono::seconds(10)) {
  return client.waitFor([&](const json::Value& m) {
    const json::Value* params = member(m, "params");
    const json::Value* update = params ? member(*params, "update") : nullptr;
    return update && json::getStr(*params, "sessionId").value_or("") == sessionId &&
           json::getStr(*update, "sessionUpdate").value_or("") == "session_info_update";
  }, guard);
}

// The requests of one method the agent sent the editor, in order.
inline std::vector<Message> requestsOf(const AcpTestClient& client, const std::string& method) {
  std::vector<Message> out;
  for (const auto& m : client.messages()) {
    if (json::getStr(*m, "method").value_or("") == method) out.push_back(m);
  }
  return out;
}

// The permission questions the agent asked, in order.
inline std::vector<Message> permissionRequests(const AcpTestClient& client) {
  return requestsOf(client, "session/request_permission");
}

inline std::vector<std::string> kindsWithoutUsage(const std::vector<Message>& updates) {
  std::vector<std::string> kinds;
  for (const auto& m : updates) {
    if (kindOf(m) != "usage_update") kinds.push_back(kindOf(m));
  }
  return kinds;
}

// The texts of tool_call_update content [{type:"content",content:{type:"text",text}}].
inline std::vector<std::string> contentTexts(const Message& m) {
  std::vector<std::string> texts;
  const json::Value* u = updateOf(m);
  const json::Value* content = u ? member(*u, "content") : nullptr;
  if (!content || !content->IsArray()) return texts;
  for (const auto& item : content->GetArray()) {
    if (json::getStr(item, "type").value_or("") != "content") continue;
    const json::Value* inner = member(item, "content");
    if (inner && json::getStr(*inner, "type").value_or("") == "text") {
      texts.push_back(json::getStr(*inner, "text").value_or(""));
    }
  }
  return texts;
}

inline std::optional<int64_t> errorCode(const Message& response) {
  if (!response) return std::nullopt;
  const json::Value* error = member(*response, "error");
  return error ? json::getInt(*error, "code") : std::nullopt;
}

inline std::string errorMessage(const Message& response) {
  if (!response) return "";
  const json::Value* error = member(*response, "error");
  return error ? json::getStr(*error, "message").value_or("") : "";
}

inline bool hasNullId(const json::Value& m) {
  const json::Value* id = member(m, "id");
  return id && id->IsNull();
}

inline std::string promptParams(const std::string& sessionId, const std::string& text) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::key(w, "prompt");
    w.StartArray();
    w.StartObject();
    json::put(w, "type", "text");
    json::put(w, "text", text);
    w.EndObject();
    w.EndArray();
    w.EndObject();
  });
}

inline std::string stopReasonOf(const Message& response) {
  if (!response) return "";
  const json::Value* result = member(*response, "result");
  return result ? json::getStr(*result, "stopReason").value_or("") : "";
}

// Stdout carries JSON-RPC 2.0 and nothing else: every frame parsed as an
// object, and each is a request, a notification or a response.
inline void checkOnlyJsonRpc(const AcpTestClient& client) {
  auto unparsed = client.unparsedFrames();
  INFO("first non-JSON frame on stdout: " << (unparsed.empty() ? std::string("(none)") : unparsed.front()));
  CHECK(unparsed.empty());
  for (const auto& m : client.messages()) {
    INFO("message: " << json::stringify(*m));
    CHECK(json::getStr(*m, "jsonrpc").value_or("") == "2.0");
    bool isCall = json::getStr(*m, "method").has_value();
    bool isResponse = member(*m, "id") && (member(*m, "result") || member(*m, "error"));
    CHECK((isCall != isResponse));
  }
}

// --- reading model requests ---

struct SentFunctionResponse {
  std::string name;
  std::string responseJson;  // the `response` object as JSON text
};

// The functionResponse parts of the last content of a generate request body.
inline std::vector<SentFunctionResponse> lastFunctionResponses(const std::string& body) {
  std::vector<SentFunctionResponse> out;
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return out;
  const json::Value* contents = member(*doc, "contents");
  if (!contents || !contents->IsArray() || contents->Empty()) return out;
  const json::Value& last = (*contents)[contents->Size() - 1];
  const json::Value* parts = member(last, "parts");
  if (!parts || !parts->IsArray()) return out;
  for (const auto& part : parts->GetArray()) {
    const json::Value* fr = member(part, "functionResponse");
    if (!fr) continue;
    const json::Value* response = member(*fr, "response");
    out.push_back({json::getStr(*fr, "name").value_or(""), response ? json::stringify(*response) : ""});
  }
  return out;
}

inline std::string responseField(const std::string& responseJson, const char* k) {
  auto doc = json::parse(responseJson);
  if (!doc || !doc->IsObject()) return "";
  return json::getStr(*doc, k).value_or("");
}

// A reply streaming several text chunks, then STOP.
inline ScriptedReply textStream(const std::vector<std::string>& pieces) {
  std::vector<Chunk> chunks;
  for (const auto& piece : pieces) chunks.emplace_back(textChunk(piece));
  chunks.emplace_back(finishChunk());
  return ScriptedReply::stream(std::move(chunks));
}

// Runs `lathe ARGS...` to completion, returning its status and its stdout.
struct RunResult {
  ExitStatus status;
  std::string out;
  std::string err;
};

inline RunResult runLathe(std::vector<std::string> args, const std::string& cwd,
                          const std::vector<std::pair<std::string, std::string>>& env = {}) {
  SubprocessOptions spawn;
  spawn.argv = {LATHE_BINARY};
  spawn.argv.insert(spawn.argv.end(), args.begin(), args.end());
  spawn.cwd = cwd;
  // A replay needs no network: make sure nothing real is reachable by accident.
  spawn.env = {{"GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9"}, {"XDG_STATE_HOME", defaultStateHome()}};
  spawn.env.insert(spawn.env.end(), env.begin(), env.end());
  spawn.unsetEnv = {"GEMINI_API_KEY", "GOOGLE_API_KEY"};
  auto child = Subprocess::spawn(spawn);
  REQUIRE(child);
  (*child)->closeStdin();
  RunResult result;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto some = (*child)->readSome(200ms);
    if (some) result.out += *some;
    if (!some && (*child)->stdoutEnded()) break;
  }
  auto status = (*child)->wait(kExitGuard);
  REQUIRE(status);
  result.status = *status;
  // wait() returns once the reader has seen stderr end as well.
  result.err = (*child)->stderrText();
  return result;
}


// Validates every message of the conversation, both ways, against the ACP v1
// JSON Schema shipped by the pinned @agentclientprotocol/sdk (ajv, via node):
// the stable one, or the unstable one for pieces still unstable there
// (PromptResponse.usage).
enum class AcpSchema { stable, unstable };
inline void checkAgainstSchema(const AcpTestClient& client, AcpSchema schema = AcpSchema::stable) {
  const std::string deps = std::string(LATHE_SOURCE_DIR) + "/.deps/node";
  TempDir dir;
  const fs::path transcript = dir.path / "transcript.jsonl";
  writeFile(transcript, client.transcriptJsonl());
  SubprocessOptions spawn;
  spawn.argv = {"/usr/bin/env", "node", std::string(LATHE_SOURCE_DIR) + "/tests/e2e/validate_acp.mjs",
                deps + "/node_modules/@agentclientprotocol/sdk/schema/v1/" +
                    (schema == AcpSchema::stable ? "schema.json" : "schema.unstable.json"),
                transcript.string()};
  spawn.env = {{"LATHE_NODE_MODULES", deps + "/package.json"}};
  auto node = Subprocess::spawn(spawn);
  REQUIRE(node);
  (*node)->closeStdin();
  std::string out;
  while (auto line = (*node)->readLine(30s)) out += *line + "\n";
  auto status = (*node)->wait(kExitGuard);  // stderr complete once it returns
  INFO("validator: " << out << (*node)->stderrText() << "\n(run scripts/setup.sh if ajv or the SDK is missing)");
  REQUIRE(status);
  CHECK(status->success());
}

// The command names of an available_commands_update.
inline std::vector<std::string> commandNames(const Message& m) {
  std::vector<std::string> names;
  const json::Value* u = updateOf(m);
  const json::Value* list = u ? member(*u, "availableCommands") : nullptr;
  if (!list || !list->IsArray()) return names;
  for (const auto& c : list->GetArray()) names.push_back(json::getStr(c, "name").value_or(""));
  return names;
}

inline bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Everything the person was shown on tool cards (titles and texts) in these updates.
inline std::string cardTexts(const std::vector<Message>& updates) {
  std::string out;
  for (const auto& m : updates) {
    if (kindOf(m) != "tool_call" && kindOf(m) != "tool_call_update") continue;
    out += field(m, "title") + "\n";
    for (const auto& text : contentTexts(m)) out += text + "\n";
  }
  return out;
}

}  // namespace lathe::testing::e2e
