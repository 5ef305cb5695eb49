// Tool responses held to a budget before the model reads them: a response
// whose text is longer keeps its head and tail, the lines of the left-out part
// that mention errors or warnings, and a note with the path of a file in the
// session's data directory that holds the whole text. Old responses can be
// shortened further the same way. Pure apart from the files it writes; one
// thread at a time per save directory stem.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/content.h"
#include "protocol/base/json.h"

namespace lathe::engine {

struct BudgetPlace {
  std::string saveDir;  // where whole texts go; empty: not saved (the note says so)
  std::string stem;     // file name prefix, e.g. "tool-output"
};

// The text of a response payload: its "output" or "error" string, else the
// whole JSON text. Empty key when the payload is not such an object.
struct ResponseText {
  std::string key;
  std::string text;
};
ResponseText responseText(const json::Raw& response);

// The payload with its text replaced (other members kept).
json::Raw withResponseText(const json::Raw& response, const ResponseText& text);

// The model's view of a text longer than budgetChars (head, notable lines of
// the middle, tail, and where the whole is saved); the text itself when it fits.
std::string budgetText(const std::string& text, int64_t budgetChars, const BudgetPlace& place);

// Holds a function response to budgetChars (the whole saved only when it is cut).
void budgetResponse(FunctionResponse& response, int64_t budgetChars, const BudgetPlace& place);

// Saves a whole text in the place; its path, or why it could not be saved
// (the message may be empty when nothing says why).
Result<std::string> saveWholeText(const std::string& text, const BudgetPlace& place);

// A short form of an old response payload: about keepChars of head and tail
// and a note (the whole text saved first). Nullopt when it is short already.
std::optional<json::Raw> shortenResponse(const json::Raw& response, int64_t keepChars, const BudgetPlace& place);

}  // namespace lathe::engine
