// What the shell tools of one session share and no other tool needs: how
// commands run (settings and flags) and the session's background commands.
// Set up once per session; the background commands are thread-safe.
#pragma once

#include <cstdint>
#include <memory>

namespace lathe::tools {

namespace shell {
class BackgroundProcesses;
}

struct ShellOptions {
  bool sandbox = false;            // run under bubblewrap
  bool sandboxNetwork = false;     // let sandboxed commands reach the network
  int64_t inactivitySeconds = 300; // no output for this long ends the command
  int64_t maxOutputChars = 40'000; // beyond this, the model gets head and tail
  bool editorTerminal = false;     // approved lines run in the editor's terminal when it offers terminal/*
};

struct ShellSetup {
  ShellOptions options;
  std::shared_ptr<shell::BackgroundProcesses> background;  // none: background commands are refused
};

}  // namespace lathe::tools
