// "Always" answers kept beyond the session, as Gemini CLI policy rules
// (engine/config/kept_rules.h): those for one workspace in a file of its own
// under Lathe's state folder (<keptDir>/<name>-<hash>.toml: outside the
// workspace, so nothing a repository brings can add to it, and only the
// person may write it), read at the workspace tier; those for every
// workspace in the person's ~/.gemini/policies/auto-saved.toml, the file
// Gemini CLI keeps its own answers in, read at the user tier (each program
// reads the other's). A file is rewritten whole (temporary file, fsync,
// rename, mode 600) under a lock shared by every Lathe process, and read
// again whenever it changed, so answers kept or revoked by another session
// apply at the next call. A broken file is never overwritten: the answer is
// then kept for the session only, and the person told why. Thread-safe.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/config/policy_folders.h"
#include "engine/scheduler/kept_answers.h"

namespace lathe::engine {

class KeptAnswersStore final : public KeptAnswers {
 public:
  struct Files {
    std::string workspaceRoot;
    std::string workspace;   // this workspace's file; empty: nothing kept per workspace
    std::string everywhere;  // the person's auto-saved.toml; empty: nothing kept for every workspace
    std::string lock;        // the lock file every writer takes
  };
  // The files for the workspace at `root`; empty names where a folder is unknown.
  static Files filesFor(const std::string& root, const PolicyFolders& folders);

  explicit KeptAnswersStore(Files files);

  std::shared_ptr<const PolicyRules> rules() override;
  bool canKeep(Lasting where) const override;
  Result<std::string> keep(const KeptAnswer& answer) override;

  struct Entry {
    Lasting where = Lasting::workspace;
    PolicyRule rule;
  };
  // The allow rules of both files, this workspace's first.
  std::vector<Entry> list();
  // Removes the rule, if the file still holds it as listed; the words say
  // what was removed.
  Result<std::string> revoke(const Entry& entry);
  // The files that cannot be read now, one line each.
  std::vector<std::string> problems();
  const Files& files() const { return files_; }

 private:
  struct Loaded {
    ino_t inode = 0;
    off_t size = -1;
    struct timespec modified {};
    struct timespec changed {};  // a chmod changes this alone
    bool present = false;
    PolicyRules rules;
    std::string problem;
  };
  void refreshLocked();
  bool refreshOne(const std::string& path, PolicyTier tier, Loaded& loaded);
  Result<std::string> rewrite(const std::string& path, PolicyTier tier,
                              const std::function<Result<bool>(json::Value& rules, json::Document& doc)>& change);

  Files files_;
  std::mutex mutex_;
  Loaded workspace_;
  Loaded everywhere_;
  std::shared_ptr<const PolicyRules> snapshot_;
};

}  // namespace lathe::engine
