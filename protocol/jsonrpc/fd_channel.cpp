// A ByteChannel over file descriptors (stdio or pipes).
#include <unistd.h>

#include <cerrno>

#include "protocol/base/sigpipe_block.h"
#include "protocol/jsonrpc/channel.h"

namespace lathe::rpc {
namespace {

class FdChannel final : public ByteChannel {
 public:
  FdChannel(int inFd, int outFd, bool ownFds) : inFd_(inFd), outFd_(outFd), ownFds_(ownFds) {}
  ~FdChannel() override {
    if (!ownFds_) return;
    if (inFd_ >= 0) ::close(inFd_);
    closeWrite();
  }

  size_t read(char* buffer, size_t size) override {
    for (;;) {
      ssize_t n = ::read(inFd_, buffer, size);
      if (n < 0 && errno == EINTR) continue;
      return n > 0 ? static_cast<size_t>(n) : 0;
    }
  }

  bool write(std::string_view bytes) override {
    SigpipeBlock noSigpipe;  // a peer that went away is a failed write
    size_t written = 0;
    while (written < bytes.size()) {
      ssize_t n = ::write(outFd_, bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      written += static_cast<size_t>(n);
    }
    return true;
  }

  void closeWrite() override {
    if (ownFds_ && outFd_ >= 0) ::close(outFd_);
    outFd_ = -1;
  }

 private:
  int inFd_;
  int outFd_;
  bool ownFds_;
};

}  // namespace

std::unique_ptr<ByteChannel> makeFdChannel(int inFd, int outFd, bool ownFds) {
  return std::make_unique<FdChannel>(inFd, outFd, ownFds);
}

}  // namespace lathe::rpc
