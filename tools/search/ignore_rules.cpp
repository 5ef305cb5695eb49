// Gitignore-style rules: parsing ignore files into globs and deciding, per
// path, through chains of files from the root down. Pure apart from reading
// ignore files; any thread.
#include "tools/search/ignore_rules.h"

#include <fcntl.h>
#include <unistd.h>

namespace lathe::tools {
namespace {

constexpr const char* kGitIgnore = ".gitignore";
constexpr const char* kGeminiIgnore = ".geminiignore";

bool readSmallFile(const std::string& path, std::string& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[16384];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
    if (out.size() > (8u << 20)) break;  // no sane ignore file is this large
  }
  ::close(fd);
  return true;
}

std::string joinPath(const std::string& dir, std::string_view name) {
  std::string out = dir;
  if (out.empty() || out.back() != '/') out += '/';
  out.append(name);
  return out;
}

// Braces are not special in gitignore: escape them for the glob compiler.
std::string escapeBraces(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      out += c;
      out += text[++i];
      continue;
    }
    if (c == '{' || c == '}' || c == ',') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::shared_ptr<const IgnoreFile> IgnoreFile::parse(std::string_view text, std::string base) {
  auto file = std::make_shared<IgnoreFile>();
  file->base_ = std::move(base);
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Trailing spaces go unless escaped with a backslash.
    while (!line.empty() && line.back() == ' ') {
      size_t slashes = 0;
      for (size_t k = line.size() - 1; k > 0 && line[k - 1] == '\\'; --k) ++slashes;
      if (slashes % 2 == 1) break;
      line.remove_suffix(1);
    }
    if (line.empty() || line.front() == '#') continue;
    Rule rule;
    if (line.front() == '!') {
      rule.negated = true;
      line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
      rule.dirOnly = true;
      while (!line.empty() && line.back() == '/') line.remove_suffix(1);
    }
    if (line.empty()) continue;
    // A slash at the start or in the middle anchors the pattern to the
    // directory of the ignore file.
    rule.anchored = line.find('/') != std::string_view::npos;
    while (!line.empty() && line.front() == '/') line.remove_prefix(1);
    if (line.empty()) continue;
    auto glob = GlobPattern::compile(escapeBraces(line), GlobCase::sensitive);
    if (!glob) continue;  // an unusable line is skipped, as git does
    rule.glob = std::move(glob).value();
    file->rules_.push_back(std::move(rule));
  }
  return file;
}

std::shared_ptr<const IgnoreFile> IgnoreFile::load(const std::string& absolutePath, std::string base) {
  std::string text;
  if (!readSmallFile(absolutePath, text)) return nullptr;
  auto file = parse(text, std::move(base));
  return file->size() == 0 ? nullptr : file;
}

IgnoreFile::Verdict IgnoreFile::match(std::string_view path, bool isDir) const {
  std::string_view rel = path;
  if (!base_.empty()) {
    if (path.size() <= base_.size() || path.compare(0, base_.size(), base_) != 0 || path[base_.size()] != '/') {
      return Verdict::none;
    }
    rel = path.substr(base_.size() + 1);
  }
  size_t slash = rel.rfind('/');
  std::string_view name = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->dirOnly && !isDir) continue;
    if (it->glob.matches(it->anchored ? rel : name)) return it->negated ? Verdict::included : Verdict::ignored;
  }
  return Verdict::none;
}

std::shared_ptr<const IgnoreRules::Chain> IgnoreRules::push(std::shared_ptr<const Chain> chain,
                                                            std::shared_ptr<const IgnoreFile> file) {
  if (!file) return chain;
  return std::make_shared<const Chain>(Chain{std::move(chain), std::move(file)});
}

IgnoreRules IgnoreRules::forRoot(const std::string& rootPath, const IgnoreOptions& options) {
  IgnoreRules rules;
  rules.options_ = std::make_shared<const IgnoreOptions>(options);
  if (options.respectGitIgnore) {
    rules.git_ = push(nullptr, IgnoreFile::load(joinPath(rootPath, ".git/info/exclude"), ""));
    rules.git_ = push(rules.git_, IgnoreFile::load(joinPath(rootPath, kGitIgnore), ""));
  }
  if (options.respectGeminiIgnore) rules.gemini_ = push(nullptr, IgnoreFile::load(joinPath(rootPath, kGeminiIgnore), ""));
  if (!options.extraPatterns.empty()) {
    std::string text;
    for (const auto& line : options.extraPatterns) text.append(line).append("\n");
    auto extra = IgnoreFile::parse(text, "");
    if (extra->size() > 0) rules.extra_ = std::move(extra);
  }
  return rules;
}

IgnoreRules IgnoreRules::enter(const std::string& absDir, std::string_view relDir, bool hasGitIgnore,
                               bool hasGeminiIgnore) const {
  IgnoreRules next = *this;
  if (hasGitIgnore && respectsGitIgnore()) {
    next.git_ = push(next.git_, IgnoreFile::load(joinPath(absDir, kGitIgnore), std::string(relDir)));
  }
  if (hasGeminiIgnore && respectsGeminiIgnore()) {
    next.gemini_ = push(next.gemini_, IgnoreFile::load(joinPath(absDir, kGeminiIgnore), std::string(relDir)));
  }
  return next;
}

IgnoreRules IgnoreRules::enter(const std::string& absDir, std::string_view relDir) const {
  return enter(absDir, relDir, respectsGitIgnore(), respectsGeminiIgnore());
}

IgnoreFile::Verdict IgnoreRules::evaluate(const Chain* chain, std::string_view relPath, bool isDir) {
  for (; chain != nullptr; chain = chain->parent.get()) {
    auto verdict = chain->file->match(relPath, isDir);
    if (verdict != IgnoreFile::Verdict::none) return verdict;
  }
  return IgnoreFile::Verdict::none;
}

bool IgnoreRules::isIgnored(std::string_view relPath, bool isDir) const {
  if (extra_ && extra_->match(relPath, isDir) == IgnoreFile::Verdict::ignored) return true;
  if (git_ && evaluate(git_.get(), relPath, isDir) == IgnoreFile::Verdict::ignored) return true;
  if (gemini_ && evaluate(gemini_.get(), relPath, isDir) == IgnoreFile::Verdict::ignored) return true;
  return false;
}

bool isPathIgnored(const std::string& rootPath, std::string_view relPath, bool isDir, const IgnoreOptions& options) {
  IgnoreRules rules = IgnoreRules::forRoot(rootPath, options);
  size_t pos = 0;
  while (true) {
    size_t slash = relPath.find('/', pos);
    std::string_view name = relPath.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    if (name == ".git") return true;
    if (slash == std::string_view::npos) break;
    std::string_view dir = relPath.substr(0, slash);
    if (rules.isIgnored(dir, true)) return true;
    rules = rules.enter(joinPath(rootPath, dir), dir);
    pos = slash + 1;
  }
  return rules.isIgnored(relPath, isDir);
}

}  // namespace lathe::tools
