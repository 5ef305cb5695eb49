// Reading files for search tools: a per-thread reader that loads a whole file
// with one read() into a reused buffer (mmap for very large files), binary
// sniffing and the inline MIME types of images and PDFs. A FileReader belongs
// to one thread; the free functions are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

struct stat;

namespace lathe::tools {

class FileReader {
 public:
  FileReader() = default;
  ~FileReader();
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  // The file's bytes (at most maxBytes of them), valid until the next call.
  // Errc::not_found, Errc::forbidden or Errc::io on failure.
  // `opened`, when given, gets the stat of the file that was read.
  Result<std::string_view> read(const char* path, size_t maxBytes = SIZE_MAX, struct stat* opened = nullptr);

 private:
  void unmap();
  std::vector<char> buffer_;
  void* map_ = nullptr;
  size_t mapLength_ = 0;
};

// A NUL byte in the first 8 KB, as ripgrep and git decide.
bool hasNulPrefix(std::string_view bytes);
// hasNulPrefix, or mostly control characters in the first 8 KB.
bool looksBinary(std::string_view bytes);

// "image/png", "application/pdf", ... for files sent to the model as inline
// data, else "" (SVG is text: the model reads it as such).
std::string inlineMimeType(std::string_view path);

// Extensions of files that are binary whatever their first bytes say
// (archives, executables, office documents, media).
bool hasBinaryExtension(std::string_view path);

}  // namespace lathe::tools
