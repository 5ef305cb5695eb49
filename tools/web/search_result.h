// What google_web_search gives the model: the grounded answer with citation
// markers ([1], [1][2]) inserted where the grounding says each stretch ends
// (UTF-8 byte offsets, as Gemini CLI inserts them), then the sources listed.
// Pure; any thread.
#pragma once

#include <string>

#include "tools/core/one_shot_model.h"

namespace lathe::tools::web {

// The text with markers inserted; an offset inside a character moves to its end,
// one past the text to its end.
std::string insertCitationMarkers(const std::string& text, const std::vector<GroundingSupport>& supports);

// `Web search results for "<query>":\n\n<text with markers>\n\nSources:\n[1] <title> (<uri>)...`
std::string formatSearchResult(const std::string& query, const OneShotAnswer& answer);

}  // namespace lathe::tools::web
