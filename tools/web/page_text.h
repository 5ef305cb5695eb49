// A fetched page as text for a model: HTML converted (html_text.h), other
// text types passed through, binary types refused; and the pages of one
// web_fetch call fitted into one character budget. Pure; any thread.
#pragma once

#include <string>
#include <vector>

#include "protocol/base/result.h"
#include "tools/web/page_fetch.h"

namespace lathe::tools::web {

// The page's readable text, or Errc::invalid_params saying why it is not text.
Result<std::string> pageText(const FetchedPage& page);

// Cuts texts so they hold at most `budget` characters (bytes, at UTF-8
// boundaries) together, shared fairly: the smallest keep all they have and
// the rest share what is left. A cut text ends with a note saying so.
void fitToBudget(std::vector<std::string*> texts, size_t budget);

}  // namespace lathe::tools::web
