// What model requests cost: list prices in US dollars per million tokens for
// the Gemini and OpenAI models Lathe names (README's price table), which the
// person's settings (model.pricing) correct or extend. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/model/content.h"

namespace lathe::engine {

struct Price {
  double input = 0;                   // per million prompt tokens
  double output = 0;                  // per million output tokens (thoughts included)
  std::optional<double> cachedInput;  // per million prompt tokens read from a cache; unset: as input
};

// Keys are model names or their beginnings; the longest matching key wins.
using PriceTable = std::map<std::string, Price>;

// The built-in list prices.
const PriceTable& builtinPrices();

// The price of `model`: the person's table first (settings model.pricing),
// then the built-in one; nullopt when neither knows it.
std::optional<Price> priceOf(std::string_view model, const PriceTable& overrides);

// What one reply's usage costs, in dollars.
double costOf(const Usage& usage, const Price& price);

}  // namespace lathe::engine
