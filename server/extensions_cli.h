// `lathe extensions list | install <folder or git URL> | uninstall <name...>
// | enable <name> | disable <name> | link <folder>`: Gemini CLI 0.61's
// `gemini extensions` commands over the same ~/.gemini/extensions. Install
// and link show what the extension brings and ask on a terminal; without
// one, --consent says yes. Enable and disable take --scope user (the
// default: the person's home and below) or workspace (the current folder).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "engine/extensions/extension_loader.h"

namespace lathe::server {

struct ExtensionsCliSetup {
  std::string homeDir;  // $GEMINI_CLI_HOME, else $HOME
  std::string cwd;
  engine::ExtensionFilter filter;  // settings security.*Extensions
  bool terminal = false;           // stdin and stderr are a terminal: install asks there
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  std::FILE* in = stdin;
};

// Exit status: 0 done, 1 failed, 2 bad usage.
int runExtensionsCommand(const std::vector<std::string>& args, const ExtensionsCliSetup& setup);

}  // namespace lathe::server
