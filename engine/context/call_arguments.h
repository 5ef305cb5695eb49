// Function-call arguments too large to keep: a model that wrote a file
// bigger than the context window would otherwise leave a history that can
// never be sent again. Long string arguments keep a head and a tail and say
// what was left out; the arguments stay a JSON object of the same members.
// Pure.
#pragma once

#include <cstdint>
#include <optional>

#include "protocol/base/json.h"

namespace lathe::engine {

// The arguments with every string longer than about 2 * keepChars shortened
// to its head and tail around a note; nullopt when none is that long.
std::optional<json::Raw> shortenCallArguments(const json::Raw& args, int64_t keepChars);

}  // namespace lathe::engine
