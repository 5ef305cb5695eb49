// A sub-agent's progress as text.
#include "engine/subagents/child_progress.h"

namespace lathe::engine {
namespace {

constexpr size_t kRecentCalls = 5;
constexpr size_t kMessageChars = 400;

// The tool calls of the child's own scheduler, not its notice cards.
bool isStep(const std::string& id) { return id.starts_with("call_"); }

const char* mark(acp::ToolCallStatus status, bool asking) {
  if (asking) return "⏸";
  switch (status) {
    case acp::ToolCallStatus::completed: return "✓";
    case acp::ToolCallStatus::failed: return "✗";
    default: return "…";
  }
}

// The end of a long message, cut at a character boundary.
std::string tail(const std::string& text) {
  if (text.size() <= kMessageChars) return text;
  size_t from = text.size() - kMessageChars;
  while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) ++from;
  return "…" + text.substr(from);
}

}  // namespace

ChildProgress::Call* ChildProgress::find(const std::string& id) {
  for (auto& call : recent_) {
    if (call.id == id) return &call;
  }
  return nullptr;
}

bool ChildProgress::apply(const acp::SessionUpdate& update) {
  if (auto* chunk = std::get_if<acp::MessageChunk>(&update)) {
    if (chunk->role != acp::MessageChunk::Role::agent) return false;
    if (!messageOpen_) message_.clear();
    messageOpen_ = true;
    message_ += chunk->text;
    return true;
  }
  if (auto* call = std::get_if<acp::ToolCall>(&update)) {
    if (!isStep(call->toolCallId)) return false;
    messageOpen_ = false;
    ++steps_;
    recent_.push_back({call->toolCallId, call->title, call->status, false});
    if (recent_.size() > kRecentCalls) recent_.erase(recent_.begin());
    return true;
  }
  if (auto* change = std::get_if<acp::ToolCallUpdate>(&update)) {
    Call* known = find(change->toolCallId);
    if (!known) return false;
    if (change->title) known->title = *change->title;
    if (change->status) known->status = *change->status;
    return change->title || change->status;
  }
  return false;
}

void ChildProgress::asking(const std::string& toolCallId, bool asking) {
  if (Call* known = find(toolCallId)) known->asking = asking;
}

std::string ChildProgress::render() const {
  std::string out = "**" + title_ + "** · " + std::to_string(steps_) + (steps_ == 1 ? " step" : " steps");
  if (steps_ > recent_.size()) out += " (the last " + std::to_string(recent_.size()) + " below)";
  out += "\n";
  for (const auto& call : recent_) {
    out += std::string("\n- ") + mark(call.status, call.asking) + " " + call.title;
    if (call.asking) out += " (waiting for your answer)";
  }
  if (!message_.empty()) {
    std::string quoted = tail(message_);
    for (size_t at = 0; (at = quoted.find('\n', at)) != std::string::npos; at += 3) quoted.replace(at, 1, "\n> ");
    out += "\n\n> " + quoted;
  }
  return out;
}

}  // namespace lathe::engine
