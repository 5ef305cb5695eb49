// What `lathe extensions` does to ~/.gemini/extensions, as Gemini CLI 0.61's
// `gemini extensions` does: install from a local folder (copied) or a git
// URL (cloned with git, then copied), link a local folder (used in place),
// uninstall, enable and disable for a folder and the ones below it (the
// person's home for the user scope). Installing writes the install record
// and enables the extension for the person; the caller asks the person
// first, showing consentText. Reads and writes the disk, runs git; any
// thread but the one that reads stdin.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/extensions/extension_loader.h"

namespace lathe::engine {

class ExtensionStore {
 public:
  // `geminiDir`: ~/.gemini; `home`: the folder the user scope means.
  ExtensionStore(std::string geminiDir, std::string home, EnvLookup env = processEnvironment(),
                 ExtensionFilter filter = {});

  const std::string& dir() const { return dir_; }
  ExtensionScan list(const std::string& workspaceDir) const;

  // The person's answer to what installing brings; false: nothing is installed.
  using Consent = std::function<bool(const std::string& text)>;
  // `source`: a folder, or a git URL (http(s)://, ssh://, git@, file://,
  // github:, gitlab:, sso://); `link` uses a folder where it is. Returns
  // what was installed; an error says why nothing was.
  Result<Extension> install(const std::string& source, const std::optional<std::string>& ref, bool link,
                            const std::string& cwd, const Consent& consent) const;
  Status uninstall(const std::string& nameOrSource) const;
  // `folder`: the person's home (user scope) or a workspace.
  Status setEnabled(const std::string& name, const std::string& folder, bool enabled) const;

 private:
  Result<Extension> placeInstalled(const std::string& from, InstallMetadata metadata, const std::string& cwd,
                                   const Consent& consent) const;

  std::string geminiDir_;
  std::string dir_;
  std::string home_;
  EnvLookup env_;
  ExtensionFilter filter_;
};

// Whether `source` names a git repository rather than a folder.
bool isGitSource(const std::string& source);

// What installing `ext` brings and runs, for the person to agree to.
std::string consentText(const Extension& ext);

}  // namespace lathe::engine
