// Workspace consent: the question, the answer, the record.
#include "engine/agent/workspace_consent.h"

#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

using tools::mcp::HttpTransport;
using tools::mcp::StdioTransport;

constexpr const char* kAllowAlways = "workspace_allow_always";
constexpr const char* kAllowOnce = "workspace_allow_once";
constexpr const char* kRejectOnce = "workspace_reject_once";
constexpr const char* kRejectAlways = "workspace_reject_always";

std::string commandLine(const StdioTransport& stdio) {
  std::string line = stdio.command;
  for (const auto& arg : stdio.args) line += " " + arg;
  return line;
}

acp::ToolCallContent text(std::string body) {
  acp::ToolCallContent content;
  content.text = std::move(body);
  return content;
}

void finish(EditorClient& editor, const std::string& sessionId, const std::string& id, bool allowed) {
  acp::ToolCallUpdate done;
  done.toolCallId = id;
  done.status = allowed ? acp::ToolCallStatus::completed : acp::ToolCallStatus::failed;
  done.content = std::vector<acp::ToolCallContent>{
      text(allowed ? "Allowed: the workspace's configuration applies." : "Not allowed: the workspace's programs do not start "
                                                                        "and its settings and policy rules that let more run unasked are ignored.")};
  editor.sendUpdate(sessionId, acp::SessionUpdate(std::move(done)));
}

}  // namespace

std::string describePrograms(const WorkspacePrograms& programs) {
  const bool runs = programs.startsPrograms() || !programs.agents.empty();
  std::string out = programs.settingsPath + (runs ? " asks to run:\n" : " asks for:\n");
  for (const auto& server : programs.programs.mcpServers) {
    if (auto* stdio = std::get_if<StdioTransport>(&server.transport)) {
      out += "- MCP server \"" + server.name + "\": `" + commandLine(*stdio) + "`";
      if (stdio->cwd) out += " in " + *stdio->cwd;
      if (!stdio->env.empty()) {
        out += " with";
        for (const auto& [name, value] : stdio->env) out += " " + name;
        out += " set";
      }
    } else {
      out += "- MCP server \"" + server.name + "\" at " + std::get<HttpTransport>(server.transport).url;
    }
    if (server.trust) out += " with trust: true (its tools run without asking)";
    out += "\n";
  }
  if (programs.programs.discoveryCommand) out += "- tool discovery: `" + *programs.programs.discoveryCommand + "`\n";
  if (programs.programs.callCommand) out += "- tool calls: `" + *programs.programs.callCommand + " <tool>`\n";
  for (const auto& hook : programs.hooks.definitions) {
    out += "- hook " + std::string(toString(hook.event)) + (hook.name.empty() ? "" : " \"" + hook.name + "\"") +
           (hook.matcher.empty() ? "" : " for " + hook.matcher) + ": `" + hook.command + "`\n";
  }
  if (!programs.widening.empty()) out += "- settings that let more run without asking: " + programs.widening + "\n";
  if (!programs.policies.empty()) out += "- policy rules that let more run without asking:" + programs.policies + "\n";
  for (const auto& agent : programs.agents) {
    out += "- sub-agent \"" + agent.name + "\" (" + agent.path + ") with " + agent.tools + "\n";
  }
  for (const auto& skill : programs.skills) {
    out += "- agent skill \"" + skill.name + "\" (" + skill.path + "): its instructions reach the model\n";
  }
  return out;
}

ConsentOutcome askWorkspaceConsent(EditorClient& editor, ConsentStore& store, const ConsentQuestion& question,
                                   const CancelToken& cancel) {
  const WorkspacePrograms& programs = *question.programs;
  if (question.trustWorkspace) return ConsentOutcome::allowed;
  if (question.geminiTrust == FolderTrust::trusted) return ConsentOutcome::allowed;
  if (question.geminiTrust == FolderTrust::untrusted) return ConsentOutcome::refused;
  switch (store.lookup(question.workspace, programs.text)) {
    case Consent::allowed: return ConsentOutcome::allowed;
    case Consent::refused: return ConsentOutcome::refused;
    case Consent::unknown: break;
  }
  const std::string id = "workspace_consent";
  acp::ToolCall announce;
  announce.toolCallId = id;
  announce.title = programs.startsPrograms()   ? "Start the programs this workspace's settings define?"
                   : !programs.agents.empty()  ? "Allow the sub-agents this workspace defines? They can run programs."
                   : !programs.skills.empty() && programs.widening.empty() && programs.policies.empty()
                       ? "Give the model the agent skills this workspace defines?"
                   : programs.widening.empty() ? "Apply this workspace's policy rules that let more run without asking?"
                                               : "Apply this workspace's settings that let more run without asking?";
  announce.kind = acp::ToolKind::execute;
  announce.locations.push_back({programs.settingsPath, std::nullopt});
  editor.sendUpdate(question.sessionId, acp::SessionUpdate(announce));

  acp::RequestPermissionRequest ask;
  ask.sessionId = question.sessionId;
  ask.toolCall.toolCallId = id;
  ask.toolCall.title = announce.title;
  ask.toolCall.kind = announce.kind;
  ask.toolCall.status = acp::ToolCallStatus::pending;
  ask.toolCall.locations = announce.locations;
  ask.toolCall.content = std::vector<acp::ToolCallContent>{
      text(describePrograms(programs) +
           "They act with your permissions. Allow only if you trust this repository; a changed configuration asks again.")};
  using Kind = acp::PermissionOptionKind;
  ask.options = {{kAllowAlways, "Allow, and remember for this configuration", Kind::allow_always},
                 {kAllowOnce, "Allow for this session", Kind::allow_once},
                 {kRejectOnce, "Not now", Kind::reject_once},
                 {kRejectAlways, "Never for this configuration", Kind::reject_always}};
  auto answer = editor.requestPermission(ask, cancel);
  if (cancel.cancelled() || (answer && answer->cancelled)) {
    finish(editor, question.sessionId, id, false);
    return ConsentOutcome::cancelled;
  }
  if (!answer) {
    log(LogLevel::warn, "workspace programs not started: permission could not be obtained: " + answer.error().message);
    finish(editor, question.sessionId, id, false);
    return ConsentOutcome::refused;
  }
  const std::string& chosen = answer->optionId;
  bool allowed = chosen == kAllowAlways || chosen == kAllowOnce;
  Consent remembered = chosen == kAllowAlways ? Consent::allowed : chosen == kRejectAlways ? Consent::refused : Consent::unknown;
  if (auto status = store.record(question.workspace, programs.text, remembered); !status) {
    log(LogLevel::warn, "workspace consent not remembered: " + status.error().message);
  }
  finish(editor, question.sessionId, id, allowed);
  return allowed ? ConsentOutcome::allowed : ConsentOutcome::refused;
}

}  // namespace lathe::engine
