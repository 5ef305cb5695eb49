// /extensions: the extensions installed for Gemini CLI and Lathe
// (~/.gemini/extensions), whether each is enabled here, and what each
// brings; and, as Gemini CLI's /extensions does, `install <folder or git
// URL> [--ref REF]`, `link <folder>`, `uninstall <name>`, `enable <name>`
// and `disable <name>` (`--scope user|workspace`, user by default), the same
// as `lathe extensions ...` on the command line. Installing asks the person
// first, showing what the extension brings and runs (refused or
// unanswered, nothing is installed). Changes apply from the next session.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/commands/command_registry.h"
#include "engine/extensions/extension.h"
#include "engine/extensions/extension_store.h"
#include "protocol/base/cancel.h"

namespace lathe::engine {

struct ExtensionsCommandSetup {
  std::vector<Extension> extensions;  // as the session loaded them
  std::shared_ptr<const ExtensionStore> store;  // null: no home folder, nothing to manage
  std::string home;       // the user scope's folder
  std::string workspace;  // the workspace scope's folder
  // The person's answer to installing what `text` describes; false unless they agreed.
  std::function<bool(const std::string& text, const CancelToken& cancel)> agree;
};

void addExtensionsCommand(CommandRegistry& registry, ExtensionsCommandSetup setup);

// What /extensions prints (and `lathe extensions list`), for those extensions.
std::string describeExtensions(const std::vector<Extension>& extensions);

}  // namespace lathe::engine
