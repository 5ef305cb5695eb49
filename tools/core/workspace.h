// The workspace roots of a session and the confinement of every path a tool
// touches. Immutable after creation; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools {

class Workspace {
 public:
  // Roots must be absolute, existing directories; they are canonicalised.
  static Result<Workspace> create(const std::string& cwd, const std::vector<std::string>& additionalRoots = {});

  const std::string& cwd() const { return roots_.front(); }
  const std::vector<std::string>& roots() const { return roots_; }

  // Resolves a path from the model (absolute, or relative to cwd) to a
  // canonical absolute path inside one of the roots. Symlinks are followed as
  // far as the path exists, so a link that leads out is refused. Errc::not_found
  // is never returned here: a path that does not exist yet may still be valid.
  Result<std::string> resolve(std::string_view path) const;

  bool contains(const std::string& canonicalPath) const;
  // A path relative to the root that holds it (for display), else the path.
  std::string relative(const std::string& absolutePath) const;

 private:
  std::vector<std::string> roots_;
};

}  // namespace lathe::tools
