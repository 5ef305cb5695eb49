// Sampling and thinking settings per model family, as the models' makers
// recommend them, with the person's overrides (settings
// model.generationConfig) on top. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/model/model_provider.h"

namespace lathe::engine {

// One entry of model.generationConfig: each field set replaces the family's.
struct GenerationOverride {
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int64_t> topK;
  std::optional<int64_t> maxOutputTokens;
  std::optional<int64_t> thinkingBudget;
  std::optional<std::string> thinkingLevel;
};

// Keys are model names or their beginnings ("gemini-2.5" covers
// gemini-2.5-pro and gemini-2.5-flash); longer keys apply over shorter ones.
using GenerationOverrides = std::map<std::string, GenerationOverride>;

// The settings for a conversation request to `model`: the family's defaults
// (Gemini 3: thinking level HIGH; Gemini 2.5: a thinking budget of 8,192
// tokens; Gemini: temperature 1, top-p 0.95, top-k 64; other models: their
// server's defaults), then the overrides whose key `model` starts with.
GenerationConfig generationFor(std::string_view model, const GenerationOverrides& overrides = {});

}  // namespace lathe::engine
