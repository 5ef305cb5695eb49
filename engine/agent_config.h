// Settings that shape every session of one process: the model, its provider,
// limits. Built once at start-up by server/, then read-only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/model_provider.h"
#include "tools/tool_context.h"

namespace lathe::engine {

struct AgentConfig {
  std::string model = "gemini-2.5-pro";
  std::shared_ptr<ModelProvider> provider;
  int maxTurnRequests = 100;         // model calls in one prompt turn
  int64_t contextWindow = 1'048'576; // tokens, for usage updates
  tools::ToolLimits toolLimits;
};

}  // namespace lathe::engine
