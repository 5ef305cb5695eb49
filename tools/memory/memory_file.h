// The global memory file (~/.gemini/GEMINI.md): facts the person asked the
// agent to remember, kept as a Markdown list under "## Gemini Added
// Memories", in the format Gemini CLI's save_memory wrote. The pure functions
// are any-thread; addMemoryFact serialises writers (threads and processes)
// with a lock on the file's folder.
#pragma once

#include <string>
#include <string_view>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools {

inline constexpr std::string_view kMemorySectionHeader = "## Gemini Added Memories";

// The list line for a fact ("- <fact>", no newline), or an error a person
// can act on: an empty fact, or one spanning lines (it would break the list).
// Surrounding blanks and leading "-" bullets are dropped, as Gemini CLI did.
Result<std::string> memoryEntryFor(std::string_view fact);

// `content` with `entry` added as the last item of the memory section (made
// at the end when missing). Every other byte stays as it was.
std::string withMemoryEntry(std::string_view content, std::string_view entry);

// Adds the fact to `file` (absolute), creating the file and its folder when
// missing, atomically (a temporary file renamed over it; a symbolic link at
// `file` is written through). Returns the line added.
Result<std::string> addMemoryFact(const std::string& file, std::string_view fact, const CancelToken& cancel);

}  // namespace lathe::tools
