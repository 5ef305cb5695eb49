// The on-disk format of a text file (UTF-8 BOM, line endings, final newline),
// and the conversion between it and the normalized text (LF, no BOM) that edit
// tools match against and show to the model. Pure functions; any thread.
#pragma once

#include <string>
#include <string_view>

namespace lathe::tools {

enum class LineEnding { lf, crlf };

struct TextFormat {
  bool bom = false;                        // starts with EF BB BF
  LineEnding lineEnding = LineEnding::lf;  // the majority; LF on a tie or no newline
  bool finalNewline = false;               // the last byte is '\n'
};

// The format of raw file bytes.
TextFormat detectFormat(std::string_view raw);

// Raw bytes → normalized text: the BOM dropped, every CRLF turned into LF.
// Lone CRs are kept. Works in place on the string it is given (move a large
// file in to avoid a copy).
std::string normalize(std::string raw);

// True when restore() changes more than the final newline (a BOM or CRLF).
inline bool needsRestore(const TextFormat& format) { return format.bom || format.lineEnding == LineEnding::crlf; }

// The final-newline rule, on normalized text: when the original ended with a
// newline the result does too (one is added to non-empty text that lacks it).
// A newline the new text carries itself is never removed, so an original
// without one stays without unless the new text explicitly ends with one.
std::string conformFinalNewline(std::string lfText, const TextFormat& original);

// Normalized text → bytes in the original's format: the final-newline rule,
// then LF → CRLF when the original used CRLF, then the BOM when it had one.
// restore(normalize(raw), detectFormat(raw)) == raw for any file whose line
// endings are all LF or all CRLF.
std::string restore(std::string_view lfText, const TextFormat& original);

}  // namespace lathe::tools
