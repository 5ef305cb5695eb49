// A session's plan mode as its tools see it (Gemini CLI 0.61's plan mode):
// whether it is on, the folder its plans are written to (settings
// general.plan.directory inside the workspace, else the session's data
// folder), and how enter_plan_mode and exit_plan_mode switch the session's
// mode, which the engine announces. In plan mode write_file and replace may
// write only plan files: Markdown files directly in that folder. Thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "protocol/base/result.h"
#include "tools/core/workspace.h"

namespace lathe::tools {

class PlanMode {
 public:
  // `directory` absolute; `projectRoot` the workspace's (relative names may start there).
  PlanMode(std::string directory, std::string projectRoot);

  const std::string& directory() const { return directory_; }
  bool active() const { return active_.load(); }
  // The session's mode is plan now, or not (the engine, on every change).
  void setActive(bool on) { active_ = on; }

  // Switches the session to a mode ("plan", "default", "autoEdit") and tells
  // the editor: set by the engine; until then nothing happens.
  using Switch = std::function<void(const std::string& modeId)>;
  void setSwitch(Switch change);
  void switchTo(const std::string& modeId) const;

  // The folder (created on demand) as the only root plan files live under.
  Result<std::shared_ptr<const Workspace>> folder() const;
  // The plan file a model names: a file name (feature-x.md), or a path that
  // leads into the folder from the workspace root or absolutely; it must be
  // a Markdown file directly in the folder, no link leading out. The error
  // says what a plan file must be.
  Result<std::string> resolve(std::string_view name) const;

 private:
  std::string directory_;
  std::string projectRoot_;
  std::atomic<bool> active_{false};
  mutable std::mutex mutex_;
  Switch switch_;                                      // guarded by mutex_
  mutable std::shared_ptr<const Workspace> folder_;    // guarded by mutex_, once made
};

}  // namespace lathe::tools
