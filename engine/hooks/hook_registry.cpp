// Hook registry and plans.
#include "engine/hooks/hook_registry.h"

#include <algorithm>
#include <optional>
#include <set>

#include "tools/search/text_search.h"

namespace lathe::engine {

struct HookRegistry::Entry {
  std::shared_ptr<const HookDefinition> hook;
  std::optional<tools::TextMatcher> regex;  // tool events' matcher, when it compiles

  bool matches(const std::vector<std::string>& targets) const {
    const std::string& matcher = hook->matcher;
    if (targets.empty() || matcher.empty() || matcher == "*") return true;
    for (const auto& target : targets) {
      if (!matchesToolNames(hook->event) || !regex) {
        if (matcher == target) return true;
        continue;
      }
      auto scratch = regex->makeScratch();
      if (regex->matchesLine(target, *scratch)) return true;
    }
    return false;
  }
};

namespace {

int rank(HookOrigin origin) {
  switch (origin) {
    case HookOrigin::workspace: return 0;
    case HookOrigin::user: return 1;
    case HookOrigin::extension: return 2;
  }
  return 3;
}

}  // namespace

void HookRegistry::add(const HookSet& set) {
  std::vector<std::shared_ptr<const Entry>> added;
  for (const HookDefinition& definition : set.definitions) {
    auto entry = std::make_shared<Entry>();
    entry->hook = std::make_shared<const HookDefinition>(definition);
    const std::string& matcher = definition.matcher;
    if (matchesToolNames(definition.event) && !matcher.empty() && matcher != "*") {
      auto compiled = tools::TextMatcher::compile(tools::TextQuery{matcher, /*caseSensitive=*/true, false});
      if (compiled) entry->regex = std::move(compiled).value();
    }
    added.push_back(std::move(entry));
  }
  std::lock_guard lock(mutex_);
  entries_.insert(entries_.end(), added.begin(), added.end());
  std::stable_sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
    return rank(a->hook->source.origin) < rank(b->hook->source.origin);
  });
}

HookRegistry::Plan HookRegistry::plan(HookEvent event, const std::vector<std::string>& targets) const {
  Plan plan;
  if (!options_.enabled) return plan;
  std::vector<std::shared_ptr<const Entry>> entries;
  {
    std::lock_guard lock(mutex_);
    entries = entries_;
  }
  std::set<std::string> seen;
  for (const auto& entry : entries) {
    const HookDefinition& hook = *entry->hook;
    if (hook.event != event || !entry->matches(targets)) continue;
    const auto& disabled = options_.disabled;
    if (std::find(disabled.begin(), disabled.end(), hook.label()) != disabled.end()) continue;
    if (!seen.insert(hook.name + ":" + hook.command).second) continue;
    plan.sequential = plan.sequential || hook.sequential;
    plan.hooks.push_back(entry->hook);
  }
  return plan;
}

bool HookRegistry::has(HookEvent event) const {
  if (!options_.enabled) return false;
  std::lock_guard lock(mutex_);
  return std::any_of(entries_.begin(), entries_.end(), [&](const auto& e) { return e->hook->event == event; });
}

bool HookRegistry::empty() const {
  std::lock_guard lock(mutex_);
  return !options_.enabled || entries_.empty();
}

}  // namespace lathe::engine
