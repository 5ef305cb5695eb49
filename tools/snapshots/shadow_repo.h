// A shadow git repository of one workspace folder, kept outside the folder
// (libgit2, only in shadow_repo.cpp): snapshots of the folder as trees, the
// ignore files honoured and files over a size left out; the changes between
// two snapshots; blobs by id. The folder's own repository, if it has one, is
// never opened. Sessions and processes may share one shadow repository: a
// snapshot holds its lock file while it updates the index. One thread at a
// time per object.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools {

class ShadowRepo {
 public:
  // Opens the shadow repository at `gitDir` (created when missing) for `folder` (absolute).
  static Result<std::unique_ptr<ShadowRepo>> open(const std::string& gitDir, const std::string& folder,
                                                  int64_t maxFileBytes);
  ~ShadowRepo();
  ShadowRepo(const ShadowRepo&) = delete;
  ShadowRepo& operator=(const ShadowRepo&) = delete;

  const std::string& folder() const;

  // The folder as it is now: a tree id.
  Result<std::string> snapshot();

  // A file that differs between two trees; blob ids, empty where it is absent.
  struct Change {
    std::string path;  // absolute
    std::string before;
    std::string after;
  };
  Result<std::vector<Change>> changes(const std::string& fromTree, const std::string& toTree);

  Result<std::string> put(std::string_view bytes);  // a blob id
  Result<std::string> read(const std::string& blob);
  bool binary(const std::string& blob);
  int64_t size(const std::string& blob);  // -1 when unknown

 private:
  struct Impl;
  explicit ShadowRepo(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The shadow repository's folder for a workspace folder: one per folder under `base`.
std::string shadowRepoDir(const std::string& base, const std::string& folder);

}  // namespace lathe::tools
