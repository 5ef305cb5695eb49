// The question before installing an extension.
#include "engine/agent/install_question.h"

#include "engine/scheduler/call_content.h"
#include "engine/session/message_id.h"

namespace lathe::engine {
namespace {

constexpr const char* kInstall = "extension_install";
constexpr const char* kRefuse = "extension_refuse";

}  // namespace

bool askToInstall(EditorClient& editor, const std::string& sessionId, const std::string& text, const CancelToken& cancel) {
  acp::ToolCall announce;
  announce.toolCallId = randomId("extension_install_");
  announce.title = "Install this extension?";
  announce.kind = acp::ToolKind::execute;
  editor.sendUpdate(sessionId, acp::SessionUpdate(announce));

  acp::RequestPermissionRequest ask;
  ask.sessionId = sessionId;
  ask.toolCall.toolCallId = announce.toolCallId;
  ask.toolCall.title = announce.title;
  ask.toolCall.kind = announce.kind;
  ask.toolCall.status = acp::ToolCallStatus::pending;
  ask.toolCall.content = std::vector<acp::ToolCallContent>{textContent(text)};
  ask.options = {{kInstall, "Install", acp::PermissionOptionKind::allow_once},
                 {kRefuse, "Do not install", acp::PermissionOptionKind::reject_once}};
  auto answer = editor.requestPermission(ask, cancel);
  const bool yes = !cancel.cancelled() && answer && !answer->cancelled && answer->optionId == kInstall;

  acp::ToolCallUpdate done;
  done.toolCallId = announce.toolCallId;
  done.status = yes ? acp::ToolCallStatus::completed : acp::ToolCallStatus::failed;
  done.content = std::vector<acp::ToolCallContent>{textContent(yes ? "Installing." : "Not installed.")};
  editor.sendUpdate(sessionId, acp::SessionUpdate(std::move(done)));
  return yes;
}

}  // namespace lathe::engine
