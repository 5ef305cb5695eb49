// Omission placeholders: lines a model writes instead of the real text
// ("// ... existing code ...", "# rest of the function ..."). Written as
// given, they would replace real code with a comment, so write_file and
// replace refuse new text holding one that the text it replaces did not
// already hold. Pure; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lathe::tools {

// The first placeholder line of `text` (trimmed) that `before` does not
// contain, or nullopt.
std::optional<std::string> newOmissionPlaceholder(std::string_view text, std::string_view before);

// The tool error text for such a line.
std::string omissionMessage(const std::string& line);

}  // namespace lathe::tools
