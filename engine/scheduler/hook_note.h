// What the person is told about one hook's part in something: which hook,
// at which event, what it decided, and its words. Shown on the tool call it
// touched (its text in the card's content, the note itself in the update's
// _meta, "lathe": {"hooks": [...]}, for editors that mark it), or on a card
// of its own for events that touch no call. hookNoteText is the one wording
// of every such report. Pure; any thread.
#pragma once

#include <string>
#include <vector>

#include "protocol/base/json.h"

namespace lathe::engine {

struct HookNote {
  std::string hook;      // its name, else its command
  std::string event;     // "BeforeTool", ...
  std::string decision;  // "allowed", "blocked", "asked", "changed the input", "stopped the turn", "failed", ...
  std::string message;   // its reason or message for the person; may be empty
};

// "Hook security-check (BeforeTool) blocked: no writes under /etc".
std::string hookNoteText(const HookNote& note);

// The notes as _meta of a tool call update: {"lathe":{"hooks":[{hook, event,
// decision, message, text}...]}}, `text` being the content item that tells
// the same (an editor that shows the notes its own way leaves that item out).
json::Raw hookNotesMeta(const std::vector<HookNote>& notes);

}  // namespace lathe::engine
