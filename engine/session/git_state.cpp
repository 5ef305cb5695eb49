// Git state through the git program (no library reads the index as git does).
#include "engine/session/git_state.h"

#include <string_view>

#include "tools/process/captured_run.h"

namespace lathe::engine {

std::optional<GitState> readGitState(const std::string& dir, const CancelToken& cancel, std::chrono::milliseconds timeout) {
  tools::process::CapturedRunSpec spec;
  spec.argv = {"git", "status", "--porcelain=v2", "--branch", "--untracked-files=normal"};
  spec.cwd = dir;
  // Reading must never take the index lock a person's own git command may need.
  spec.env.set = {{"GIT_OPTIONAL_LOCKS", "0"}, {"LC_ALL", "C"}};
  spec.timeout = timeout;
  spec.maxOutputBytes = 4 * 1024 * 1024;
  auto run = tools::process::runCaptured(spec, cancel);
  if (!run || !run->ok()) return std::nullopt;
  GitState state;
  std::string_view rest = run->out;
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.starts_with("# branch.head ")) {
      state.branch = line.substr(14);
    } else if (!line.empty() && line[0] != '#') {
      ++state.changedFiles;
    }
  }
  state.dirty = state.changedFiles > 0;
  return state;
}

std::string describeGitState(const GitState& state) {
  std::string out = "branch " + state.branch + ", ";
  if (!state.dirty) return out + "no uncommitted changes";
  return out + std::to_string(state.changedFiles) + (state.changedFiles == 1 ? " file" : " files") +
         " changed or untracked (uncommitted work: never discard it)";
}

}  // namespace lathe::engine
