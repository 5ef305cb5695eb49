// File reading for the search tools: one open/read/close for ordinary files
// into a buffer reused by the thread, mmap past kMapThreshold. Binary sniffing
// and MIME types by extension.
#include "tools/files/file_content.h"

#include "tools/core/file_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lathe::tools {
namespace {

constexpr size_t kInitialBuffer = 256 * 1024;
constexpr size_t kMapThreshold = 8 * 1024 * 1024;
constexpr size_t kSniffBytes = 8192;

Error openError(const char* path) {
  int e = errno;
  std::string what = std::string(path) + ": " + std::strerror(e);
  if (e == ENOENT || e == ENOTDIR) return makeError(Errc::not_found, what);
  if (e == EACCES || e == EPERM) return makeError(Errc::forbidden, what);
  return makeError(Errc::io, what);
}

std::string lowerExtension(std::string_view path) {
  size_t slash = path.rfind('/');
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  std::string ext(path.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

FileReader::~FileReader() { unmap(); }

void FileReader::unmap() {
  if (map_) ::munmap(map_, mapLength_);
  map_ = nullptr;
  mapLength_ = 0;
}

Result<std::string_view> FileReader::read(const char* path, size_t maxBytes, struct stat* info) {
  unmap();
  // O_NONBLOCK: a FIFO must not block the open; only regular files are read.
  int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return openError(path);
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    return makeError(Errc::invalid_params, std::string(path) + " is " + describeFileType(opened.st_mode) +
                                               ", not a regular file");
  }
  if (info) *info = opened;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (buffer_.size() < kInitialBuffer) buffer_.resize(kInitialBuffer);
  size_t used = 0;
  while (true) {
    if (used == buffer_.size()) {
      if (used >= maxBytes) break;
      // Bigger than the buffer: size it from fstat, or map it.
      struct stat st {};
      if (::fstat(fd, &st) != 0) st.st_size = 0;
      if (static_cast<size_t>(st.st_size) >= kMapThreshold) {
        size_t length = std::min(static_cast<size_t>(st.st_size), maxBytes);
        void* map = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
          ::close(fd);
          map_ = map;
          mapLength_ = length;
          return std::string_view(static_cast<const char*>(map), length);
        }
      }
      size_t want = std::max(buffer_.size() * 2, static_cast<size_t>(st.st_size) + 1);
      buffer_.resize(std::min(want, maxBytes));
    }
    size_t room = std::min(buffer_.size(), maxBytes) - used;
    if (room == 0) break;
    ssize_t n = ::read(fd, buffer_.data() + used, room);
    if (n < 0) {
      if (errno == EINTR) continue;
      Error error = openError(path);
      ::close(fd);
      return error;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  ::close(fd);
  return std::string_view(buffer_.data(), used);
}

bool hasNulPrefix(std::string_view bytes) {
  return std::memchr(bytes.data(), 0, std::min(bytes.size(), kSniffBytes)) != nullptr;
}

bool looksBinary(std::string_view bytes) {
  std::string_view head = bytes.substr(0, kSniffBytes);
  if (hasNulPrefix(head)) return true;
  size_t odd = std::count_if(head.begin(), head.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x20 && u != '\n' && u != '\r' && u != '\t' && u != '\f' && u != '\b' && u != 0x1b;
  });
  return !head.empty() && odd * 10 > head.size();
}

std::string inlineMimeType(std::string_view path) {
  std::string ext = lowerExtension(path);
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".gif") return "image/gif";
  if (ext == ".webp") return "image/webp";
  if (ext == ".bmp") return "image/bmp";
  if (ext == ".pdf") return "application/pdf";
  return {};
}

bool hasBinaryExtension(std::string_view path) {
  static const char* const kBinary[] = {
      ".7z",   ".a",   ".avi",  ".bin",  ".bz2",   ".class", ".dat",  ".db",    ".dll",  ".dmg",  ".doc",
      ".docx", ".exe", ".flac", ".gz",   ".img",   ".iso",   ".jar",  ".lib",   ".lz4",  ".mdb",  ".mkv",
      ".mov",  ".mp3", ".mp4",  ".o",    ".obj",   ".odp",   ".ods",  ".odt",   ".ogg",  ".otf",  ".ppt",
      ".pptx", ".pyc", ".pyo",  ".rar",  ".so",    ".sqlite", ".tar", ".ttf",   ".war",  ".wasm", ".wav",
      ".woff", ".woff2", ".xls", ".xlsx", ".xz",   ".zip",   ".zst",
  };
  std::string ext = lowerExtension(path);
  if (ext.empty()) return false;
  for (const char* b : kBinary) {
    if (ext == b) return true;
  }
  return false;
}

}  // namespace lathe::tools
