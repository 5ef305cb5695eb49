// Where a file comes closest to an old_string that matched nowhere, so the
// model sees what the text really is instead of guessing again. Pure; any
// thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lathe::tools {

struct ClosestText {
  size_t line = 0;   // 1-based line of the file where it starts
  std::string text;  // that many lines of the file as old_string has (at most a few dozen)
};

// The run of lines most like old_string (by the words they share), or
// nullopt when no line shares enough with it to be worth showing.
std::optional<ClosestText> closestText(std::string_view text, std::string_view oldString);

}  // namespace lathe::tools
