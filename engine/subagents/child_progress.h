// What the parent's tool call shows of a sub-agent while it works, for an
// editor that does not show child sessions: how many steps it took, its
// recent tool calls with their state, and its last message, as Markdown
// built from the child's own session updates. Not thread-safe (the child's
// editor guards it).
#pragma once

#include <string>
#include <vector>

#include "protocol/acp/updates.h"

namespace lathe::engine {

class ChildProgress {
 public:
  explicit ChildProgress(std::string title) : title_(std::move(title)) {}

  // Takes one of the child's updates; true when what is shown changed.
  bool apply(const acp::SessionUpdate& update);
  // The person is asked about the call (or no longer is).
  void asking(const std::string& toolCallId, bool asking);
  std::string render() const;
  size_t steps() const { return steps_; }
  // The child's last message so far (its answer when it ends without complete_task).
  const std::string& lastMessage() const { return message_; }

 private:
  struct Call {
    std::string id;
    std::string title;
    acp::ToolCallStatus status = acp::ToolCallStatus::pending;
    bool asking = false;
  };
  Call* find(const std::string& id);

  std::string title_;
  std::vector<Call> recent_;  // the newest few
  size_t steps_ = 0;
  std::string message_;
  bool messageOpen_ = false;  // the next agent chunk continues message_
};

}  // namespace lathe::engine
