// Where a session's policy rules come from, tier by tier, as Gemini CLI 0.61
// finds them: the administrator's (/etc/gemini-cli/policies, which must be
// root's and writable by nobody else, and the adminPolicyPaths setting,
// ignored when that folder has files), the person's (~/.gemini/policies,
// $GEMINI_CLI_HOME honoured, or the policyPaths setting instead), the
// extensions' (each extension's policies/ folder), and the workspace's
// (<root>/.gemini/policies). Gemini CLI 0.61 reads no workspace folder yet
// (its tier is switched off); Lathe reads it at the workspace tier: its
// rules that refuse or ask apply at once, those that allow more to run
// unasked only with the workspace's consent (the consent its programs and
// widening settings need, engine/agent/workspace_consent.h). An extension's
// rules never allow, and never apply in yolo mode (as in Gemini CLI).
// Reads files; any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/config/policy_files.h"

namespace lathe::engine {

struct PolicyFolders {
  std::string user;                     // ~/.gemini/policies
  std::vector<std::string> userPaths;   // settings policyPaths: used instead of `user` when set
  std::string system = "/etc/gemini-cli/policies";
  std::vector<std::string> adminPaths;  // settings adminPolicyPaths
  std::vector<PolicySource> extensions;  // added by addExtensionPolicies
  std::string keptEverywhere;  // the person's auto-saved.toml: answers kept for every workspace
  std::string keptDir;         // the answers kept for each workspace, a file per workspace
};

// The extension loader's one entry point: the rules in `folder` (the
// extension's policies/ folder, or a .toml file) join every later session
// at the extension tier, named after `extension`.
void addExtensionPolicies(PolicyFolders& folders, const std::string& extension, const std::string& folder);

// The person's, the administrator's and the extensions' rules; problems are
// files left out or rules ignored, one line each, for the person.
LoadedPolicies readPersonalPolicies(const PolicyFolders& folders);

struct WorkspacePolicies {
  std::string folder;       // <root>/.gemini/policies
  PolicyRules now;          // deny and ask_user rules: in force at once
  PolicyRules widening;     // allow rules: only with the workspace's consent
  std::string wideningText; // the allow rules as the consent covers them (canonical); empty: none
  std::vector<std::string> problems;
};

// A workspace's rules; nothing when its folder is the person's own (a
// workspace at the home folder).
WorkspacePolicies readWorkspacePolicies(const std::string& root, const PolicyFolders& folders);

}  // namespace lathe::engine
