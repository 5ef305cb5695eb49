// stderr logging.
#include "protocol/base/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "protocol/base/enum_names.h"

namespace lathe {
namespace {
std::atomic<LogLevel> gLevel{LogLevel::warn};  // process-wide by nature: one stderr
std::mutex gMutex;

constexpr EnumName<LogLevel> kLevels[] = {
    {LogLevel::error, "error"}, {LogLevel::warn, "warn"}, {LogLevel::info, "info"}, {LogLevel::debug, "debug"}};
}  // namespace

void setLogLevel(LogLevel level) { gLevel = level; }

std::optional<LogLevel> parseLogLevel(std::string_view text) { return valueOf(kLevels, text); }

void log(LogLevel level, std::string_view message) {
  if (level > gLevel.load()) return;
  std::lock_guard lock(gMutex);
  std::fprintf(stderr, "lathe %s: %.*s\n", nameOf(kLevels, level), static_cast<int>(message.size()), message.data());
}

}  // namespace lathe
