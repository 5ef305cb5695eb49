// Which extensions are enabled where, as Gemini CLI 0.61 keeps it in
// ~/.gemini/extensions/extension-enablement.json: per extension a list of
// rules ("/path/" for that folder, "/path/*" for it and everything below,
// a leading "!" to disable), the last rule matching the workspace winning;
// no matching rule means enabled. Reading and writing the file; any thread.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::engine {

class ExtensionEnablement {
 public:
  explicit ExtensionEnablement(std::string file) : file_(std::move(file)) {}

  // The rules in the file; a missing file has none. A broken file is an
  // error naming it (Gemini CLI then treats every extension as enabled).
  Result<std::map<std::string, std::vector<std::string>>> read() const;

  // Whether `extension` is enabled in `folder` (absolute).
  static bool enabledIn(const std::vector<std::string>& rules, const std::string& folder);
  bool isEnabled(const std::string& extension, const std::string& folder) const;

  // Enables or disables `extension` in `folder` and every folder below it,
  // replacing rules it makes moot, as Gemini CLI does. Writes the file atomically.
  Status enable(const std::string& extension, const std::string& folder);
  Status disable(const std::string& extension, const std::string& folder);
  // Forgets the extension's rules (uninstalled).
  Status remove(const std::string& extension);

 private:
  Status write(const std::map<std::string, std::vector<std::string>>& rules) const;
  Status addRule(const std::string& extension, const std::string& rule);

  std::string file_;
};

}  // namespace lathe::engine
