// Tells when files change in some folders and everything below them
// (created, written, removed, renamed), through inotify on the executor's
// reactor: no thread or polling of its own, and one inotify descriptor per
// executor however many watches there are. A folder that does not exist
// yet is watched for through its nearest existing parent, so creating it
// counts too. A burst of changes is told once, `quiet` after the last; the
// watches are then renewed (new subfolders included) and onChange runs on
// a worker, one call at a time. Linux only.
//
// Threads: start, stop and the destructor from any thread but onChange's
// own; after stop() returns onChange never runs and is not running.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "protocol/exec/executor.h"

namespace lathe::exec {

class FolderWatch {
 public:
  FolderWatch();
  FolderWatch(FolderWatch&&) noexcept;
  FolderWatch& operator=(FolderWatch&&) noexcept;
  ~FolderWatch();  // stop()

  // An empty watch (watching() false) when inotify cannot be had.
  static FolderWatch start(Executor& executor, std::vector<std::string> folders, std::function<void()> onChange,
                           std::chrono::milliseconds quiet = std::chrono::milliseconds(100));

  void stop();
  bool watching() const { return state_ != nullptr; }

  struct State;

 private:
  explicit FolderWatch(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace lathe::exec
