// Runs the function calls of one model reply through the tools: look up,
// validate and build, report to the editor, execute, and answer the model.
// Consecutive read-only calls run in parallel; any other call runs alone, in
// order. Called on the turn's thread; it may start helper threads for a batch.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/content.h"
#include "engine/editor_client.h"
#include "protocol/cancel.h"
#include "tools/registry.h"

namespace lathe::engine {

class ToolScheduler {
 public:
  ToolScheduler(const tools::ToolRegistry& registry, EditorClient& editor, std::string sessionId);

  // Returns the parts of the user content that answers the calls: one
  // functionResponse per call, in call order, plus any inline data parts.
  std::vector<Part> run(const std::vector<FunctionCall>& calls, const CancelToken& cancel);

 private:
  struct Outcome {
    FunctionResponse response;
    std::vector<Part> inlineParts;
  };
  Outcome runOne(const FunctionCall& call, const std::string& toolCallId, const CancelToken& cancel);
  bool isReadOnlyCall(const FunctionCall& call) const;

  const tools::ToolRegistry& registry_;
  EditorClient& editor_;
  std::string sessionId_;
  std::atomic<uint64_t> nextId_{0};
};

}  // namespace lathe::engine
