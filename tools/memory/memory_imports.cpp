// The @path import processor of context files.
#include "tools/memory/memory_imports.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/files/guarded_reads.h"
#include "tools/files/secret_files.h"

namespace lathe::tools {
namespace {
namespace fs = std::filesystem;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// An import's path starts with '.', '/' or a letter (Gemini CLI's rule: "@"
// before a number or a symbol is prose, not an import).
bool startsPath(char c) { return c == '.' || c == '/' || isAlpha(c); }

std::string marker(const std::string& text) { return "<!-- " + text + " -->"; }

// A fenced block opens or closes at a line starting (after up to 3 spaces)
// with ``` or ~~~.
bool isFenceLine(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  line.remove_prefix(i);
  return line.starts_with("```") || line.starts_with("~~~");
}

// Reads the imported file when it may be read: the path's text, or a failure marker.
struct Loaded {
  std::string canonical;
  std::string text;
  std::string failure;  // set when not loaded
};

Loaded load(const std::string& spelled, const std::string& fromDir, const ImportOptions& options) {
  Loaded out;
  if (spelled.find("://") != std::string::npos) {
    out.failure = "URLs cannot be imported";
    return out;
  }
  fs::path path = fs::path(spelled).is_absolute() ? fs::path(spelled) : fs::path(fromDir) / spelled;
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path.lexically_normal(), ec);
  if (ec) canonical = path.lexically_normal();
  out.canonical = canonical.string();
  bool allowed = false;
  for (const auto& root : options.allowedRoots) allowed = allowed || isWithin(out.canonical, root);
  if (!allowed) {
    out.failure = "outside the folders imports may come from";
    return out;
  }
  std::string kept = options.workspace ? guardedReadReason(*options.workspace, out.canonical, false)
                                       : secretFileReason(out.canonical);
  if (!kept.empty()) {
    out.failure = "kept from the model (" + kept + ")";
    return out;
  }
  struct stat st {};
  if (::stat(out.canonical.c_str(), &st) != 0) {
    out.failure = "no such file";
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.failure = "not a regular file";
    return out;
  }
  if (static_cast<size_t>(st.st_size) > options.maxFileBytes) {
    out.failure = "larger than " + std::to_string(options.maxFileBytes / 1024) + " KB";
    return out;
  }
  std::ifstream in(out.canonical, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (!in && !in.eof()) {
    out.failure = "cannot be read";
    return out;
  }
  out.text = buffer.str();
  return out;
}

}  // namespace

bool isWithin(const std::string& path, const std::string& root) {
  if (root == "/") return !path.empty() && path.front() == '/';
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

std::string expandImports(const std::string& content, const std::string& filePath, const ImportOptions& options,
                          std::set<std::string>& seen, int depth) {
  const std::string fromDir = fs::path(filePath).parent_path().string();
  std::string out;
  out.reserve(content.size());
  bool inFence = false;
  size_t lineStart = 0;
  while (lineStart < content.size()) {
    size_t lineEnd = content.find('\n', lineStart);
    if (lineEnd == std::string::npos) lineEnd = content.size();
    std::string_view line(content.data() + lineStart, lineEnd - lineStart);
    if (isFenceLine(line)) inFence = !inFence;
    if (inFence || isFenceLine(line) || line.find('@') == std::string_view::npos) {
      out.append(line);
    } else {
      bool inCode = false;  // inside a `code span`
      for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '`') inCode = !inCode;
        bool import = c == '@' && !inCode && (i == 0 || isSpace(line[i - 1])) && i + 1 < line.size() &&
                      startsPath(line[i + 1]);
        if (!import) {
          out += c;
          continue;
        }
        size_t end = i + 1;
        while (end < line.size() && !isSpace(line[end])) ++end;
        std::string spelled(line.substr(i + 1, end - i - 1));
        i = end - 1;
        Loaded loaded = load(spelled, fromDir, options);
        if (!loaded.failure.empty()) {
          out += marker("Import failed: " + spelled + " - " + loaded.failure);
        } else if (seen.count(loaded.canonical)) {
          out += marker("File already processed: " + spelled);
        } else if (depth + 1 > options.maxDepth) {
          out += marker("Import failed: " + spelled + " - imports nest deeper than " + std::to_string(options.maxDepth));
        } else {
          seen.insert(loaded.canonical);
          out += marker("Imported from: " + spelled) + "\n";
          out += expandImports(loaded.text, loaded.canonical, options, seen, depth + 1);
          if (!out.empty() && out.back() != '\n') out += '\n';
          out += marker("End of import from: " + spelled);
        }
      }
    }
    if (lineEnd < content.size()) out += '\n';
    lineStart = lineEnd + 1;
  }
  return out;
}

}  // namespace lathe::tools
