// Diagnostics for people, on stderr (stdout belongs to the protocol). Every
// layer may log.
// Thread-safe; the level is set once at start-up.
#pragma once

#include <optional>
#include <string_view>

namespace lathe {

enum class LogLevel { error, warn, info, debug };

void setLogLevel(LogLevel level);
std::optional<LogLevel> parseLogLevel(std::string_view text);
void log(LogLevel level, std::string_view message);

}  // namespace lathe
