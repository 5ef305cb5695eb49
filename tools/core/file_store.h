// How edit tools read and write text files: straight on disk, or through the
// editor (ACP fs/read_text_file and fs/write_text_file), which sees unsaved
// buffers and lands writes in open buffers for review. Implementations are
// thread-safe; calls block the calling worker thread.
#pragma once

#include <memory>
#include <string>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools {

class FileStore {
 public:
  virtual ~FileStore() = default;
  // The whole text of a file (absolute path). Errc::not_found when it does not exist.
  virtual Result<std::string> readText(const std::string& path, const CancelToken& cancel) = 0;
  // Replaces or creates the file with exactly this text (absolute path).
  virtual Status writeText(const std::string& path, const std::string& content, const CancelToken& cancel) = 0;
  // The same for a path the caller has checked (canonical, inside the
  // workspace): no symbolic link is followed on the way or at the end, so a
  // link swapped in after the check makes the write fail (or replaces the
  // link) instead of landing elsewhere. On disk every folder is opened from
  // "/" with O_NOFOLLOW and the file renamed into the open folder. A store
  // that writes elsewhere (the editor's buffers) writes as writeText does.
  virtual Status writeTextExact(const std::string& path, const std::string& content, const CancelToken& cancel) {
    return writeText(path, content, cancel);
  }
};

// "a FIFO (named pipe)", "a socket", "a character device", ... for a stat
// st_mode: how tools name what they refuse to read or write.
std::string describeFileType(unsigned mode);

// The disk: reads whole files; writes atomically (temporary file in the same
// directory, fsync, rename), keeping an existing file's mode.
std::shared_ptr<FileStore> makeDiskFileStore();

}  // namespace lathe::tools
