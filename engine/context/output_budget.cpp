// Tool response budgets, on top of the shell's output buffer (the same
// head/tail/notable-lines/saved-file logic for every tool).
#include "engine/context/output_budget.h"

#include <atomic>

#include "engine/config/context_options.h"
#include "tools/shell/output_buffer.h"
#include "tools/shell/terminal_text.h"

namespace lathe::engine {
namespace {

constexpr int64_t kShortNoteAllowance = 1000;  // the note of a shortened output and then some

// Distinct file names within one process, whatever the session.
std::string nextStem(const std::string& stem) {
  static std::atomic<uint64_t> counter{0};
  return (stem.empty() ? std::string("tool-output") : stem) + "-" + std::to_string(++counter);
}

}  // namespace

ResponseText responseText(const json::Raw& response) {
  auto doc = json::parse(response.text);
  if (doc && doc->IsObject()) {
    for (const char* key : {"output", "error"}) {
      if (auto text = json::getStr(*doc, key)) return {key, std::move(*text)};
    }
  }
  return {"", response.text};
}

json::Raw withResponseText(const json::Raw& response, const ResponseText& text) {
  auto doc = json::parse(response.text);
  return json::Raw{json::buildObject([&](json::Writer& w) {
    const std::string key = text.key.empty() ? "output" : text.key;
    if (!text.key.empty() && doc && doc->IsObject()) {
      for (const auto& member : doc->GetObject()) {
        std::string name(member.name.GetString(), member.name.GetStringLength());
        if (name != key) json::put(w, name, json::Raw{json::stringify(member.value)});
      }
    }
    json::put(w, key, text.text);
  })};
}

std::string budgetText(const std::string& text, int64_t budgetChars, const BudgetPlace& place) {
  if (static_cast<int64_t>(text.size()) <= budgetChars) return text;
  tools::shell::OutputBuffer buffer({static_cast<size_t>(std::max<int64_t>(keptCharsOf(budgetChars), 100)),
                                     place.saveDir, nextStem(place.stem)});
  buffer.append(text);
  buffer.finish();
  return buffer.modelText();
}

void budgetResponse(FunctionResponse& response, int64_t budgetChars, const BudgetPlace& place) {
  json::Raw& payload = response.response;
  if (static_cast<int64_t>(payload.text.size()) <= budgetChars) return;
  ResponseText text = responseText(payload);
  if (static_cast<int64_t>(text.text.size()) <= budgetChars && !text.key.empty()) return;
  BudgetPlace named{place.saveDir, place.stem + "-" + response.name};
  text.text = budgetText(text.text, budgetChars, named);
  payload = withResponseText(payload, text);
}

Result<std::string> saveWholeText(const std::string& text, const BudgetPlace& place) {
  if (place.saveDir.empty()) return makeError(Errc::io, "this session has no data directory");
  // A buffer that keeps next to nothing for the model streams the whole text to its file.
  tools::shell::OutputBuffer file({1, place.saveDir, nextStem(place.stem)});
  file.append(text);
  file.finish();
  if (file.savedPath().empty()) return makeError(Errc::io, file.saveError());
  return file.savedPath();
}

std::optional<json::Raw> shortenResponse(const json::Raw& response, int64_t keepChars, const BudgetPlace& place) {
  // Head, tail and a note: anything not much longer is short already.
  const int64_t shortEnough = 2 * keepChars + kShortNoteAllowance;
  if (static_cast<int64_t>(response.text.size()) <= shortEnough) return std::nullopt;
  ResponseText text = responseText(response);
  if (static_cast<int64_t>(text.text.size()) <= shortEnough) return std::nullopt;
  // The whole text goes to a file first (through a buffer that keeps nothing
  // of it for the model), then a short head and tail are kept.
  auto whole = saveWholeText(text.text, place);
  std::string_view all(text.text);
  size_t headEnd = tools::shell::utf8FloorBoundary(all, static_cast<size_t>(keepChars));
  size_t tailStart = tools::shell::utf8CeilBoundary(all, all.size() - static_cast<size_t>(keepChars));
  std::string shortText(all.substr(0, headEnd));
  shortText += "\n[... an older tool output, shortened to keep the conversation small: " +
               std::to_string(tailStart - headEnd) + " bytes left out; ";
  if (whole) {
    shortText += "the whole output is saved in " + *whole + " ...]\n";
  } else {
    const std::string& why = whole.error().message;
    shortText += "the whole output was not saved" + (why.empty() ? std::string() : ": " + why) + " ...]\n";
  }
  shortText += all.substr(tailStart);
  text.text = std::move(shortText);
  return withResponseText(response, text);
}

}  // namespace lathe::engine
