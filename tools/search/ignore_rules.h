// Which files a search leaves out: .gitignore semantics (comments, `!`
// negation, trailing `/` for directories only, a leading or middle `/`
// anchoring to the ignore file's directory, `**`, `\#` `\!` escapes, trailing
// spaces) for nested .gitignore files, .git/info/exclude and the project's
// .geminiignore, plus extra patterns from the caller. Git and Gemini rules are
// separate sets: a path is left out when any enabled set ignores it, and
// within a set the deepest file's last matching line decides.
// IgnoreRules values are immutable and cheap to copy (shared chains); any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tools/search/glob_match.h"

namespace lathe::tools {

// The lines of one ignore file, for the directory that holds it.
class IgnoreFile {
 public:
  enum class Verdict { none, ignored, included };

  // `base` is the directory holding the file, relative to the ignore root
  // ("" at the root itself).
  static std::shared_ptr<const IgnoreFile> parse(std::string_view text, std::string base);
  // nullptr when the file is missing, unreadable or has no patterns.
  static std::shared_ptr<const IgnoreFile> load(const std::string& absolutePath, std::string base);

  // `path` is relative to the ignore root and lies under base().
  Verdict match(std::string_view path, bool isDir) const;
  const std::string& base() const { return base_; }
  size_t size() const { return rules_.size(); }

 private:
  struct Rule {
    GlobPattern glob;
    bool negated = false;
    bool dirOnly = false;
    bool anchored = false;  // matched against the whole path below base, not the name
  };
  std::string base_;
  std::vector<Rule> rules_;
};

struct IgnoreOptions {
  bool respectGitIgnore = true;     // .gitignore files and .git/info/exclude
  bool respectGeminiIgnore = true;  // .geminiignore files
  // Gitignore-syntax lines applied from the root whatever the flags say
  // (default excludes such as "node_modules/").
  std::vector<std::string> extraPatterns;
};

class IgnoreRules {
 public:
  IgnoreRules() = default;  // ignores nothing

  // The rules at `rootPath` (absolute): its .gitignore, .git/info/exclude,
  // .geminiignore and the extra patterns.
  static IgnoreRules forRoot(const std::string& rootPath, const IgnoreOptions& options);

  // The rules inside subdirectory `relDir` (relative to the root, absolute
  // path `absDir`), adding its own ignore files when the flags say they exist.
  IgnoreRules enter(const std::string& absDir, std::string_view relDir, bool hasGitIgnore, bool hasGeminiIgnore) const;
  // Same, looking on disk for the files.
  IgnoreRules enter(const std::string& absDir, std::string_view relDir) const;

  // Whether `relPath` (relative to the root) is left out by the rules in
  // force in its directory. Ancestors are not checked: a walker never enters
  // an ignored directory.
  bool isIgnored(std::string_view relPath, bool isDir) const;

  bool respectsGitIgnore() const { return options_ && options_->respectGitIgnore; }
  bool respectsGeminiIgnore() const { return options_ && options_->respectGeminiIgnore; }

 private:
  struct Chain {
    std::shared_ptr<const Chain> parent;
    std::shared_ptr<const IgnoreFile> file;
  };
  static IgnoreFile::Verdict evaluate(const Chain* chain, std::string_view relPath, bool isDir);
  static std::shared_ptr<const Chain> push(std::shared_ptr<const Chain> chain, std::shared_ptr<const IgnoreFile> file);

  std::shared_ptr<const IgnoreOptions> options_;
  std::shared_ptr<const Chain> git_;
  std::shared_ptr<const Chain> gemini_;
  std::shared_ptr<const IgnoreFile> extra_;
};

// Whether `relPath` (relative to `rootPath`) is ignored, checking every
// ancestor directory and loading the ignore files on the way down. For paths
// named directly rather than found by a walk.
bool isPathIgnored(const std::string& rootPath, std::string_view relPath, bool isDir, const IgnoreOptions& options);

}  // namespace lathe::tools
