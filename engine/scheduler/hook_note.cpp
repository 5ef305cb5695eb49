// Hook notes as text and as _meta.
#include "engine/scheduler/hook_note.h"

namespace lathe::engine {

std::string hookNoteText(const HookNote& note) {
  std::string text = "Hook " + note.hook + " (" + note.event + ") " + note.decision;
  return note.message.empty() ? text + "." : text + ": " + note.message;
}

json::Raw hookNotesMeta(const std::vector<HookNote>& notes) {
  if (notes.empty()) return {};
  return {json::buildObject([&](json::Writer& w) {
    json::object(w, "lathe", [&] {
      json::array(w, "hooks", [&] {
        for (const auto& note : notes) {
          json::object(w, [&] {
            json::put(w, "hook", note.hook);
            json::put(w, "event", note.event);
            json::put(w, "decision", note.decision);
            json::put(w, "message", note.message);
            json::put(w, "text", hookNoteText(note));  // the card's content item that tells it
          });
        }
      });
    });
  })};
}

}  // namespace lathe::engine
