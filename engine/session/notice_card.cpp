// Notices, or cards where the editor has no notices.
#include "engine/session/notice_card.h"

#include <atomic>

namespace lathe::engine {
namespace {

// Card ids unique in the process, so in every session; never recorded, so
// never met again on a replay.
std::string nextCardId() {
  static std::atomic<uint64_t> cards{0};
  return "lathe_notice_" + std::to_string(++cards);
}

void showCard(EditorClient& editor, const std::string& sessionId, const acp::Notice& notice) {
  const std::string id = nextCardId();
  acp::ToolCall card;
  card.toolCallId = id;
  card.title = notice.title;
  editor.sendUpdate(sessionId, acp::SessionUpdate(card));
  acp::ToolCallUpdate done;
  done.toolCallId = id;
  done.status = acp::ToolCallStatus::failed;
  acp::ToolCallContent text;
  text.text = notice.description.empty() ? notice.title : notice.description;
  done.content = std::vector<acp::ToolCallContent>{std::move(text)};
  editor.sendUpdate(sessionId, acp::SessionUpdate(std::move(done)));
}

}  // namespace

void showNotice(EditorClient& editor, const std::string& sessionId, const acp::Notice& notice) {
  if (editor.capabilities().notices) return editor.sendUpdate(sessionId, notice);
  showCard(editor, sessionId, notice);
}

}  // namespace lathe::engine
