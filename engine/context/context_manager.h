// Context management of one session, as turn hooks: counts the tokens of the
// history (the model's reported count plus an estimate of what was added
// since) against the model's context window; compresses the history at the
// configured share of it, and on demand (the /compress command); holds every tool response to a
// budget; shortens old tool outputs as the history grows (recent ones stay
// whole); refuses to send what cannot fit; and when the API still refuses a
// request for its size, ends the turn with a clear message and shortens the
// outputs so the next prompt works. The person is told each time. Used on the
// turn's thread only; the session outlives it.
#pragma once

#include <atomic>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/context/output_budget.h"
#include "engine/session/session.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class ContextManager final : public TurnHooks {
 public:
  explicit ContextManager(Session& session);

  std::optional<TurnStop> onPrompt(const std::vector<Part>& parts, History& history, const CancelToken& cancel) override;
  std::optional<TurnStop> beforeModelRequest(History& history, const CancelToken& cancel) override;
  std::optional<TurnStop> onChunk(const ModelChunk& chunk) override;
  void onToolResponse(FunctionResponse& response, size_t roundSize) override;
  std::optional<TurnStop> onModelError(const Error& error, History& history) override;

  // Compresses now, whatever the size (the /compress command): the note
  // for the person, or cancelled.
  TurnStop compressNow(History& history, const CancelToken& cancel);

  // The history's tokens now: the last reported count plus an estimate of the rest.
  int64_t countTokens(const History& history);
  // Whether an API error says the request was too large for the model.
  static bool isSizeRefusal(const Error& error);

 private:
  struct Mark {
    size_t contents = 0;
    size_t lastParts = 0;
    uint64_t revision = 0;
  };
  struct Outcome {
    bool changed = false;
    int64_t before = 0;
    int64_t after = 0;
    std::string note;  // for the person
    bool idle = false;  // there was nothing to compress: nobody needs telling unless they asked
    bool announced = false;  // shown as a compaction (compaction_update): the note is not needed
  };
  // A summary compaction as the editor sees it, where it shows them
  // (session.compaction): started, then its summary and its end.
  class Compaction {
   public:
    explicit Compaction(Session& session);
    void completed(const std::string& summary);
    void failed(const std::string& why, bool cancelled);
    bool shown() const { return !id_.empty(); }

   private:
    Session& session_;
    std::string id_;  // empty: the editor does not show compactions
  };
  static Mark markOf(const History& history);
  // The model's own count of these contents, when its provider can count.
  std::optional<int64_t> modelCount(const std::vector<Content>& contents);
  int64_t limit() const;
  Outcome compress(History& history, const CancelToken& cancel, bool onDemand);
  // Shortens tool outputs older than the newest `recentChars` of them (the
  // newest one always kept whole with keepNewest); the count of those changed.
  int shortenOldOutputs(History& history, int64_t recentChars, bool keepNewest = false);
  // Whether /compress could make the history smaller now (a part to summarise).
  static bool compressWouldHelp(const History& history);
  // Shortens every oversized function-call argument; the count of calls changed.
  int shortenCallArguments(History& history);
  void tell(const std::string& text);
  // Replaces the long output of a tool set to be summarised with a model-written summary.
  void summarizeResponse(FunctionResponse& response);

  Session& session_;
  const ContextOptions& options_;
  BudgetPlace place_;
  bool haveBase_ = false;
  Mark base_;               // the history the count below is for
  int64_t baseTokens_ = 0;
  Mark sent_;               // the history of the request in flight
  int64_t lastCount_ = 0;   // tokens of the last request sent
  bool compressionInflated_ = false;  // automatic compression then only shortens outputs
  std::atomic<int64_t> untrimmedChars_ = 0;  // tool output chars added since the last shortening pass
  History::Checkpoint turnStart_;     // the history before this turn's prompt
  CancelToken turnCancel_;            // this turn's, for the summary calls
  bool firstRequest_ = false;         // the next request is the turn's first
  bool prefixReplaced_ = false;       // compressed since turnStart_ was taken
};

}  // namespace lathe::engine
