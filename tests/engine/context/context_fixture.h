// A session with its context hooks, talking to the fake Gemini server through
// the real Gemini provider, for the context management tests.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine/commands/session_commands.h"
#include "engine/context/context_hooks.h"
#include "engine/model/provider_setup.h"
#include "engine/session/session.h"
#include "tests/engine/session/fake_editor.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/gemini_chunks.h"

namespace lathe::testing {

namespace fs = std::filesystem;

struct ContextFixture {
  fs::path dir;
  fs::path dataDir;
  FakeGeminiServer server;
  engine::AgentConfig config;
  FakeEditor editor;
  std::unique_ptr<engine::Session> session;
  std::shared_ptr<engine::SessionCommands> commands;  // the session's slash commands

  explicit ContextFixture(const std::function<void(engine::AgentConfig&)>& adjust = {},
                          acp::ClientCapabilities editorCapabilities = {}) {
    editor.caps = editorCapabilities;
    std::string tmpl = (fs::temp_directory_path() / "lathe-context-XXXXXX").string();
    fs::path root = fs::canonical(::mkdtemp(tmpl.data()));
    dir = root / "work";
    dataDir = root / "data";
    fs::create_directories(dir);
    REQUIRE(server.start().ok());
    engine::ProviderOptions options;
    options.apiKey = "test-key";
    options.baseUrl = server.baseUrl();
    options.maxAttempts = 1;
    config.provider = engine::makeProvider(options).value();
    config.model = "gemini-2.5-pro";
    config.maxTurnRequests = 20;
    config.dataDir = dataDir.string();
    config.approvalMode = engine::ApprovalMode::yolo;
    config.shell.maxOutputChars = engine::keptCharsOf(config.context.toolOutputChars);
    if (adjust) adjust(config);
    auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.string()).value());
    session = std::make_unique<engine::Session>("s1", ws, config, editor);
    commands = std::make_shared<engine::SessionCommands>(*session);
    engine::addContextHooks(*session, commands->registry());
    session->addHooks(commands);
  }
  ~ContextFixture() {
    server.stop();
    fs::remove_all(dir.parent_path());
  }

  Result<acp::StopReason> prompt(const std::string& text) {
    return session->prompt({acp::TextBlock{text}}, CancelToken());
  }

  // The bodies of the model requests, in order, with their action.
  std::vector<RecordedRequest> requests() const { return server.generateRequests(); }

  std::string agentText() {
    std::string all;
    for (const auto& chunk : editor.all<acp::MessageChunk>()) {
      if (chunk.role == acp::MessageChunk::Role::agent) all += chunk.text;
    }
    return all;
  }
};

// A stream reply: text, then STOP with the given prompt token count.
inline ScriptedReply textReply(std::string_view text, int64_t promptTokens = 10) {
  return ScriptedReply::stream({textChunk(text), finishChunk("STOP", {promptTokens, 5, 0})});
}

// A stream reply with function calls (name, args), then STOP.
inline ScriptedReply callsReply(const std::vector<std::pair<std::string, std::string>>& calls, int64_t promptTokens = 10) {
  std::vector<Chunk> chunks;
  for (const auto& [name, args] : calls) chunks.emplace_back(functionCallChunk(name, args));
  chunks.emplace_back(finishChunk("STOP", {promptTokens, 5, 0}));
  return ScriptedReply::stream(std::move(chunks));
}

// The "output" (or "error") texts of every functionResponse in a request body.
inline std::vector<std::string> responseOutputs(const std::string& body) {
  std::vector<std::string> out;
  auto doc = json::parse(body);
  REQUIRE(doc.ok());
  for (const auto& content : (*doc)["contents"].GetArray()) {
    for (const auto& part : content["parts"].GetArray()) {
      if (!part.HasMember("functionResponse")) continue;
      const auto& response = part["functionResponse"]["response"];
      for (const char* key : {"output", "error"}) {
        if (response.HasMember(key) && response[key].IsString()) out.emplace_back(response[key].GetString());
      }
    }
  }
  return out;
}

}  // namespace lathe::testing
