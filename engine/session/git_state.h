// The branch and whether the working tree has changes, as the model should
// know them before it edits: from `git status --porcelain=v2 --branch`, bounded
// by a short deadline. The calling thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "protocol/base/cancel.h"

namespace lathe::engine {

struct GitState {
  std::string branch;  // "(detached)" when HEAD names no branch
  bool dirty = false;  // changed, staged or untracked files
  size_t changedFiles = 0;
};

// nullopt when `dir` is not in a git work tree, git is missing or too slow.
std::optional<GitState> readGitState(const std::string& dir, const CancelToken& cancel,
                                     std::chrono::milliseconds timeout = std::chrono::milliseconds{3000});

// One line for the model: "branch main, 3 files changed or untracked" / "branch main, clean".
std::string describeGitState(const GitState& state);

}  // namespace lathe::engine
