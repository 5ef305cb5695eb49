// Notice cards.
#include "engine/session/notice_card.h"

namespace lathe::engine {

void showNoticeCard(EditorClient& editor, const std::string& sessionId, const std::string& cardId,
                    const std::string& title, const std::string& message) {
  acp::ToolCall notice;
  notice.toolCallId = cardId;
  notice.title = title;
  editor.sendUpdate(sessionId, acp::SessionUpdate(notice));
  acp::ToolCallUpdate done;
  done.toolCallId = cardId;
  done.status = acp::ToolCallStatus::failed;
  acp::ToolCallContent text;
  text.text = message;
  done.content = std::vector<acp::ToolCallContent>{std::move(text)};
  editor.sendUpdate(sessionId, acp::SessionUpdate(std::move(done)));
}

}  // namespace lathe::engine
