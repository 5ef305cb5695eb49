// Whether Gemini CLI already trusts a folder, in its own terms, so that a
// person who trusted a repository there is not asked again by Lathe (and one
// who distrusted it is not asked either): the one workspace-consent path
// (engine/agent/workspace_consent.h) counts this for every program a
// workspace's settings start (MCP servers, discovery, hooks) and for its
// settings that let more run unasked.
//
// Gemini CLI 0.61's rules (its core's utils/trust.js):
// - GEMINI_RESTRICTED_MODE=true or GEMINI_CLI_TRUST_WORKSPACE=false: not trusted;
// - GEMINI_CLI_TRUST_WORKSPACE=true: trusted;
// - else its trusted-folders file ($GEMINI_CLI_TRUSTED_FOLDERS_PATH, else
//   <GEMINI_CLI_HOME or HOME>/.gemini/trustedFolders.json, JSON with
//   comments): {"<path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"};
//   a rule covers its folder and everything below (TRUST_PARENT: the folder
//   that holds it), paths compared after resolving symbolic links, and of
//   the rules that cover the folder the one with the longest path decides.
// When Gemini CLI's folder-trust feature is off it trusts every folder; that
// is no choice about this one, so it does not count: only the variables and
// the file's rules do. A broken file counts for nothing and is reported.
// Reads one small file; any thread.
#pragma once

#include <string>

#include "engine/config/program_settings.h"

namespace lathe::engine {

enum class FolderTrust { unknown, trusted, untrusted };

struct FolderTrustVerdict {
  FolderTrust trust = FolderTrust::unknown;
  std::string why;      // what decided, for the person (a variable, or the file and its rule)
  std::string problem;  // a broken trusted-folders file, for the person; empty: none
};

// Where Gemini CLI keeps its trusted folders; empty when no home is known.
std::string trustedFoldersPath(const EnvLookup& env);

FolderTrustVerdict geminiFolderTrust(const std::string& folder, const EnvLookup& env = processEnvironment());

}  // namespace lathe::engine
