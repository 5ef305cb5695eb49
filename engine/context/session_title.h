// A session's title, written once by a one-shot model call after its first
// exchange: at most 80 characters, from a window of the conversation (the first
// and last ten messages, each cut to 500 characters), within a time limit. It
// is shown to the editor as session_info_update. A failed attempt is retried
// after a later turn, up to three attempts. Used on the turn's thread only.
#pragma once

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
  Session& session_;
  std::chrono::milliseconds timeout_;
  bool titled_ = false;
  int attempts_ = 0;
};

}  // namespace lathe::engine
