// The question before a rewind or a redo writes files.
#include "engine/rewind/restore_question.h"

#include "engine/scheduler/call_content.h"
#include "engine/session/message_id.h"
#include "engine/session/session.h"

namespace lathe::engine {
namespace {

constexpr const char* kRestore = "rewind_restore";
constexpr const char* kOverwrite = "rewind_overwrite";
constexpr const char* kKeep = "rewind_cancel";

// What the card shows: a line per file, then each text file's diff (now -> after).
std::vector<acp::ToolCallContent> cardOf(Session& session, const std::vector<FileNow>& files, bool& elsewhere) {
  tools::ChangeRecorder& blobs = *session.changes();
  const tools::Workspace& workspace = *session.sharedWorkspace();
  std::vector<acp::ToolCallContent> content;
  std::string summary;
  for (const auto& file : files) {
    if (file.done) continue;
    const std::string name = workspace.relative(file.step.path);
    if (file.changedElsewhere) {
      elsewhere = true;
      summary += "\n- " + name + " was changed since, not by these prompts: it is left as it is unless you choose to overwrite it.";
    } else {
      summary += "\n- " + name + (file.step.target.empty() ? ": removed (the prompt created it)"
                                  : file.current.empty() ? ": made again (the prompt removed it)"
                                                         : ": put back as it was");
    }
    if (file.binary || blobs.binary(file.step.path, file.current)) continue;
    tools::FileDiff diff{file.step.path, std::nullopt, ""};
    if (!file.current.empty()) {
      if (auto text = blobs.read(file.step.path, file.current)) diff.oldText = std::move(text).value();
    }
    if (!file.step.target.empty()) {
      if (auto text = blobs.read(file.step.path, file.step.target)) diff.newText = std::move(text).value();
    }
    content.push_back(diffContent(std::move(diff)));
  }
  content.insert(content.begin(), textContent("These files change:" + summary));
  return content;
}

}  // namespace

std::optional<bool> askToRestore(Session& session, EditorClient& editor, const std::string& title,
                                 const std::vector<FileNow>& files, const CancelToken& cancel) {
  bool elsewhere = false;
  std::vector<acp::ToolCallContent> content = cardOf(session, files, elsewhere);
  acp::ToolCall card;
  card.toolCallId = randomId("rewind_");
  card.title = title;
  card.kind = acp::ToolKind::edit;
  card.content = content;
  session.sendUpdate(card);
  acp::RequestPermissionRequest ask;
  ask.sessionId = session.id();
  ask.toolCall.toolCallId = card.toolCallId;
  ask.toolCall.title = title;
  ask.toolCall.kind = acp::ToolKind::edit;
  ask.toolCall.status = acp::ToolCallStatus::pending;
  ask.toolCall.content = std::move(content);
  ask.options = {{kRestore, elsewhere ? "Restore, leaving the files changed since alone" : "Restore", acp::PermissionOptionKind::allow_once}};
  if (elsewhere) ask.options.push_back({kOverwrite, "Restore them all, overwriting the changes since", acp::PermissionOptionKind::allow_once});
  ask.options.push_back({kKeep, "Cancel", acp::PermissionOptionKind::reject_once});
  auto answer = editor.requestPermission(ask, cancel);
  std::optional<bool> out;
  if (!cancel.cancelled() && answer && !answer->cancelled && answer->optionId != kKeep) out = answer->optionId == kOverwrite;

  acp::ToolCallUpdate done;
  done.toolCallId = card.toolCallId;
  done.status = out ? acp::ToolCallStatus::completed : acp::ToolCallStatus::failed;
  session.sendUpdate(done);
  return out;
}

}  // namespace lathe::engine
