// Loading the extensions installed under ~/.gemini/extensions for one
// workspace, as Gemini CLI 0.61 does: every folder there with its
// gemini-extension.json (name and version required, the name of letters,
// digits and '-'), links followed to their source, each enabled or not for
// the workspace. An extension that cannot be loaded is a problem naming its
// folder and what is wrong; the others load. Reads the disk; any thread.
#pragma once

#include <string>
#include <vector>

#include "engine/config/program_settings.h"
#include "engine/extensions/extension.h"
#include "protocol/base/result.h"

namespace lathe::engine {

struct ExtensionScan {
  std::vector<Extension> extensions;  // by folder name
  std::vector<std::string> problems;  // "where: what"
};

// Which installed extensions may load (settings security.blockGitExtensions
// and security.allowedExtensions): one not allowed is left out and the
// person told why.
struct ExtensionFilter {
  bool blockGit = false;
  std::vector<std::string> allowedSources;  // ECMAScript patterns searched in the install source; empty: any
};

// `geminiDir`: ~/.gemini (or $GEMINI_CLI_HOME/.gemini); empty: none.
ExtensionScan loadExtensions(const std::string& geminiDir, const std::string& workspaceDir,
                             const EnvLookup& env = processEnvironment(), const ExtensionFilter& filter = {});

// Why the filter keeps an extension installed from `install` out, or "".
std::string filteredOut(const std::optional<InstallMetadata>& install, const ExtensionFilter& filter);

// One extension from its folder (installed, or a source about to be), with
// problems that do not stop it (a context file name refused, bad hooks)
// added to `notes`. `extensionsDir` is where its .env is looked for.
Result<Extension> readExtension(const std::string& dir, const std::string& extensionsDir,
                                const std::string& workspaceDir, const EnvLookup& env,
                                std::vector<std::string>& notes);

// What the extension's settings file and folder are called.
inline constexpr const char* kManifestName = "gemini-extension.json";
inline constexpr const char* kInstallMetadataName = ".gemini-extension-install.json";
inline constexpr const char* kEnablementName = "extension-enablement.json";

}  // namespace lathe::engine
