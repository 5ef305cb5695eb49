// The environment a child process starts with: the parent's (or none), with
// variables added, overridden and removed. Pure functions; any thread.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lathe::tools::process {

struct EnvironmentChanges {
  bool startEmpty = false;  // start from nothing instead of the parent's environment
  // Added or overridden, in order: a later entry for the same name wins.
  std::vector<std::pair<std::string, std::string>> set;
  std::vector<std::string> unset;  // removed (applied before `set`)
};

// "NAME=value" entries: `base` (a NULL-terminated environ-style array, may be
// null) with `changes` applied.
std::vector<std::string> buildEnvironment(const char* const* base, const EnvironmentChanges& changes);

// buildEnvironment over this process's own environment.
std::vector<std::string> childEnvironment(const EnvironmentChanges& changes);

}  // namespace lathe::tools::process
