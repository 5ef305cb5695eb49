// List prices (USD per million tokens, standard paid tier; Gemini 2.5 Pro and
// Gemini 3 Pro at their prices for prompts up to 200,000 tokens).
#include "engine/model/pricing.h"

#include <algorithm>

namespace lathe::engine {
namespace {

std::optional<Price> longestMatch(std::string_view model, const PriceTable& table) {
  if (model.starts_with("models/")) model.remove_prefix(7);
  const PriceTable::value_type* best = nullptr;
  for (const auto& entry : table) {
    if (model.starts_with(entry.first) && (!best || entry.first.size() > best->first.size())) best = &entry;
  }
  if (!best) return std::nullopt;
  return best->second;
}

}  // namespace

const PriceTable& builtinPrices() {
  static const PriceTable kPrices = {
      {"gemini-3-pro", {2.00, 12.00, 0.20}},
      {"gemini-2.5-pro", {1.25, 10.00, 0.125}},
      {"gemini-2.5-flash", {0.30, 2.50, 0.03}},
      {"gemini-2.5-flash-lite", {0.10, 0.40, 0.01}},
      {"gemini-2.0-flash", {0.10, 0.40, 0.025}},
      {"gemini-2.0-flash-lite", {0.075, 0.30, std::nullopt}},
      {"gpt-5", {1.25, 10.00, 0.125}},
      {"gpt-5-mini", {0.25, 2.00, 0.025}},
      {"gpt-5-nano", {0.05, 0.40, 0.005}},
      {"gpt-4.1", {2.00, 8.00, 0.50}},
      {"gpt-4.1-mini", {0.40, 1.60, 0.10}},
      {"gpt-4.1-nano", {0.10, 0.40, 0.025}},
      {"gpt-4o", {2.50, 10.00, 1.25}},
      {"gpt-4o-mini", {0.15, 0.60, 0.075}},
      {"o3", {2.00, 8.00, 0.50}},
      {"o4-mini", {1.10, 4.40, 0.275}},
  };
  return kPrices;
}

std::optional<Price> priceOf(std::string_view model, const PriceTable& overrides) {
  if (auto price = longestMatch(model, overrides)) return price;
  return longestMatch(model, builtinPrices());
}

double costOf(const Usage& usage, const Price& price) {
  const int64_t cached = std::min(usage.cachedTokens, usage.promptTokens);
  const double input = static_cast<double>(usage.promptTokens - cached) * price.input +
                       static_cast<double>(cached) * price.cachedInput.value_or(price.input);
  const double output = static_cast<double>(usage.candidatesTokens + usage.thoughtsTokens) * price.output;
  return (input + output) / 1'000'000.0;
}

}  // namespace lathe::engine
