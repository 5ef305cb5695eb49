// A session's conversation as the model sees it, with one invariant kept on
// every append: each function call of a model content is answered, in the
// next user content, by exactly one function response (matched by id when
// the model gave one, else by name, in order). Roles alternate; consecutive
// user parts are merged. A checkpoint is two numbers, so a turn can be undone
// without copying the history. Owned by one turn's thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/model/content.h"
#include "protocol/base/result.h"

namespace lathe::engine {

class History {
 public:
  const std::vector<Content>& contents() const { return contents_; }
  bool empty() const { return contents_.empty(); }
  size_t size() const { return contents_.size(); }

  // User text or data (a prompt). Refused while calls are unanswered.
  Status appendUser(std::vector<Part> parts);
  // A model reply; its function calls become pending. Refused while calls are unanswered.
  Status appendModel(Content content);
  // Answers the pending calls: one functionResponse per call (any order by
  // id, else in call order), plus any other parts (inline data).
  Status appendResponses(std::vector<Part> parts);

  // The calls still waiting for their responses.
  const std::vector<FunctionCall>& pendingCalls() const { return pending_; }

  struct Checkpoint {
    size_t contents = 0;
    size_t lastParts = 0;  // parts of the last content then (user parts merge into it)
    std::vector<FunctionCall> pending;
  };
  Checkpoint checkpoint() const;
  void rollback(const Checkpoint& checkpoint);

  // Replaces the whole conversation (a /redo puts back what a rewind cut),
  // refused unless `contents` keep the invariant; counts as an edit.
  Status replaceAll(std::vector<Content> contents);

  // Replaces the oldest `count` contents (e.g. with a compressed snapshot).
  // Refused unless the result keeps the invariant: the replacement holds no
  // function calls or responses, and the content after it is not split from
  // its call (it must start a new exchange: a user content without responses).
  Status replacePrefix(size_t count, std::vector<Content> replacement);

  // Lets `edit` rewrite the payload of function responses, newest first, until
  // it returns stop (e.g. to shorten old tool outputs). Ids and names stay, so
  // the invariant holds. Counts as an edit when any payload changed.
  enum class Edit { kept, changed, stop };
  void rewriteResponses(const std::function<Edit(json::Raw& response)>& edit);
  // The same for the arguments of the model's function calls, newest first.
  void rewriteCallArguments(const std::function<Edit(json::Raw& args)>& edit);

  // Changes on every edit that is not an append (rollback, replacePrefix), so
  // a recorder that appends what is new knows when to write the whole again.
  uint64_t revision() const { return revision_; }

 private:
  void addUserParts(std::vector<Part> parts);
  void rewritePayloads(json::Raw* (*payloadOf)(Part&), const std::function<Edit(json::Raw&)>& edit);

  std::vector<Content> contents_;
  std::vector<FunctionCall> pending_;
  uint64_t revision_ = 0;
};

}  // namespace lathe::engine
