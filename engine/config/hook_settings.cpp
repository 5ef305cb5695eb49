// Reading hook definitions.
#include "engine/config/hook_settings.h"

#include <algorithm>
#include <cmath>

#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

constexpr EnumName<HookEvent> kEvents[] = {
    {HookEvent::BeforeTool, "BeforeTool"},
    {HookEvent::AfterTool, "AfterTool"},
    {HookEvent::BeforeAgent, "BeforeAgent"},
    {HookEvent::AfterAgent, "AfterAgent"},
    {HookEvent::BeforeModel, "BeforeModel"},
    {HookEvent::AfterModel, "AfterModel"},
    {HookEvent::BeforeToolSelection, "BeforeToolSelection"},
    {HookEvent::SessionStart, "SessionStart"},
    {HookEvent::SessionEnd, "SessionEnd"},
    {HookEvent::PreCompress, "PreCompress"},
    {HookEvent::Notification, "Notification"},
};

// Members of `hooks` that are not events (Gemini CLI skips them there too).
constexpr std::string_view kConfigFields[] = {"enabled", "disabled", "notifications"};

std::string text(const json::Value& value) { return {value.GetString(), value.GetStringLength()}; }

std::string eventList() {
  std::string names;
  for (const auto& row : kEvents) names += (names.empty() ? "" : ", ") + std::string(row.name);
  return names;
}

// One definition's problems and hooks, read as `where` names it.
class DefinitionReader {
 public:
  DefinitionReader(HookEvent event, const HookSource& source, std::string where, HookSet& out)
      : event_(event), source_(source), where_(std::move(where)), out_(out) {}

  void read(const json::Value& definition) {
    if (!definition.IsObject()) return problem(where_, "a hook definition must be an object with a \"hooks\" array");
    const json::Value* hooks = json::find(definition, "hooks");
    if (!hooks || !hooks->IsArray()) return problem(where_ + ".hooks", "must be an array of hooks");
    std::string matcher;
    if (const json::Value* m = json::find(definition, "matcher"); m && !m->IsNull()) {
      if (!m->IsString()) return problem(where_ + ".matcher", "must be a string");
      matcher = text(*m);
    }
    bool sequential = false;
    if (const json::Value* s = json::find(definition, "sequential"); s && !s->IsNull()) {
      if (!s->IsBool()) return problem(where_ + ".sequential", "must be true or false");
      sequential = s->GetBool();
    }
    for (rapidjson::SizeType i = 0; i < hooks->Size(); ++i) {
      readHook((*hooks)[i], where_ + ".hooks[" + std::to_string(i) + "]", matcher, sequential);
    }
  }

 private:
  void problem(const std::string& where, const std::string& what) {
    out_.problems.push_back(source_.describe() + ": " + where + ": " + what + "; it does not run.");
  }

  std::optional<std::string> optString(const json::Value& hook, const char* key, const std::string& where) {
    const json::Value* v = json::find(hook, key);
    if (!v || v->IsNull()) return std::string();
    if (!v->IsString()) {
      problem(where + "." + key, "must be a string");
      return std::nullopt;
    }
    return text(*v);
  }

  void readHook(const json::Value& hook, const std::string& where, const std::string& matcher, bool sequential) {
    if (!hook.IsObject()) return problem(where, "a hook must be an object");
    const json::Value* type = json::find(hook, "type");
    if (!type || !type->IsString()) return problem(where + ".type", "is required (\"command\")");
    if (text(*type) != "command") {
      return problem(where + ".type", "\"" + text(*type) + "\" is not a hook type Lathe runs (only \"command\")");
    }
    HookDefinition definition;
    definition.event = event_;
    definition.matcher = matcher;
    definition.sequential = sequential;
    definition.source = source_;
    auto command = optString(hook, "command", where);
    auto name = optString(hook, "name", where);
    auto description = optString(hook, "description", where);
    if (!command || !name || !description) return;
    if (command->find_first_not_of(" \t\r\n") == std::string::npos) {
      return problem(where + ".command", "is required for a command hook");
    }
    definition.command = std::move(*command);
    definition.name = std::move(*name);
    definition.description = std::move(*description);
    if (const json::Value* timeout = json::find(hook, "timeout"); timeout && !timeout->IsNull()) {
      const double ms = timeout->IsNumber() ? timeout->GetDouble() : -1;
      if (!(ms >= 1 && ms <= 24.0 * 3600 * 1000)) {
        return problem(where + ".timeout", "must be a number of milliseconds from 1 (default 60000)");
      }
      definition.timeout = std::chrono::milliseconds(static_cast<int64_t>(std::ceil(ms)));
    }
    if (const json::Value* env = json::find(hook, "env"); env && !env->IsNull()) {
      if (!env->IsObject()) return problem(where + ".env", "must be an object of strings");
      for (const auto& member : env->GetObject()) {
        if (!member.value.IsString()) return problem(where + ".env." + text(member.name), "must be a string");
        definition.env.emplace_back(text(member.name), text(member.value));
      }
    }
    out_.definitions.push_back(std::move(definition));
  }

  HookEvent event_;
  const HookSource& source_;
  std::string where_;
  HookSet& out_;
};

}  // namespace

std::string_view toString(HookEvent event) { return nameOf(kEvents, event); }
std::optional<HookEvent> parseHookEvent(std::string_view name) { return valueOf(kEvents, name); }

bool matchesToolNames(HookEvent event) { return event == HookEvent::BeforeTool || event == HookEvent::AfterTool; }

std::string HookSource::describe() const {
  return origin == HookOrigin::extension ? "extension " + extension + " (" + file + ")" : file;
}

void HookSet::add(HookSet more) {
  definitions.insert(definitions.end(), std::make_move_iterator(more.definitions.begin()),
                     std::make_move_iterator(more.definitions.end()));
  problems.insert(problems.end(), std::make_move_iterator(more.problems.begin()),
                  std::make_move_iterator(more.problems.end()));
}

HookSet decodeHooks(const json::Value& hooks, const HookSource& source) {
  HookSet out;
  if (hooks.IsNull()) return out;
  if (!hooks.IsObject()) {
    out.problems.push_back(source.describe() + ": hooks: must be an object of events (" + eventList() +
                           "); no hook of it runs.");
    return out;
  }
  for (const auto& member : hooks.GetObject()) {
    const std::string name = text(member.name);
    if (std::find(std::begin(kConfigFields), std::end(kConfigFields), name) != std::end(kConfigFields)) continue;
    auto event = parseHookEvent(name);
    if (!event) {
      out.problems.push_back(source.describe() + ": hooks." + name + ": \"" + name +
                             "\" is not a hook event (Gemini CLI's are " + eventList() + "); its hooks do not run.");
      continue;
    }
    const std::string where = "hooks." + name;
    if (!member.value.IsArray()) {
      out.problems.push_back(source.describe() + ": " + where + ": must be an array of hook definitions; its hooks do not run.");
      continue;
    }
    for (rapidjson::SizeType i = 0; i < member.value.Size(); ++i) {
      DefinitionReader(*event, source, where + "[" + std::to_string(i) + "]", out).read(member.value[i]);
    }
  }
  return out;
}

}  // namespace lathe::engine
