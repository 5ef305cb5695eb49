// The memory section of the global GEMINI.md and its atomic update.
#include "tools/memory/memory_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>

#include "tools/core/file_store.h"

namespace lathe::tools {
namespace {
namespace fs = std::filesystem;

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// [begin, end) of the line starting at `begin`, end excluding its '\n'.
size_t lineEnd(std::string_view text, size_t begin) {
  size_t end = text.find('\n', begin);
  return end == std::string_view::npos ? text.size() : end;
}

std::string_view stripCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool isHeader(std::string_view line) {
  line = stripCr(line);
  while (!line.empty() && isBlank(line.back())) line.remove_suffix(1);
  return line == kMemorySectionHeader;
}

// A line that starts another section: any heading of level 1 or 2 ("# x", "## x").
bool startsSection(std::string_view line) {
  return line.starts_with("# ") || line.starts_with("## ") || stripCr(line) == "#" || stripCr(line) == "##";
}

bool onlyBlanks(std::string_view line) {
  line = stripCr(line);
  for (char c : line) {
    if (!isBlank(c)) return false;
  }
  return true;
}

// What separates old content from a section added at its end: nothing for an
// empty file, else enough newlines for one blank line.
std::string_view separatorFor(std::string_view content) {
  if (content.empty() || content.ends_with("\n\n") || content.ends_with("\r\n\r\n")) return "";
  if (content.ends_with("\n")) return "\n";
  return "\n\n";
}

class FolderLock {
 public:
  explicit FolderLock(const std::string& dir) : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

// A word "@path" in a context file imports that file (memory_imports.h), and
// the global file may import anything in ~/.gemini, credentials included: a
// remembered fact must stay text, so such words go in a code span, which is
// never imported. A fact that already holds backticks keeps them, and its
// "@" words are cut loose from the path with a space instead.
std::string withoutImports(std::string_view fact) {
  const bool hasTicks = fact.find('`') != std::string_view::npos;
  std::string out;
  for (size_t i = 0; i < fact.size(); ++i) {
    const char next = i + 1 < fact.size() ? fact[i + 1] : ' ';
    const bool importLike = fact[i] == '@' && (i == 0 || isBlank(fact[i - 1])) &&
                            (next == '.' || next == '/' || std::isalpha(static_cast<unsigned char>(next)));
    if (!importLike) {
      out += fact[i];
    } else if (hasTicks) {
      out += "@ ";
    } else {
      size_t end = i;
      while (end < fact.size() && !isBlank(fact[end])) ++end;
      out += "`" + std::string(fact.substr(i, end - i)) + "`";
      i = end - 1;
    }
  }
  return out;
}

}  // namespace

Result<std::string> memoryEntryFor(std::string_view fact) {
  while (!fact.empty() && (isBlank(fact.front()) || fact.front() == '-')) fact.remove_prefix(1);
  while (!fact.empty() && isBlank(fact.back())) fact.remove_suffix(1);
  if (fact.find_first_of("\r\n") != std::string_view::npos) {
    return makeError(Errc::invalid_params,
                     "the fact spans several lines; a memory is one line of the list: give it as a single line");
  }
  for (unsigned char c : fact) {
    if (c < 0x20 && c != '\t') {
      return makeError(Errc::invalid_params, "the fact holds a control character; give it as plain text");
    }
  }
  if (fact.empty()) return makeError(Errc::invalid_params, "the fact is empty: say what to remember");
  return "- " + withoutImports(fact);
}

std::string withMemoryEntry(std::string_view content, std::string_view entry) {
  // Find the header line.
  size_t header = std::string_view::npos;
  for (size_t begin = 0; begin < content.size(); begin = lineEnd(content, begin) + 1) {
    if (isHeader(content.substr(begin, lineEnd(content, begin) - begin))) {
      header = begin;
      break;
    }
  }
  if (header == std::string_view::npos) {
    std::string out(content);
    out += separatorFor(content);
    out += kMemorySectionHeader;
    out += '\n';
    out += entry;
    out += '\n';
    return out;
  }
  const bool crlf = content.substr(header, lineEnd(content, header) - header).ends_with("\r");
  const std::string_view newline = crlf ? "\r\n" : "\n";
  // The section runs to the next heading; the entry goes after its last
  // non-blank line (the header itself when the section is empty).
  size_t insertAt = std::min(lineEnd(content, header) + 1, content.size());
  bool endsWithoutNewline = lineEnd(content, header) == content.size();
  for (size_t begin = insertAt; begin < content.size();) {
    size_t end = lineEnd(content, begin);
    std::string_view line = content.substr(begin, end - begin);
    if (startsSection(line)) break;
    if (!onlyBlanks(line)) {
      insertAt = std::min(end + 1, content.size());
      endsWithoutNewline = end == content.size();
    }
    begin = end + 1;
  }
  std::string out;
  out.reserve(content.size() + entry.size() + 4);
  out.append(content.substr(0, insertAt));
  if (endsWithoutNewline) out.append(newline);
  out.append(entry);
  out.append(newline);
  out.append(content.substr(insertAt));
  return out;
}

Result<std::string> addMemoryFact(const std::string& file, std::string_view fact, const CancelToken& cancel) {
  auto entry = memoryEntryFor(fact);
  if (!entry) return entry.error();
  if (file.empty() || file.front() != '/') {
    return makeError(Errc::invalid_params, "no global memory file: neither GEMINI_CLI_HOME nor HOME is set");
  }
  const std::string dir = fs::path(file).parent_path().string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return makeError(Errc::io, "cannot create " + dir + ": " + ec.message());
  // Read, change and replace under one lock: two sessions (or two Lathe
  // processes) adding at once both keep their fact.
  FolderLock lock(dir);
  if (!lock.held()) return makeError(Errc::io, "cannot lock " + dir + " to update " + file);
  auto disk = makeDiskFileStore();
  std::string content;
  if (auto read = disk->readText(file, cancel)) {
    content = std::move(read).value();
  } else if (read.error().code != Errc::not_found) {
    return makeError(read.error().code, "cannot read " + file + ": " + read.error().message);
  }
  if (auto written = disk->writeText(file, withMemoryEntry(content, *entry), cancel); !written) {
    return makeError(written.error().code, "cannot write " + file + ": " + written.error().message);
  }
  return entry;
}

}  // namespace lathe::tools
