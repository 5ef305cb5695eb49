// stderr logging.
#include "protocol/base/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace lathe {
namespace {
std::atomic<LogLevel> gLevel{LogLevel::warn};  // process-wide by nature: one stderr
std::mutex gMutex;
}  // namespace

void setLogLevel(LogLevel level) { gLevel = level; }

bool parseLogLevel(std::string_view text, LogLevel& out) {
  if (text == "error") out = LogLevel::error;
  else if (text == "warn") out = LogLevel::warn;
  else if (text == "info") out = LogLevel::info;
  else if (text == "debug") out = LogLevel::debug;
  else return false;
  return true;
}

void log(LogLevel level, std::string_view message) {
  if (level > gLevel.load()) return;
  static constexpr const char* kNames[] = {"error", "warn", "info", "debug"};
  std::lock_guard lock(gMutex);
  std::fprintf(stderr, "lathe %s: %.*s\n", kNames[static_cast<int>(level)], static_cast<int>(message.size()),
               message.data());
}

}  // namespace lathe
