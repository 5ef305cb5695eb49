// An exclusive flock on a lock file (created with mode 600), held for the
// object's lifetime: read-modify-write of a shared file by several threads
// or processes. Blocks until held.
#pragma once

#include <string>

namespace lathe {

class FileLock {
 public:
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

}  // namespace lathe
