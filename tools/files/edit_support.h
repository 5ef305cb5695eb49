// What the edit tools (write_file, replace) share: the fingerprint that keeps
// an approved diff honest, line counting, and FileStore error mapping.
// Header-only, pure; any thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "tools/core/tool.h"

namespace lathe::tools {

// Identifies a file's normalized text (or its absence) without keeping a copy
// of a possibly large file alive between confirmation and execution.
struct TextFingerprint {
  bool exists = false;
  size_t size = 0;
  size_t hash = 0;

  static TextFingerprint of(const std::optional<std::string>& text) {
    if (!text) return {};
    return {true, text->size(), std::hash<std::string_view>{}(*text)};
  }
  bool operator==(const TextFingerprint&) const = default;
};

// Lines in a text: a trailing newline does not start another line.
inline size_t countLines(std::string_view text) {
  if (text.empty()) return 0;
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return text.back() == '\n' ? lines : lines + 1;
}

// The tool error type for a FileStore failure other than "not found".
inline ErrorType storeErrorType(const Error& error) {
  switch (error.code) {
    case Errc::cancelled: return ErrorType::cancelled;
    case Errc::forbidden: return ErrorType::permission_denied;
    default: return ErrorType::execution_failed;
  }
}

}  // namespace lathe::tools
