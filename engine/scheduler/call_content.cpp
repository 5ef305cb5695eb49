// The ACP shapes of a tool call: its kind, content items, what a permission
// request shows, and the response JSON the model reads.
#include "engine/scheduler/call_content.h"

#include <algorithm>
#include <cstring>

#include "engine/scheduler/changed_region.h"
#include "engine/scheduler/markdown_fence.h"

namespace lathe::engine {

acp::ToolKind toAcpKind(tools::Kind kind) {
  switch (kind) {
    case tools::Kind::read: return acp::ToolKind::read;
    case tools::Kind::edit: return acp::ToolKind::edit;
    case tools::Kind::del: return acp::ToolKind::del;
    case tools::Kind::move: return acp::ToolKind::move;
    case tools::Kind::search: return acp::ToolKind::search;
    case tools::Kind::execute: return acp::ToolKind::execute;
    case tools::Kind::think:
    case tools::Kind::plan: return acp::ToolKind::think;
    case tools::Kind::fetch: return acp::ToolKind::fetch;
    case tools::Kind::switch_mode: return acp::ToolKind::switch_mode;
    case tools::Kind::agent:
    case tools::Kind::communicate:
    case tools::Kind::other: return acp::ToolKind::other;
  }
  return acp::ToolKind::other;
}

json::Raw responseJson(const char* field, const std::string& text) {
  return {json::buildObject([&](json::Writer& w) { json::put(w, field, text); })};
}

acp::ToolCallContent textContent(std::string text) {
  acp::ToolCallContent content;
  content.text = std::move(text);
  return content;
}

acp::ToolCallContent diffContent(tools::FileDiff diff) {
  acp::ToolCallContent content;
  content.type = acp::ToolCallContent::Type::diff;
  content.path = std::move(diff.path);
  content.oldText = std::move(diff.oldText);
  content.newText = std::move(diff.newText);
  narrowToChange(content.oldText, content.newText);  // a large file: the changed region only
  return content;
}

// Compared a block at a time (memcmp), then byte by byte inside the block
// that differs: file texts are megabytes.
int64_t firstChangedLine(const tools::FileDiff& diff) {
  std::string_view before = diff.oldText ? std::string_view(*diff.oldText) : std::string_view();
  std::string_view after = diff.newText;
  constexpr size_t kBlock = 4096;
  const size_t common = std::min(before.size(), after.size());
  size_t same = 0;
  while (same + kBlock <= common && std::memcmp(before.data() + same, after.data() + same, kBlock) == 0) same += kBlock;
  while (same < common && before[same] == after[same]) ++same;
  return 1 + std::count(after.begin(), after.begin() + static_cast<std::ptrdiff_t>(same), '\n');
}

std::vector<acp::ToolCallContent> confirmationContent(tools::ConfirmationDetails& details) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    acp::ToolCallContent content;
    content.type = acp::ToolCallContent::Type::diff;
    content.path = edit->diff.path;
    content.oldText = std::move(edit->diff.oldText);
    content.newText = std::move(edit->diff.newText);
    narrowToChange(content.oldText, content.newText);  // a large file: the changed region only
    std::vector<acp::ToolCallContent> items;
    items.push_back(std::move(content));  // a braced list would copy it
    return items;
  }
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    std::string text = fenced("$ " + exec->command, "sh");
    std::vector<std::string> names;
    for (const auto& words : exec->commands) {
      std::string name = words.empty() ? "(a computed command)" : words.front();
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    if (!names.empty()) {
      text += "\nRuns: ";
      for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
    }
    if (!exec->understood) text += "\n(Lathe could not fully understand this command line: judge it yourself.)";
    if (!exec->note.empty()) text += "\n" + exec->note;
    return {textContent(text)};
  }
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return {textContent("MCP tool " + mcp->toolName + " from server " + mcp->serverName)};
  }
  if (auto* read = std::get_if<tools::ReadConfirmation>(&details)) {
    std::string text = "Let the model read what you keep from it? Its contents go to the model provider.";
    for (const auto& file : read->files) text += "\n- " + file.path + ": " + file.why;
    return {textContent(text)};
  }
  if (auto* plan = std::get_if<tools::PlanConfirmation>(&details)) {
    return {textContent(plan->text), textContent("The plan is " + plan->path + ". Carry it out now?")};
  }
  const auto& info = std::get<tools::InfoConfirmation>(details);
  std::string text = info.prompt;
  for (const auto& url : info.urls) text += "\n- " + url;
  return {textContent(text)};
}

std::vector<std::string> changedKeys(const json::Raw& before, const json::Value& after) {
  std::vector<std::string> keys;
  auto old = json::parse(before.text);
  if (!after.IsObject()) return keys;
  for (const auto& member : after.GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    const json::Value* was = old && old->IsObject() ? json::find(*old, name.c_str()) : nullptr;
    if (!was || json::stringify(*was) != json::stringify(member.value)) keys.push_back(std::move(name));
  }
  if (old && old->IsObject()) {
    for (const auto& member : old->GetObject()) {
      std::string name(member.name.GetString(), member.name.GetStringLength());
      if (!json::find(after, name.c_str())) keys.push_back(std::move(name));
    }
  }
  return keys;
}

}  // namespace lathe::engine
