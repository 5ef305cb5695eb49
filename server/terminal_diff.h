// A diff for a person at a terminal: unified-diff lines (one hunk from the
// first change to the last, three lines of context around it), coloured when
// asked. Pure.
#pragma once

#include <optional>
#include <string>

namespace lathe::server {

std::string terminalDiff(const std::optional<std::string>& oldText, const std::string& newText, bool colour);

}  // namespace lathe::server
