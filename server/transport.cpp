// stdio transport.
#include "server/transport.h"

#include <unistd.h>

#include <cerrno>

namespace lathe::server {

void Transport::readLoop(const std::function<void(Frame)>& onFrame) {
  char buffer[65536];
  std::vector<Frame> frames;
  for (;;) {
    ssize_t n = ::read(inFd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // Decoding never waits for a write in progress: a full stdout must not
    // stop us reading (cancel and permission answers arrive this way).
    decoder_.feed(std::string_view(buffer, static_cast<size_t>(n)), frames);
    framing_ = decoder_.framing();
    for (auto& frame : frames) onFrame(std::move(frame));
    frames.clear();
  }
  decoder_.finish(frames);
  for (auto& frame : frames) onFrame(std::move(frame));
}

bool Transport::send(const std::string& json) {
  std::lock_guard lock(writeMutex_);
  if (outputBroken_) return false;
  std::string frame = encodeFrame(json, framing_.load());
  size_t written = 0;
  while (written < frame.size()) {
    ssize_t n = ::write(outFd_, frame.data() + written, frame.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      outputBroken_ = true;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace lathe::server
