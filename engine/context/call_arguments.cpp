// Shortening oversized function-call arguments in the history.
#include "engine/context/call_arguments.h"

#include <string>
#include <string_view>

#include "tools/shell/terminal_text.h"

namespace lathe::engine {
namespace {

constexpr int64_t kNoteAllowance = 200;  // a string not much longer than head + tail stays

std::string shortened(std::string_view all, size_t keep) {
  size_t headEnd = tools::shell::utf8FloorBoundary(all, keep);
  size_t tailStart = tools::shell::utf8CeilBoundary(all, all.size() - keep);
  std::string text(all.substr(0, headEnd));
  text += "\n[... " + std::to_string(tailStart - headEnd) +
          " bytes of this argument were left out by Lathe afterwards: the call was too large to keep in the "
          "conversation. The call itself ran with the whole text ...]\n";
  text += all.substr(tailStart);
  return text;
}

// Shortens long strings anywhere in the value (arguments nest: edits, todos).
bool shortenStrings(json::Value& value, size_t keep, json::Document::AllocatorType& alloc) {
  bool changed = false;
  if (value.IsString()) {
    std::string_view text(value.GetString(), value.GetStringLength());
    if (text.size() <= 2 * keep + kNoteAllowance) return false;
    std::string shorter = shortened(text, keep);
    value.SetString(shorter.data(), static_cast<rapidjson::SizeType>(shorter.size()), alloc);
    return true;
  }
  if (value.IsObject()) {
    for (auto& member : value.GetObject()) changed = shortenStrings(member.value, keep, alloc) || changed;
  } else if (value.IsArray()) {
    for (auto& element : value.GetArray()) changed = shortenStrings(element, keep, alloc) || changed;
  }
  return changed;
}

}  // namespace

std::optional<json::Raw> shortenCallArguments(const json::Raw& args, int64_t keepChars) {
  const size_t keep = static_cast<size_t>(keepChars);
  if (args.text.size() <= 2 * keep + kNoteAllowance) return std::nullopt;
  auto doc = json::parse(args.text);
  if (!doc || !doc->IsObject()) return std::nullopt;
  if (!shortenStrings(*doc, keep, doc->GetAllocator())) return std::nullopt;
  return json::Raw{json::stringify(*doc)};
}

}  // namespace lathe::engine
