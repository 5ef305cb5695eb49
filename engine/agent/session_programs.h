// What a session starts from settings, at the start of its first turn (on
// the turn's thread, so the person can be asked and nothing blocks the
// reader; before the prompt joins the history, so the workspace's hooks can
// see it): consent for the programs its workspace's settings define, then
// the discovery command, whose tools join the registry (group discovered),
// the workspace's MCP servers (once agreed to) handed to the MCP client and
// its hooks to the session's hooks.
// The user's own servers need no consent and are started with the session
// (mcpServersFromSettings(config.programs, nullptr, ...)). Failures are told
// to the person on a card of their own and the session goes on without those
// tools. A turn cancelled while asking asks again at the next one.
// The same consent covers the workspace's settings that let more run unasked
// (engine/config/workspace_settings.h): when it is given here, at the first
// turn, grantWidening applies them; refused, the person is told they were
// ignored. The workspace's sub-agents that could run programs and its agent
// skills wait for the same answer. Notices about the workspace's settings file are told here too.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/consent_store.h"
#include "engine/config/trusted_folders.h"
#include "engine/config/workspace_programs.h"
#include "engine/session/editor_client.h"
#include "engine/session/turn_hooks.h"
#include "tools/core/registry.h"

namespace lathe::engine {

class SessionPrograms final : public TurnHooks {
 public:
  struct Setup {
    std::string sessionId;
    std::string workspaceRoot;
    std::optional<WorkspacePrograms> workspace;  // nullopt: the workspace defines none
    std::shared_ptr<ConsentStore> consent;
    // Starts MCP servers for this session (the MCP client's entry point);
    // unset: there is no MCP client to start them, and that is logged.
    std::function<void(std::vector<tools::mcp::ServerConfig>)> startMcpServers;
    // Adds the workspace's hooks once agreed to; unset: the session runs no hooks.
    std::function<void(HookSet)> startHooks;
    FolderTrustVerdict trust;  // Gemini CLI's trust in the folder: counts as the answer, and is told
    // Applies the workspace's widening settings once consent is given here;
    // unset when there are none or they already apply. Returns what could
    // not apply until the next session (told to the person), else empty.
    std::function<std::string()> grantWidening;
    std::string ignoredNotice;  // told when consent is refused and there are widening settings
    std::vector<std::pair<std::string, std::string>> notices;  // (title, text) told at the first turn
    // Told the answer: what waits for it (the workspace's sub-agents that
    // could run programs, its agent skills).
    std::vector<std::function<void(bool allowed)>> settle = {};
  };
  SessionPrograms(Setup setup, const AgentConfig& config, EditorClient& editor, tools::ToolRegistry& registry);

  std::optional<TurnStop> onPrompt(const std::vector<Part>& prompt, History& history, const CancelToken& cancel) override;

 private:
  bool consent(const CancelToken& cancel, bool& cancelled);
  void start(bool workspaceAllowed, const CancelToken& cancel);
  void discover(const ProgramSettings& user, const ProgramSettings* workspace, const CancelToken& cancel);
  void tell(const std::string& title, const std::string& message,
            acp::NoticeSeverity severity = acp::NoticeSeverity::warning);

  Setup setup_;
  const AgentConfig& config_;
  EditorClient& editor_;
  tools::ToolRegistry& registry_;
  bool started_ = false;
};

}  // namespace lathe::engine
