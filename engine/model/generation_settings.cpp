// Generation settings per model family.
#include "engine/model/generation_settings.h"

#include <algorithm>
#include <vector>

namespace lathe::engine {
namespace {

GenerationConfig familyDefaults(std::string_view model) {
  GenerationConfig config;
  if (model.starts_with("models/")) model.remove_prefix(7);
  if (!model.starts_with("gemini-")) return config;  // other makers: the server decides
  config.temperature = 1.0;
  config.topP = 0.95;
  config.topK = 64;
  if (model.starts_with("gemini-3")) {
    config.thinkingLevel = "HIGH";
  } else if (model.starts_with("gemini-2.5")) {
    config.thinkingBudget = 8192;  // bounded: unbounded thinking can loop for minutes
  }
  return config;
}

void apply(const GenerationOverride& from, GenerationConfig& to) {
  if (from.temperature) to.temperature = from.temperature;
  if (from.topP) to.topP = from.topP;
  if (from.topK) to.topK = from.topK;
  if (from.maxOutputTokens) to.maxOutputTokens = from.maxOutputTokens;
  // A model thinks by budget or by level, never both.
  if (from.thinkingBudget) {
    to.thinkingBudget = from.thinkingBudget;
    to.thinkingLevel.reset();
  }
  if (from.thinkingLevel) {
    to.thinkingLevel = from.thinkingLevel;
    to.thinkingBudget.reset();
  }
}

}  // namespace

GenerationConfig generationFor(std::string_view model, const GenerationOverrides& overrides) {
  GenerationConfig config = familyDefaults(model);
  std::vector<const GenerationOverrides::value_type*> matching;
  for (const auto& entry : overrides) {
    if (model.starts_with(entry.first)) matching.push_back(&entry);
  }
  std::sort(matching.begin(), matching.end(), [](auto* a, auto* b) { return a->first.size() < b->first.size(); });
  for (const auto* entry : matching) apply(entry->second, config);
  return config;
}

}  // namespace lathe::engine
