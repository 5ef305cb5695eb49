// Sampling and thinking settings per model family, as the models' makers
// recommend them, with the person's overrides (settings
// model.generationConfig) on top. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// How much the model thinks, as the editor's effort picker sets it;
// `standard` leaves the settings above as they are.
enum class Effort { standard, low, medium, high };
const char* toString(Effort effort);
std::optional<Effort> parseEffort(std::string_view name);

// The efforts a model offers beyond `standard` (empty: it has no thinking to
// set): Gemini 3 thinks by level (low, high), Gemini 2.5 by a budget (low,
// medium, high); other makers' models (OpenAI-compatible) take
// reasoning_effort (low, medium, high); older Gemini models none.
std::vector<Effort> effortsOf(std::string_view model);

// Sets the thinking of a request to `effort` (standard: unchanged): the
// Gemini level or budget it maps to, and OpenAI's reasoning_effort (each
// wire sends the field it knows). An effort the model does not offer leaves
// it unchanged.
void applyEffort(GenerationConfig& config, std::string_view model, Effort effort);

}  // namespace lathe::engine
