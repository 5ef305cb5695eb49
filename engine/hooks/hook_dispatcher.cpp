// Firing hook events.
#include "engine/hooks/hook_dispatcher.h"

#include <atomic>
#include <chrono>
#include <ctime>

#include "protocol/exec/task_group.h"

namespace lathe::engine {
namespace {

// ISO 8601 in UTC with milliseconds, as JavaScript's toISOString writes it.
std::string isoTimestamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t seconds = system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  char out[40];
  std::snprintf(out, sizeof out, "%s.%03lldZ", text, static_cast<long long>(millis));
  return out;
}

}  // namespace

void overlayMembers(json::Value& into, const json::Value& from, json::Document::AllocatorType& alloc) {
  if (!into.IsObject() || !from.IsObject()) return;
  for (const auto& member : from.GetObject()) {
    json::Value copy(member.value, alloc);
    if (auto it = into.FindMember(member.name); it != into.MemberEnd()) {
      it->value = std::move(copy);
    } else {
      into.AddMember(json::Value(member.name, alloc), std::move(copy), alloc);
    }
  }
}

void chainHookInput(HookEvent event, const HookResult& result, json::Document& input) {
  const json::Value* specific = result.specific();
  if (!specific || !input.IsObject()) return;
  auto& alloc = input.GetAllocator();
  auto member = [&](const char* name) -> json::Value* {
    auto it = input.FindMember(name);
    return it == input.MemberEnd() ? nullptr : &it->value;
  };
  if (event == HookEvent::BeforeAgent) {
    const std::string context = result.specificText("additionalContext");
    json::Value* prompt = member("prompt");
    if (!context.empty() && prompt && prompt->IsString()) {
      std::string text = std::string(prompt->GetString(), prompt->GetStringLength()) + "\n\n" + context;
      prompt->SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), alloc);
    }
  } else if (event == HookEvent::BeforeModel || event == HookEvent::BeforeTool) {
    const char* field = event == HookEvent::BeforeModel ? "llm_request" : "tool_input";
    const json::Value* change = json::find(*specific, field);
    if (json::Value* current = member(field); change && current) overlayMembers(*current, *change, alloc);
  }
}

HookDispatcher::HookDispatcher(std::shared_ptr<HookRegistry> registry, HookPlace place, HookRunner runner)
    : registry_(std::move(registry)), place_(std::move(place)), runner_(std::move(runner)) {}

std::string HookDispatcher::inputFor(HookEvent event, const std::string& fields) const {
  std::string base = json::buildObject([&](json::Writer& w) {
    json::put(w, "session_id", place_.sessionId);
    // Lathe's records are not Gemini CLI's transcript format: none is named.
    json::put(w, "transcript_path", "");
    json::put(w, "cwd", place_.projectDir);
    json::put(w, "hook_event_name", toString(event));
    json::put(w, "timestamp", isoTimestamp());
  });
  if (fields.size() <= 2) return base;  // "{}"
  base.back() = ',';
  return base + fields.substr(1);
}

std::vector<HookRun> HookDispatcher::fire(HookEvent event, const std::vector<std::string>& targets,
                                          const std::string& fields, const CancelToken& cancel, const Only& only) const {
  HookRegistry::Plan plan = registry_->plan(event, targets);
  if (only) std::erase_if(plan.hooks, [&](const auto& hook) { return !only(*hook); });
  std::vector<HookRun> runs(plan.hooks.size());
  if (runs.empty()) return runs;
  const std::string input = inputFor(event, fields);
  if (plan.sequential) {
    auto chained = json::parse(input);
    for (size_t i = 0; i < runs.size(); ++i) {
      runs[i] = {plan.hooks[i], runner_(*plan.hooks[i], chained ? json::stringify(*chained) : input, place_, cancel)};
      if (chained && runs[i].result.kind == HookResult::Kind::answered) chainHookInput(event, runs[i].result, *chained);
    }
    return runs;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1)) < runs.size();) {
      runs[k] = {plan.hooks[k], runner_(*plan.hooks[k], input, place_, cancel)};
    }
  };
  exec::TaskGroup helpers;
  for (size_t n = 1; n < runs.size(); ++n) helpers.post([&](const CancelToken&) { work(); });
  work();  // this thread runs hooks too
  helpers.join();
  return runs;
}

}  // namespace lathe::engine
