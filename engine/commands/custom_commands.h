// The session's custom commands (file_commands.h) as one of its hooks: they
// join its registry as the group "files", are loaded again when a file in
// their folders changes (the session's folder watch), and each problem
// (a broken file, a missing prompt) is told to the person once, from when
// the editor has the session; so are the problems found while the session
// was assembled (extensions, skills), given to it. Running a command
// expands its prompt (command_template.h) and runs its injections through
// the session's scheduler, judged and asked about as the model's calls are
// (`!{…}` as run_shell_command, `@{…}` as read_many_files): when one may
// not run, the person is told why on a card of its own and nothing reaches
// the model.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/commands/command_registry.h"
#include "engine/commands/file_commands.h"
#include "engine/session/session.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class CustomCommands final : public TurnHooks {
 public:
  CustomCommands(Session& session, CommandRegistry& registry, std::vector<CommandFolder> folders,
                 std::vector<acp::Notice> assemblyProblems = {});

  // Reads the folders and puts their commands in the registry (once now,
  // again on every change when watching). Any thread.
  void load();
  // Loads again whenever the folders change, as long as the session lasts (Session::watchFolders).
  void watch();

  void onEditorReady() override;

  static constexpr const char* kGroup = "files";

 private:
  void tell(const std::vector<std::string>& problems);

  Session& session_;  // the hook is the session's: it never outlives it
  CommandRegistry& registry_;
  std::vector<CommandFolder> folders_;
  std::mutex mutex_;
  bool ready_ = false;                      // the editor has the session
  std::vector<std::string> pending_;        // problems until then
  std::vector<acp::Notice> assemblyProblems_;
};

}  // namespace lathe::engine
