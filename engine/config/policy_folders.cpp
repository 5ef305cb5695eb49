// Policy folders by tier.
#include "engine/config/policy_folders.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

// The administrator's folder counts only when it is root's and nobody else
// may change it (Gemini CLI's check), else anyone could write the rules
// that outrank the person's.
std::string insecureSystemFolder(const std::string& folder) {
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) return "";  // absent: nothing to read
  if (!S_ISDIR(st.st_mode)) return folder + " is not a folder";
  if (st.st_uid != 0) return folder + " is not owned by root";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return folder + " may be changed by others than root";
  return "";
}

// The person's files count only when others cannot change them.
std::string othersCanWrite(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  if (st.st_uid != ::getuid() && st.st_uid != 0) return path + " belongs to another user";
  if ((st.st_mode & S_IWOTH) && !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))) return path + " may be changed by anyone";
  return "";
}

void addAll(LoadedPolicies& into, LoadedPolicies more) {
  for (auto& rule : more.rules.rules) into.rules.rules.push_back(std::move(rule));
  for (auto& file : more.rules.unread) into.rules.unread.push_back(std::move(file));
  for (auto& problem : more.problems) into.problems.push_back(std::move(problem));
}

// Reads a person's own sources: files others could change are left out.
LoadedPolicies readOwn(const std::vector<PolicySource>& sources) {
  LoadedPolicies out;
  for (const auto& source : sources) {
    std::string unsafe = othersCanWrite(source.path);
    for (const auto& file : policyFilesOf(source)) {
      if (!unsafe.empty()) break;
      unsafe = othersCanWrite(file);
    }
    if (!unsafe.empty()) {
      out.problems.push_back(source.path + ": left out: " + unsafe);
      out.rules.unread.push_back(source.path);
      continue;
    }
    addAll(out, readPolicySources({source}));
  }
  return out;
}

}  // namespace

void addExtensionPolicies(PolicyFolders& folders, const std::string& extension, const std::string& folder) {
  folders.extensions.push_back({folder, PolicyTier::extension, extension, {}});
}

LoadedPolicies readPersonalPolicies(const PolicyFolders& folders) {
  LoadedPolicies out;
  std::vector<PolicySource> admin;
  if (std::string insecure = insecureSystemFolder(folders.system); !insecure.empty()) {
    out.problems.push_back("The administrator's policies were left out: " + insecure + ".");
    out.rules.unread.push_back(folders.system);
  } else {
    admin.push_back({folders.system, PolicyTier::admin, "", {}});
  }
  // Supplemental admin paths must not override an established system
  // policy (whether or not that folder could be used).
  bool systemHasFiles = !policyFilesOf({folders.system, PolicyTier::admin, "", {}}).empty();
  if (systemHasFiles && !folders.adminPaths.empty()) {
    out.problems.push_back("adminPolicyPaths was ignored: " + folders.system + " already holds the administrator's policies.");
  } else {
    for (const auto& path : folders.adminPaths) admin.push_back({path, PolicyTier::admin, "", {}});
  }
  addAll(out, readPolicySources(admin));
  std::vector<PolicySource> user;
  std::vector<std::string> skip{folders.keptEverywhere};
  if (folders.userPaths.empty()) {
    if (!folders.user.empty()) user.push_back({folders.user, PolicyTier::user, "", skip});
  } else {
    for (const auto& path : folders.userPaths) user.push_back({path, PolicyTier::user, "", skip});
  }
  addAll(out, readOwn(user));
  for (const auto& extension : folders.extensions) {
    LoadedPolicies theirs = readPolicySources({extension});
    size_t dropped = std::erase_if(theirs.rules.rules, [](const PolicyRule& rule) {
      return rule.decision == PolicyDecision::allow ||
             std::find(rule.modes.begin(), rule.modes.end(), ApprovalMode::yolo) != rule.modes.end();
    });
    if (dropped > 0) {
      theirs.problems.push_back("Extension " + extension.owner + ": " + std::to_string(dropped) +
                                " policy rules were ignored: an extension's rules may not allow anything to run unasked "
                                "or apply in yolo mode.");
    }
    addAll(out, std::move(theirs));
  }
  return out;
}

WorkspacePolicies readWorkspacePolicies(const std::string& root, const PolicyFolders& folders) {
  namespace fs = std::filesystem;
  WorkspacePolicies out;
  out.folder = root + "/.gemini/policies";
  std::error_code ec;
  if (!fs::is_directory(out.folder, ec)) return out;
  if (!folders.user.empty() && fs::equivalent(out.folder, folders.user, ec)) return out;
  LoadedPolicies read = readPolicySources({{out.folder, PolicyTier::workspace, "", {}}});
  out.problems = std::move(read.problems);
  out.now.unread = std::move(read.rules.unread);
  for (auto& rule : read.rules.rules) {
    (rule.decision == PolicyDecision::allow ? out.widening : out.now).rules.push_back(std::move(rule));
  }
  if (!out.widening.rules.empty()) {
    out.wideningText = json::buildObject([&](json::Writer& w) {
      json::array(w, "policies", [&] {
        for (const auto& rule : out.widening.rules) {
          json::object(w, [&] {
            json::put(w, "file", rule.origin.file);
            json::key(w, "rule");
            json::raw(w, json::Raw{rule.asWritten});
          });
        }
      });
    });
  }
  return out;
}

}  // namespace lathe::engine
