// Token accounting, compression, output budgets and size-refusal recovery.
#include "engine/context/context_manager.h"

#include <algorithm>
#include <span>
#include <utility>

#include "engine/context/call_arguments.h"
#include "engine/context/compression.h"
#include "engine/context/output_summary.h"
#include "engine/context/token_estimate.h"
#include "engine/session/message_id.h"
#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

constexpr double kKeepShare = 0.3;          // of the history kept whole by compression
constexpr int64_t kMinResponseChars = 2000;  // a response budget never goes below this
constexpr int64_t kShortKeepChars = 1000;   // head and tail of a shortened old output
constexpr int64_t kCharsPerToken = 3;        // cautious: real text is nearer 4
constexpr int64_t kMinSummarizedChars = 2000;       // shorter outputs are never summarised
constexpr int64_t kMaxSummaryInputChars = 400'000;  // longer ones are cut (head, tail, errors) first

std::string thousands(int64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Media is what an estimate cannot size: Gemini CLI asks the model's count
// endpoint only then, and so does Lathe (text is estimated, no round trip).
template <class It>
bool hasMedia(It first, It last) {
  for (; first != last; ++first) {
    for (const Part& part : first->parts) {
      if (part.inlineData) return true;
    }
  }
  return false;
}

}  // namespace

ContextManager::Compaction::Compaction(Session& session) : session_(session) {
  if (!session.editorCapabilities().compaction) return;
  id_ = randomId("compaction_");
  session_.sendUpdate(acp::CompactionUpdate{id_, acp::CompactionStatus::in_progress, std::nullopt});
}

void ContextManager::Compaction::completed(const std::string& summary) {
  if (!shown()) return;
  session_.sendUpdate(acp::CompactionSummaryChunk{id_, summary});
  session_.sendUpdate(acp::CompactionUpdate{id_, acp::CompactionStatus::completed, std::nullopt});
}

void ContextManager::Compaction::failed(const std::string& why, bool cancelled) {
  if (!shown()) return;
  session_.sendUpdate(acp::CompactionUpdate{
      id_, cancelled ? acp::CompactionStatus::cancelled : acp::CompactionStatus::failed, why});
}

ContextManager::ContextManager(Session& session)
    : session_(session),
      options_(session.config().context),
      place_{session.config().dataDir.empty() ? "" : session.config().dataDir + "/" + session.id(), "tool"} {}

ContextManager::Mark ContextManager::markOf(const History& history) {
  return {history.size(), history.empty() ? 0 : history.contents().back().parts.size(), history.revision()};
}

int64_t ContextManager::limit() const { return contextWindowOf(session_.config(), session_.model()); }

void ContextManager::tell(const std::string& text) {
  session_.sendUpdate(acp::MessageChunk{acp::MessageChunk::Role::agent, text});
}

int64_t ContextManager::countTokens(const History& history) {
  const auto& contents = history.contents();
  const Mark now = markOf(history);
  const bool stale = !haveBase_ || now.revision != base_.revision || now.contents < base_.contents ||
                     (now.contents == base_.contents && now.lastParts < base_.lastParts);
  if (stale) {
    baseTokens_ = estimateTokens(contents);
    if (hasMedia(contents.begin(), contents.end())) baseTokens_ = modelCount(contents).value_or(baseTokens_);
  } else {
    // Only what was appended since the base is counted: the cost of a count
    // does not grow with the history.
    const auto added = contents.begin() + static_cast<std::ptrdiff_t>(base_.contents);
    std::span<const Part> grown;
    if (base_.contents > 0) grown = std::span(contents[base_.contents - 1].parts).subspan(base_.lastParts);
    int64_t tokens = 0;
    bool media = hasMedia(added, contents.end());
    for (const Part& part : grown) {
      tokens += estimateTokens(part);
      media = media || part.inlineData.has_value();
    }
    for (auto it = added; it != contents.end(); ++it) tokens += estimateTokens(*it);
    if (media) {
      std::vector<Content> slice;
      if (!grown.empty()) slice.push_back(Content{contents[base_.contents - 1].role, {grown.begin(), grown.end()}});
      slice.insert(slice.end(), added, contents.end());
      tokens = modelCount(slice).value_or(tokens);
    }
    baseTokens_ += tokens;
  }
  base_ = now;
  haveBase_ = true;
  return baseTokens_;
}

std::optional<int64_t> ContextManager::modelCount(const std::vector<Content>& contents) {
  const auto& provider = session_.provider();
  if (!provider) return std::nullopt;
  ModelRequest request;
  request.model = session_.model();
  request.contents = &contents;
  auto count = provider->countTokens(request, turnCancel_);
  if (!count) return std::nullopt;
  if (!*count) {
    log(LogLevel::debug, "token count failed, estimating instead: " + count->error().message);
    return std::nullopt;
  }
  return **count;
}

ContextManager::Outcome ContextManager::compress(History& history, const CancelToken& cancel, bool onDemand) {
  session_.beforeCompression(onDemand, cancel);  // the person's PreCompress hooks
  Outcome outcome;
  const auto& contents = history.contents();
  outcome.before = estimateTokens(contents);
  outcome.after = outcome.before;
  const size_t split = findCompressionSplit(contents, kKeepShare);
  if (split == 0 || (split == 1 && isSnapshot(contents[0]))) {
    // Too short to summarise, yet it may be too large to send (a huge call
    // or output): the person asked, so what can be shortened is.
    const int changed = onDemand ? shortenOldOutputs(history, 0) + shortenCallArguments(history) : 0;
    if (changed == 0) {
      outcome.idle = true;
      outcome.note = "Nothing to compress yet: the conversation is too short.";
      return outcome;
    }
    outcome.changed = true;
    outcome.after = estimateTokens(history.contents());
    outcome.note = "The conversation is too short to summarise; shortened " + std::to_string(changed) +
                   " large tool outputs and call arguments instead (about " + thousands(outcome.before) + " → " +
                   thousands(outcome.after) + " tokens).";
    return outcome;
  }
  if (!onDemand && compressionInflated_) {
    // A snapshot did not help before; shortening old outputs is all that is left.
    outcome.changed = shortenOldOutputs(history, options_.recentOutputChars / 4) > 0;
    outcome.after = estimateTokens(history.contents());
    return outcome;
  }
  std::vector<Content> older(contents.begin(), contents.begin() + static_cast<std::ptrdiff_t>(split));
  std::vector<Content> storage;
  Compaction compaction(session_);
  outcome.announced = compaction.shown();
  auto reply = session_.provider()->generate(snapshotRequest(session_.model(), older, storage), cancel);
  std::string snapshot = reply ? snapshotText(*reply) : std::string();
  if (snapshot.empty()) {
    outcome.note = "Could not compress the conversation: " +
                   (reply ? std::string("the model wrote no snapshot.") : reply.error().message);
    compaction.failed(outcome.note, cancel.cancelled());
    return outcome;
  }
  std::vector<Content> replacement = snapshotContents(snapshot);
  int64_t kept = 0;
  for (size_t i = split; i < contents.size(); ++i) kept += estimateTokens(contents[i]);
  const int64_t after = estimateTokens(replacement) + kept;
  if (after >= outcome.before) {
    compressionInflated_ = true;
    const int changed = shortenOldOutputs(history, options_.recentOutputChars / 4);
    outcome.changed = changed > 0;
    outcome.after = estimateTokens(history.contents());
    outcome.note = "Compression would not have made the conversation smaller; " +
                   (changed > 0 ? "shortened " + std::to_string(changed) + " old tool outputs instead (about " +
                                      thousands(outcome.before) + " → " + thousands(outcome.after) + " tokens)."
                                : std::string("kept it as it was."));
    compaction.failed(outcome.note, false);
    return outcome;
  }
  if (auto status = history.replacePrefix(split, std::move(replacement)); !status) {
    outcome.note = "Could not compress the conversation: " + status.error().message;
    compaction.failed(outcome.note, false);
    return outcome;
  }
  compressionInflated_ = false;
  prefixReplaced_ = true;  // the turn's checkpoint no longer fits this history
  outcome.changed = true;
  outcome.after = after;
  outcome.note = "Compressed the conversation: about " + thousands(outcome.before) + " → " + thousands(after) +
                 " tokens (older messages replaced by a summary).";
  compaction.completed(snapshot);
  return outcome;
}

bool ContextManager::compressWouldHelp(const History& history) {
  // Everything that could be shortened already was: only a summary can help.
  const auto& contents = history.contents();
  const size_t split = findCompressionSplit(contents, kKeepShare);
  return split > 1 || (split == 1 && !isSnapshot(contents[0]));
}

int ContextManager::shortenCallArguments(History& history) {
  int changed = 0;
  history.rewriteCallArguments([&](json::Raw& args) {
    auto shorter = engine::shortenCallArguments(args, kShortKeepChars);
    if (!shorter) return History::Edit::kept;
    args = std::move(*shorter);
    ++changed;
    return History::Edit::changed;
  });
  return changed;
}

int ContextManager::shortenOldOutputs(History& history, int64_t recentChars, bool keepNewest) {
  int64_t seen = 0;
  int changed = 0;
  bool newest = true;
  history.rewriteResponses([&](json::Raw& response) {
    const int64_t size = static_cast<int64_t>(response.text.size());
    const bool first = std::exchange(newest, false);
    if (seen + size <= recentChars || (first && keepNewest)) {
      seen += size;
      return History::Edit::kept;
    }
    seen = recentChars + 1;  // everything older is shortened
    auto shorter = shortenResponse(response, kShortKeepChars, place_);
    if (!shorter) return History::Edit::kept;
    response = std::move(*shorter);
    ++changed;
    return History::Edit::changed;
  });
  untrimmedChars_ = std::min(seen, recentChars);
  return changed;
}

std::optional<TurnStop> ContextManager::onPrompt(const std::vector<Part>&, History& history, const CancelToken&) {
  turnStart_ = history.checkpoint();
  firstRequest_ = true;
  prefixReplaced_ = false;
  return std::nullopt;
}

TurnStop ContextManager::compressNow(History& history, const CancelToken& cancel) {
  if (!history.pendingCalls().empty()) return TurnStop{acp::StopReason::end_turn, "Cannot compress in the middle of a tool call."};
  Outcome outcome = compress(history, cancel, true);
  if (cancel.cancelled()) return TurnStop{acp::StopReason::cancelled, ""};
  if (outcome.changed) {
    // The editor's context meter follows at once, not at the next reply.
    session_.sendUpdate(acp::UsageUpdate{countTokens(history), limit(), session_.cost()});
  }
  return TurnStop{acp::StopReason::end_turn, outcome.announced ? "" : outcome.note};
}

std::optional<TurnStop> ContextManager::beforeModelRequest(History& history, const CancelToken& cancel) {
  turnCancel_ = cancel;
  const int64_t window = limit();
  int64_t tokens = countTokens(history);
  if (static_cast<double>(tokens) >= options_.compressionThreshold * static_cast<double>(window)) {
    Outcome outcome = compress(history, cancel, false);
    if (!outcome.note.empty() && !outcome.idle && !outcome.announced) tell("\n\n[" + outcome.note + "]\n\n");
    if (cancel.cancelled()) return std::nullopt;  // the session ends the turn
    tokens = countTokens(history);
  }
  if (untrimmedChars_ > 2 * options_.recentOutputChars) {
    shortenOldOutputs(history, options_.recentOutputChars, true);
    tokens = countTokens(history);
  }
  if (tokens > window) {
    // Never send what cannot fit: shorten the older outputs, then oversized
    // call arguments (a model that wrote a file larger than the window), then
    // the newest output, then give up.
    if (shortenOldOutputs(history, 0, true) > 0) tokens = countTokens(history);
    if (tokens > window && shortenCallArguments(history) > 0) tokens = countTokens(history);
    if (tokens > window && shortenOldOutputs(history, 0) > 0) tokens = countTokens(history);
    if (tokens > window) {
      std::string message = "This conversation no longer fits the model's context window (about " + thousands(tokens) +
                            " of " + thousands(window) + " tokens), so it was not sent. ";
      if (std::exchange(firstRequest_, false) && !prefixReplaced_) {
        // The prompt itself tipped it over: it is not kept, or every later prompt would fail too.
        history.rollback(turnStart_);
        message += std::string("Your prompt was not kept: try a shorter one, ") +
                   (compressWouldHelp(history) ? "/compress, " : "") + "or a new session.";
      } else {
        message += compressWouldHelp(history) ? "Try /compress, or start a new session." : "Start a new session.";
      }
      return TurnStop{acp::StopReason::max_tokens, message};
    }
  }
  firstRequest_ = false;
  sent_ = markOf(history);
  lastCount_ = tokens;
  return std::nullopt;
}

std::optional<TurnStop> ContextManager::onChunk(const ModelChunk& chunk) {
  if (chunk.usage && chunk.usage->promptTokens > 0) {
    // The model's own count of the request just sent replaces the estimate.
    base_ = sent_;
    baseTokens_ = chunk.usage->promptTokens;
    haveBase_ = true;
  }
  return std::nullopt;
}

void ContextManager::onToolResponse(FunctionResponse& response, size_t roundSize) {
  // Never more than what is left of the context window, shared by this round's responses.
  const int64_t leftTokens = std::max<int64_t>(0, limit() - lastCount_ - limit() / 10);
  const int64_t share = leftTokens * kCharsPerToken / static_cast<int64_t>(std::max<size_t>(roundSize, 1));
  const int64_t budget = std::max(kMinResponseChars, std::min(options_.toolOutputChars, share));
  if (!options_.summarizeTools.empty()) summarizeResponse(response);
  budgetResponse(response, budget, place_);
  untrimmedChars_ += static_cast<int64_t>(response.response.text.size());
}

void ContextManager::summarizeResponse(FunctionResponse& response) {
  auto tool = options_.summarizeTools.find(response.name);
  if (tool == options_.summarizeTools.end() || turnCancel_.cancelled()) return;
  ResponseText text = responseText(response.response);
  // Short outputs, or ones the budget could not shrink much, stay as they are.
  if (static_cast<int64_t>(text.text.size()) < std::max(kMinSummarizedChars, 4 * tool->second)) return;
  const std::string input =
      static_cast<int64_t>(text.text.size()) <= kMaxSummaryInputChars ? text.text
                                                                      : budgetText(text.text, kMaxSummaryInputChars, {});
  auto summary = summarizeToolOutput(*session_.provider(), session_.model(), tool->first, input, tool->second,
                                     turnCancel_);
  if (!summary) return;  // the output goes to the model as it is, within its budget
  auto whole = saveWholeText(text.text, place_);
  std::string where = whole ? "the whole output is saved in " + *whole : "the whole output could not be saved";
  if (!whole && !whole.error().message.empty()) where += ": " + whole.error().message;
  text.text = "[A summary of this output, written by a model; " + where + "]\n" + *summary;
  response.response = withResponseText(response.response, text);
}

bool ContextManager::isSizeRefusal(const Error& error) {
  std::string lower = error.message;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* sign : {"exceeds the maximum number of tokens", "context_length_exceeded", "maximum context length",
                           "context window", "prompt is too long", "too many tokens", "input token count"}) {
    if (lower.find(sign) != std::string::npos) return true;
  }
  return false;
}

std::optional<TurnStop> ContextManager::onModelError(const Error& error, History& history) {
  if (!isSizeRefusal(error)) return std::nullopt;
  // The history must not keep what made the request too large, or every
  // later prompt fails the same way: every tool output is shortened, the newest too.
  const int changed = shortenOldOutputs(history, 0) + shortenCallArguments(history);
  haveBase_ = false;
  std::string message = "The model refused this request as too large for its context window (" + error.message + "). ";
  if (changed > 0) {
    message += "Lathe shortened " + std::to_string(changed) +
               " tool outputs and call arguments in this conversation (the whole outputs are saved in the session's data directory), "
               "so your next prompt can carry on.";
  } else {
    message += std::string("Your prompt was not kept. Try a shorter prompt, ") +
               (compressWouldHelp(history) ? "/compress, " : "") + "or a new session.";
  }
  return TurnStop{acp::StopReason::max_tokens, message};
}

}  // namespace lathe::engine
