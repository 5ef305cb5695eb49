// Judging an event's hooks together.
#include "engine/hooks/hook_verdict.h"

namespace lathe::engine {
namespace {

std::string escapedAngles(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

void appendLine(std::string& into, const std::string& line) {
  if (line.empty()) return;
  into += (into.empty() ? "" : "\n") + line;
}

// hookSpecificOutput merged over what came before.
void mergeSpecific(HookEvent event, const json::Value& specific, json::Document& into) {
  auto& alloc = into.GetAllocator();
  for (const auto& member : specific.GetObject()) {
    const std::string name(member.name.GetString(), member.name.GetStringLength());
    if (name == "additionalContext") continue;  // kept per hook, marked
    auto it = into.FindMember(member.name);
    if (event == HookEvent::BeforeTool && name == "tool_input" && it != into.MemberEnd() && it->value.IsObject() &&
        member.value.IsObject()) {
      overlayMembers(it->value, member.value, alloc);
      continue;
    }
    json::Value copy(member.value, alloc);
    if (it != into.MemberEnd()) {
      // clearContext: any hook's true stays.
      if (name == "clearContext" && it->value.IsTrue()) continue;
      it->value = std::move(copy);
    } else {
      into.AddMember(json::Value(member.name, alloc), std::move(copy), alloc);
    }
  }
}

bool advisory(HookEvent event) {
  return event == HookEvent::SessionStart || event == HookEvent::SessionEnd || event == HookEvent::PreCompress ||
         event == HookEvent::Notification || event == HookEvent::BeforeToolSelection;
}

}  // namespace

bool failsClosed(HookEvent event) {
  switch (event) {
    case HookEvent::BeforeTool:
    case HookEvent::AfterTool:
    case HookEvent::BeforeAgent:
    case HookEvent::BeforeModel:
    case HookEvent::AfterModel: return true;
    default: return false;
  }
}

std::string markHookContext(const HookDefinition& hook, const std::string& text) {
  return "<hook_context source=\"" + escapedAngles(hook.label() + " (" + std::string(toString(hook.event)) + ")") +
         "\">" + escapedAngles(text) + "</hook_context>";
}

HookVerdict judgeHooks(HookEvent event, const std::vector<HookRun>& runs, bool notifications) {
  HookVerdict verdict;
  verdict.specific.SetObject();
  const bool guards = failsClosed(event);
  const bool decides = !advisory(event);
  for (const HookRun& run : runs) {
    const HookResult& result = run.result;
    const HookDefinition& hook = *run.hook;
    HookNote note{hook.label(), std::string(toString(event)), "", ""};
    const std::string message = result.text("systemMessage");
    const bool quiet = result.flag("suppressOutput", false);
    if (result.kind == HookResult::Kind::cancelled) continue;
    if (result.kind == HookResult::Kind::failed) {
      note.decision = "failed";
      note.message = result.why;
      if (guards) {
        verdict.blocked = true;
        appendLine(verdict.reason, "hook " + hook.label() + " failed (" + result.why + ")");
      }
      verdict.notes.push_back(std::move(note));
      continue;
    }
    if (const json::Value* specific = result.specific()) mergeSpecific(event, *specific, verdict.specific);
    if (std::string context = result.specificText("additionalContext"); !context.empty()) {
      appendLine(verdict.context, markHookContext(hook, context));
    }
    const std::string decision = result.text("decision");
    const bool blocks = result.kind == HookResult::Kind::blocked || decision == "deny" || decision == "block";
    const bool stops = !result.flag("continue", true);
    std::string reason = result.kind == HookResult::Kind::blocked ? result.why : result.text("reason");
    if (decides && stops) {
      verdict.stop = true;
      std::string why = result.text("stopReason");
      if (why.empty()) why = reason;
      if (why.empty()) why = "hook " + hook.label() + " gave no reason";
      appendLine(verdict.stopReason, why);
      note.decision = "stopped the turn";
      note.message = why;
    } else if (decides && blocks) {
      verdict.blocked = true;
      if (reason.empty()) reason = "hook " + hook.label() + " gave no reason";
      appendLine(verdict.reason, reason);
      note.decision = "blocked";
      note.message = reason;
    } else if (decides && decision == "ask") {
      verdict.ask = true;
      appendLine(verdict.reason, reason);
      note.decision = "asked for your approval";
      note.message = reason.empty() ? message : reason;
    } else if (!decides && result.kind == HookResult::Kind::blocked) {
      note.decision = "exited with status 2, which " + note.event + " hooks cannot use to block";
      note.message = reason;
    } else {
      note.decision = decides ? "allowed" : "ran";
      if (event == HookEvent::BeforeTool && result.specific() && json::find(*result.specific(), "tool_input")) {
        note.decision = "changed the input";
      }
      note.message = message;
      if (quiet || (!notifications && message.empty())) continue;
    }
    if (!message.empty() && note.message != message) note.message += (note.message.empty() ? "" : " — ") + message;
    verdict.notes.push_back(std::move(note));
  }
  return verdict;
}

ToolSelection selectTools(const std::vector<HookRun>& runs) {
  ToolSelection selection;
  bool any = false;
  for (const HookRun& run : runs) {
    if (run.result.kind == HookResult::Kind::failed || run.result.kind == HookResult::Kind::blocked) {
      selection.mode = ToolSelection::Mode::none;
      continue;
    }
    const json::Value* specific = run.result.specific();
    const json::Value* config = specific ? json::find(*specific, "toolConfig") : nullptr;
    if (!config || !config->IsObject()) continue;
    const std::string mode = json::getStr(*config, "mode").value_or("");
    if (mode == "NONE") selection.mode = ToolSelection::Mode::none;
    if (mode == "ANY") any = true;
    if (const json::Value* names = json::find(*config, "allowedFunctionNames"); names && names->IsArray()) {
      for (const auto& name : names->GetArray()) {
        if (name.IsString()) selection.allowed.emplace(name.GetString(), name.GetStringLength());
      }
    }
  }
  if (selection.mode == ToolSelection::Mode::none) {
    selection.allowed.clear();
  } else if (any) {
    selection.mode = ToolSelection::Mode::any;
  }
  return selection;
}

}  // namespace lathe::engine
