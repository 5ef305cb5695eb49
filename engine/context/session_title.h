// A session's title, written once by a one-shot model call after its first
// exchange: at most 80 characters, from a window of the conversation (the first
// and last ten messages, each cut to 500 characters), within a time limit. The
// call runs after the turn's answer (a session follow-up), so the first prompt
// is never kept waiting for it; the title is shown to the editor as
// session_info_update when it comes. A failed attempt is retried after a later
// turn, up to three attempts.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "engine/session/session.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

// The conversation window the title is written from ("User: ..." / "Assistant: ...").
std::string titleWindow(const std::vector<Content>& contents);
// One line of at most 80 characters: whitespace collapsed, quotes and a
// "Title:" label stripped. Empty when nothing usable is left.
std::string cleanTitle(const std::string& text);

class TitleWriter final : public TurnHooks {
 public:
  explicit TitleWriter(Session& session, std::chrono::milliseconds timeout = std::chrono::seconds(5))
      : session_(session), timeout_(timeout) {}

  void afterTurn(const History& history, const CancelToken& cancel) override;

 private:
  // The one-shot call, on the session's follow-up task.
  void writeTitle(const std::vector<Content>& ask, const CancelToken& cancel);

  Session& session_;
  std::chrono::milliseconds timeout_;
  std::atomic<bool> titled_ = false;  // set by the follow-up
  int attempts_ = 0;                  // the turn's thread only
};

}  // namespace lathe::engine
