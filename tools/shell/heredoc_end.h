// Where bash ends a here-doc, read from the source text, to check the parse
// against it: the delimiter is its word after quote removal (<<E"O"F ends
// at EOF, <<$'EOF' too), the body ends at the first line that is exactly the
// delimiter (leading tabs stripped for <<-), and in an unquoted here-doc a
// backslash-newline joins lines before that comparison. Pure; any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lathe::tools::shell {

// The delimiter bash reads from a here-doc's start word, or nothing when
// the word holds quoting whose removal is not certain here ($'...' with
// escapes, an unterminated quote).
std::optional<std::string> heredocDelimiter(std::string_view startWord);

// Whether bash ends the here-doc whose body starts at byte `bodyStart` of
// `source` at the line starting at byte `endLine`, and nowhere earlier.
// `quoted`: the start word had quoting (no line joining in the body);
// `stripTabs`: the operator was <<-.
bool bashEndsHeredocAt(std::string_view source, size_t bodyStart, size_t endLine, std::string_view delimiter,
                       bool quoted, bool stripTabs);

}  // namespace lathe::tools::shell
