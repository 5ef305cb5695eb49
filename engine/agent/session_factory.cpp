// Assembling a session: workspace, config, hooks, recording.
#include "engine/agent/session_factory.h"

#include <algorithm>
#include <filesystem>

#include "engine/agent/session_programs.h"
#include "engine/agent/workspace_setup.h"
#include "engine/commands/builtin_commands.h"
#include "engine/commands/session_commands.h"
#include "engine/context/context_hooks.h"
#include "engine/context/memory_command.h"
#include "engine/persistence/session_meta.h"
#include "protocol/base/log.h"
#include "tools/mcp/acp_servers.h"

namespace lathe::engine {
namespace {

// The highest tool-call number the editor was shown ("toolCallId":"call_N").
uint64_t lastCallNumber(const std::vector<std::string>& shown) {
  constexpr std::string_view key = "\"toolCallId\":\"";
  uint64_t last = 0;
  for (const std::string& params : shown) {
    for (size_t at = params.find(key); at != std::string::npos; at = params.find(key, at)) {
      at += key.size();
      size_t end = params.find('"', at);
      if (end == std::string::npos) break;
      last = std::max(last, ToolScheduler::callNumberOf(std::string_view(params).substr(at, end - at)));
    }
  }
  return last;
}

// The editor's servers and the person's settings' servers, as settings
// permit; the editor's win a name both define.
std::vector<tools::mcp::ServerConfig> mcpServersOf(const std::vector<acp::McpServer>& fromEditor,
                                                   const std::string& cwd, const AgentConfig& config) {
  std::vector<tools::mcp::ServerConfig> servers = tools::mcp::fromAcp(fromEditor, cwd);
  std::erase_if(servers, [&](const tools::mcp::ServerConfig& server) {
    return !mcpServerPermitted(server.name, config.mcpAllowed, config.mcpExcluded);
  });
  for (auto& fromSettings : mcpServersFromSettings(config.programs, nullptr, config.mcpAllowed, config.mcpExcluded)) {
    bool named = std::any_of(servers.begin(), servers.end(),
                             [&](const tools::mcp::ServerConfig& server) { return server.name == fromSettings.name; });
    if (!named) servers.push_back(std::move(fromSettings));
  }
  return servers;
}

// A recorded session goes on with its history, mode and model (when still offered).
void restore(Session& session, persist::SessionRecorder::Opened& record) {
  session.restoreHistory(std::move(record.history), lastCallNumber(record.shown));
  if (auto mode = parseApprovalMode(record.meta.mode)) session.setMode(*mode);
  const auto& choices = session.config().modelChoices;
  const std::string& model = record.meta.model;
  if (!model.empty() && (choices.empty() || std::find(choices.begin(), choices.end(), model) != choices.end())) {
    session.setModel(model);
  }
}

}  // namespace

Result<std::shared_ptr<const tools::Workspace>> workspaceFor(const std::string& cwd,
                                                            const std::vector<std::string>& directories) {
  if (auto root = tools::Workspace::create(cwd); !root) {
    return makeError(Errc::invalid_params, "params.cwd: " + root.error().message);
  }
  auto workspace = tools::Workspace::create(cwd, directories);
  if (!workspace) {
    // cwd was fine, so one of the other roots is the problem: name it.
    for (size_t i = 0; i < directories.size(); ++i) {
      if (auto one = tools::Workspace::create(directories[i]); !one) {
        return makeError(Errc::invalid_params,
                         "params.additionalDirectories[" + std::to_string(i) + "]: " + one.error().message);
      }
    }
    return makeError(Errc::invalid_params, "params.additionalDirectories: " + workspace.error().message);
  }
  return std::make_shared<const tools::Workspace>(std::move(workspace).value());
}

void SessionFactory::addHooks(Session& session, const std::string& root, WorkspaceSetup setup) const {
  Session* raw = &session;  // the hooks are owned by the session: no cycle
  SessionPrograms::Setup programs{
      .sessionId = session.id(),
      .workspaceRoot = root,
      .workspace = std::move(setup.programs),
      .consent = consent_,
      .startMcpServers = [raw](std::vector<tools::mcp::ServerConfig> servers) { raw->startMcpServers(std::move(servers)); },
      .grantWidening = nullptr,
      .ignoredNotice = std::move(setup.ignoredNotice),
      .notices = std::move(setup.notices),
  };
  if (setup.widened) {
    programs.grantWidening = [raw, &editor = editor_, widened = setup.widened, keys = setup.wideningKeys] {
      return grantWidening(*raw, editor, *widened, keys);
    };
  }
  session.addHooks(std::make_shared<SessionPrograms>(std::move(programs), session.config(), editor_, session.registry()));
  auto commands = std::make_shared<SessionCommands>(session);
  addContextHooks(session, commands->registry());
  addBuiltinCommands(session, commands->registry());
  addMemoryCommand(session, commands->registry());
  session.addHooks(std::move(commands));
}

Result<AssembledSession> SessionFactory::assemble(SessionSpec spec) const {
  auto workspace = workspaceFor(spec.cwd, spec.additionalDirectories);
  if (!workspace) return workspace.error();
  const std::string root = (*workspace)->cwd();
  // The session's config is its workspace's: read before the session exists.
  WorkspaceSetup setup = workspaceSetupFor(root, config_, *consent_);
  AssembledSession out;
  out.session = std::make_shared<Session>(spec.id, *workspace, std::move(setup.config), editor_);
  addHooks(*out.session, root, std::move(setup));
  if (spec.record) {
    restore(*out.session, *spec.record);
    out.recorder = std::move(spec.record->recorder);
    out.recorder->setWorkspace(spec.cwd, spec.additionalDirectories, persist::mcpServersJson(spec.mcpServers));
    out.shown = std::move(spec.record->shown);
  } else if (store_.enabled()) {
    persist::SessionMeta meta;
    meta.id = spec.id;
    meta.cwd = spec.cwd;
    meta.additionalDirectories = spec.additionalDirectories;
    meta.mcpServers = persist::mcpServersJson(spec.mcpServers);
    meta.mode = toString(out.session->mode());
    meta.model = out.session->chosenModel();
    if (auto recorder = persist::SessionRecorder::create(store_, std::move(meta))) {
      out.recorder = std::move(recorder).value();
    } else {
      log(LogLevel::warn, "session " + spec.id + " is not recorded: " + recorder.error().message);
    }
  }
  if (out.recorder) out.session->addHooks(out.recorder);  // last: it records what the others leave
  out.mcpServers = mcpServersOf(spec.mcpServers, root, out.session->config());
  return out;
}

}  // namespace lathe::engine
