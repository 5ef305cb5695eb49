// Building a child's environment from the parent's. Pure; any thread.
#include "tools/process/environment.h"

#include <algorithm>
#include <string_view>

extern char** environ;

namespace lathe::tools::process {
namespace {

std::string_view nameOf(std::string_view entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

std::vector<std::string> buildEnvironment(const char* const* base, const EnvironmentChanges& changes) {
  auto dropped = [&](std::string_view name) {
    auto same = [&](const std::string& n) { return n == name; };
    return std::any_of(changes.unset.begin(), changes.unset.end(), same) ||
           std::any_of(changes.set.begin(), changes.set.end(), [&](const auto& s) { return s.first == name; });
  };
  std::vector<std::string> env;
  if (!changes.startEmpty) {
    for (const char* const* e = base; e && *e; ++e) {
      std::string_view entry(*e);
      if (!dropped(nameOf(entry))) env.emplace_back(entry);
    }
  }
  for (const auto& [name, value] : changes.set) {
    std::erase_if(env, [&](const std::string& e) { return nameOf(e) == name; });  // a later entry wins
    env.push_back(name + "=" + value);
  }
  return env;
}

std::vector<std::string> childEnvironment(const EnvironmentChanges& changes) {
  return buildEnvironment(environ, changes);
}

}  // namespace lathe::tools::process
