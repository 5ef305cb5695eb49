// A sub-agent's editor.
#include "engine/subagents/child_editor.h"

namespace lathe::engine {
namespace {

acp::ToolCallContent textContent(std::string text) {
  acp::ToolCallContent content;
  content.text = std::move(text);
  return content;
}

acp::SubagentUpdate stateOf(const std::string& childId, acp::SubagentState::Kind kind) {
  acp::SubagentUpdate update;
  update.sessionId = childId;
  update.state = acp::SubagentState{kind, std::nullopt, std::nullopt};
  return update;
}

}  // namespace

void ChildEditor::sendUpdate(const std::string&, const acp::SessionUpdate& update) {
  std::string shown;
  std::optional<acp::ToolCallUpdate> card;
  {
    std::lock_guard lock(mutex_);
    const bool changed = progress_.apply(update);
    if (changed && !setup_.exposed) shown = progress_.render();
    // A call the person was asked about is a card of the parent's: it ends there too.
    auto* change = std::get_if<acp::ToolCallUpdate>(&update);
    if (change && change->status && askedOnParent_.contains(change->toolCallId)) {
      card = *change;
      card->toolCallId = parentCardId(change->toolCallId);
    }
  }
  if (setup_.exposed) {
    setup_.editor->sendUpdate(setup_.childId, update);
    setup_.record(setup_.childId, update);
    return;
  }
  if (!shown.empty() && setup_.progress) setup_.progress(shown);
  if (card) return setup_.toParent(acp::SessionUpdate(std::move(*card)));
  showNotice(update);
}

// The child's notice cards (a retry, a note of its context management) are the
// parent's to show, and never recorded, as a session's own are not.
void ChildEditor::showNotice(const acp::SessionUpdate& update) {
  if (auto* notice = std::get_if<acp::ToolCall>(&update); notice && !notice->toolCallId.starts_with("call_")) {
    acp::ToolCall shown = *notice;
    shown.toolCallId = parentCardId(notice->toolCallId);
    shown.title = "[" + setup_.agentTitle + "] " + shown.title;
    setup_.editor->sendUpdate(setup_.parentId, shown);
  } else if (auto* change = std::get_if<acp::ToolCallUpdate>(&update); change && !change->toolCallId.starts_with("call_")) {
    acp::ToolCallUpdate shown = *change;
    shown.toolCallId = parentCardId(change->toolCallId);
    setup_.editor->sendUpdate(setup_.parentId, acp::SessionUpdate(std::move(shown)));
  }
}

Result<acp::RequestPermissionResponse> ChildEditor::requestPermission(const acp::RequestPermissionRequest& request,
                                                                      const CancelToken& cancel) {
  acp::RequestPermissionRequest ask = request;
  ask.toolCall.title = "[" + setup_.agentTitle + "] " + ask.toolCall.title.value_or("");
  if (!ask.toolCall.content) ask.toolCall.content.emplace();
  ask.toolCall.content->push_back(
      textContent("Asked by the sub-agent " + setup_.agentTitle + ", working on: " + setup_.task));
  if (setup_.clock) setup_.clock->pause();
  auto answer = setup_.exposed ? askAsSession(std::move(ask), cancel) : askOnParent(std::move(ask), cancel);
  if (setup_.clock) setup_.clock->resume();
  return answer;
}

Result<acp::RequestPermissionResponse> ChildEditor::askAsSession(acp::RequestPermissionRequest ask,
                                                                 const CancelToken& cancel) {
  ask.sessionId = setup_.childId;
  setup_.toParent(stateOf(setup_.childId, acp::SubagentState::Kind::requires_action));
  setup_.record(setup_.childId, ask.toolCall);  // what the question showed (an edit's diff), for a replay
  auto answer = setup_.editor->requestPermission(ask, cancel);
  setup_.toParent(stateOf(setup_.childId, acp::SubagentState::Kind::running));
  return answer;
}

Result<acp::RequestPermissionResponse> ChildEditor::askOnParent(acp::RequestPermissionRequest ask,
                                                                const CancelToken& cancel) {
  const std::string childCallId = ask.toolCall.toolCallId;
  acp::ToolCall card;
  card.toolCallId = parentCardId(childCallId);
  card.title = *ask.toolCall.title;
  card.kind = ask.toolCall.kind.value_or(acp::ToolKind::other);
  card.locations = ask.toolCall.locations.value_or(std::vector<acp::ToolCallLocation>{});
  card.rawInput = ask.toolCall.rawInput;
  setup_.toParent(card);
  ask.sessionId = setup_.parentId;
  ask.toolCall.toolCallId = card.toolCallId;
  std::string shown;
  {
    std::lock_guard lock(mutex_);
    askedOnParent_.insert(childCallId);
    progress_.asking(childCallId, true);
    shown = progress_.render();
  }
  if (setup_.progress) setup_.progress(shown);
  auto answer = setup_.editor->requestPermission(ask, cancel);
  {
    std::lock_guard lock(mutex_);
    progress_.asking(childCallId, false);
  }
  return answer;
}

std::string ChildEditor::lastMessage() const {
  std::lock_guard lock(mutex_);
  return progress_.lastMessage();
}

size_t ChildEditor::steps() const {
  std::lock_guard lock(mutex_);
  return progress_.steps();
}

}  // namespace lathe::engine
