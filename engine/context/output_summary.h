// Model-written summaries of long tool outputs (settings
// model.summarizeToolOutput, per tool, with a token budget): a one-shot call
// that condenses the output and copies its error and warning lines and stack
// traces verbatim. Blocks on the model call; any thread.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_provider.h"

namespace lathe::engine {

// The summary of `output` (of tool `tool`) in about tokenBudget tokens, or the
// error of the call (an empty summary is an error too).
Result<std::string> summarizeToolOutput(ModelProvider& provider, const std::string& model, const std::string& tool,
                                        const std::string& output, int64_t tokenBudget, const CancelToken& cancel);

}  // namespace lathe::engine
