// A quick estimate of the tokens a history costs, for decisions made before
// the model reports its own count: about four ASCII characters per token, a
// token or more per other character, a fixed cost per inline image or file.
// Pure; any thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/model/content.h"

namespace lathe::engine {

int64_t estimateTokens(std::string_view text);
int64_t estimateTokens(const Part& part);
int64_t estimateTokens(const Content& content);
int64_t estimateTokens(const std::vector<Content>& contents);

}  // namespace lathe::engine
