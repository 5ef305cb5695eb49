// Checks that a Gemini generate request carries a well-formed history: every
// model functionCall is answered, in order, by a functionResponse in the next
// user content; roles alternate sensibly; declarations are unique. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lathe::testing {

// Returns one message per violation; empty means the request is fine.
std::vector<std::string> checkGenerateRequest(std::string_view body);

}  // namespace lathe::testing
