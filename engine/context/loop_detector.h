// Loop detection for one session, as turn hooks: the same tool call (name and
// arguments) five times in a row or a short cycle of calls repeated five
// times; and the same 50-character piece of streamed text ten times close
// together within one reply (outside code blocks, tables, lists, headings and
// quotes). The first detection in a prompt tells the model plainly that it is
// looping (the repeated call is not run; a looping reply is cut short and asked
// again); the second ends the turn with max_turn_requests and a message to the
// person saying what repeated. A third check asks the model itself, once a
// prompt has made 30 model requests and then at an interval that shortens as
// its suspicion grows, whether the recent history is going round in circles
// (told as text added to the history; the second strike ends the turn).
// State lives for one prompt. Used on the turn's thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/session/turn_hooks.h"

namespace lathe::engine {

// Finds a 50-character piece repeated 10 times close together in a stream of
// text; structure-aware (code fences are skipped, lists/tables/headings reset).
class ContentLoopScanner {
 public:
  // Adds streamed text; returns the repeated piece once a loop shows.
  std::optional<std::string> add(std::string_view text);
  void reset();

 private:
  enum class LineKind { unknown, prose, structure, fence };
  std::optional<std::string> feedLine(std::string_view line, bool complete);
  std::optional<std::string> scan(std::string_view prose);
  void clearWindow();

  std::string line_;        // the current line so far
  LineKind lineKind_ = LineKind::unknown;
  bool inFence_ = false;
  std::string window_;      // recent prose
  uint64_t windowStart_ = 0;  // absolute offset of window_[0]
  std::unordered_map<std::string, std::deque<uint64_t>> seen_;  // piece -> absolute end offsets
};

// What the model-based check needs: the provider and the session's model.
struct LoopCheckModel {
  std::shared_ptr<ModelProvider> provider;
  std::function<std::string()> model;
};

// The check's verdict, read from the model's JSON answer.
struct LoopJudgement {
  bool looping = false;
  double confidence = 0;
  std::string analysis;
};
std::optional<LoopJudgement> parseLoopJudgement(const std::string& text);

class LoopDetector final : public TurnHooks {
 public:
  // Without a model, only the tool-call and text checks run. A first
  // detection is told to the person through `notify` too (a live notice).
  explicit LoopDetector(LoopCheckModel checker = {}, std::function<void(const acp::Notice&)> notify = nullptr)
      : checker_(std::move(checker)), notify_(std::move(notify)) {}

  std::optional<TurnStop> onPrompt(const std::vector<Part>&, History&, const CancelToken&) override;
  std::optional<TurnStop> beforeModelRequest(History&, const CancelToken&) override;
  std::optional<TurnStop> onChunk(const ModelChunk& chunk) override;
  CallVerdict onFunctionCall(const FunctionCall& call) override;

  // What the model is told on a first detection (detail: what repeated).
  static std::string feedback(const std::string& detail);

 private:
  std::optional<std::string> repeatedCalls() const;
  // The model-based check of the recent history; a detail when it says looping.
  std::optional<std::string> askModel(const History& history, const CancelToken& cancel);
  // The first strike: the model is told, and so is the person.
  std::string firstStrike(const std::string& detail);

  LoopCheckModel checker_;
  std::function<void(const acp::Notice&)> notify_;
  int requests_ = 0;       // model requests of this prompt so far
  int nextCheckAt_ = 0;    // the request count at which the model is asked next
  std::string userRequest_;  // the prompt, for the check

  std::vector<std::string> calls_;  // name:args of this prompt's calls, in order
  ContentLoopScanner content_;
  int strikes_ = 0;
};

}  // namespace lathe::engine
