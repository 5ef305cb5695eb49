// Atomic owner-only writes.
#include "protocol/base/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lathe {

Status writePrivateFile(const std::string& path, const std::string& text, bool sync) {
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  ::unlink(temp.c_str());  // a leftover may have another mode
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return makeError(Errc::internal, "cannot write " + temp + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      return makeError(Errc::internal, "cannot write " + temp + ": " + std::strerror(error));
    }
    done += static_cast<size_t>(n);
  }
  bool synced = ::fchmod(fd, 0600) == 0 && (!sync || ::fsync(fd) == 0);
  synced = ::close(fd) == 0 && synced;
  if (!synced || ::rename(temp.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(temp.c_str());
    return makeError(Errc::internal, "cannot replace " + path + ": " + std::strerror(error));
  }
  return {};
}

}  // namespace lathe
