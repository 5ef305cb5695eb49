// Generation settings per model family.
#include "engine/model/generation_settings.h"

#include <algorithm>
#include <vector>

#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

constexpr EnumName<Effort> kEfforts[] = {
    {Effort::standard, "default"},
    {Effort::low, "low"},
    {Effort::medium, "medium"},
    {Effort::high, "high"},
};

// Gemini 2.5's budgets: medium is the family's default; high stays within
// what every 2.5 model accepts (Flash's limit, 24,576 tokens).
int64_t budgetFor(Effort effort) {
  switch (effort) {
    case Effort::low: return 1024;
    case Effort::high: return 24576;
    default: return 8192;
  }
}

std::string_view bareName(std::string_view model) {
  if (model.starts_with("models/")) model.remove_prefix(7);
  return model;
}

GenerationConfig familyDefaults(std::string_view model) {
  GenerationConfig config;
  model = bareName(model);
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

namespace lathe::engine {

const char* toString(Effort effort) { return nameOf(kEfforts, effort); }
std::optional<Effort> parseEffort(std::string_view name) { return valueOf(kEfforts, name); }

std::vector<Effort> effortsOf(std::string_view model) {
  model = bareName(model);
  if (model.starts_with("gemini-3")) return {Effort::low, Effort::high};
  if (model.starts_with("gemini-2.5")) return {Effort::low, Effort::medium, Effort::high};
  if (model.starts_with("gemini-")) return {};
  return {Effort::low, Effort::medium, Effort::high};
}

void applyEffort(GenerationConfig& config, std::string_view model, Effort effort) {
  const auto offered = effortsOf(model);
  if (effort == Effort::standard || std::find(offered.begin(), offered.end(), effort) == offered.end()) return;
  model = bareName(model);
  if (model.starts_with("gemini-3")) {
    config.thinkingLevel = effort == Effort::low ? "LOW" : "HIGH";
    config.thinkingBudget.reset();
  } else if (model.starts_with("gemini-2.5")) {
    config.thinkingBudget = budgetFor(effort);
    config.thinkingLevel.reset();
  } else {
    config.reasoningEffort = toString(effort);
  }
}

}  // namespace lathe::engine
