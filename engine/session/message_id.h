// Message identity: every message a session shows (the person's prompt, each
// model reply, each of Lathe's own notes) gets an id of its own, carried by
// each of its chunks (ACP messageId), recorded and replayed with them, so an
// editor (and rewind) can name a message. Random, so ids stay unique across
// processes and copies of a session. Any thread.
#pragma once

#include <string>
#include <string_view>

namespace lathe::engine {

std::string newMessageId();
// A random id with this prefix (compactions' ids too).
std::string randomId(std::string_view prefix);

}  // namespace lathe::engine
