// In-memory channel pairs, so a peer and its handlers can be tested in one
// process without spawning anything.
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>

#include "protocol/jsonrpc/channel.h"

namespace lathe::rpc {
namespace {

// One direction: bytes written wait here until read.
struct Pipe {
  std::mutex mutex;
  std::condition_variable cv;
  std::string bytes;
  bool closed = false;
};

class MemoryChannel final : public ByteChannel {
 public:
  MemoryChannel(std::shared_ptr<Pipe> in, std::shared_ptr<Pipe> out) : in_(std::move(in)), out_(std::move(out)) {}
  ~MemoryChannel() override {
    closeWrite();
    std::lock_guard lock(in_->mutex);  // the other side's writes now fail
    in_->closed = true;
    in_->cv.notify_all();
  }

  size_t read(char* buffer, size_t size) override {
    std::unique_lock lock(in_->mutex);
    in_->cv.wait(lock, [&] { return !in_->bytes.empty() || in_->closed; });
    size_t n = std::min(size, in_->bytes.size());
    std::memcpy(buffer, in_->bytes.data(), n);
    in_->bytes.erase(0, n);
    return n;
  }

  bool write(std::string_view bytes) override {
    std::lock_guard lock(out_->mutex);
    if (out_->closed) return false;
    out_->bytes.append(bytes);
    out_->cv.notify_all();
    return true;
  }

  void closeWrite() override {
    std::lock_guard lock(out_->mutex);
    out_->closed = true;
    out_->cv.notify_all();
  }

 private:
  std::shared_ptr<Pipe> in_;
  std::shared_ptr<Pipe> out_;
};

}  // namespace

std::pair<std::unique_ptr<ByteChannel>, std::unique_ptr<ByteChannel>> makeMemoryChannelPair() {
  auto ab = std::make_shared<Pipe>();
  auto ba = std::make_shared<Pipe>();
  return {std::make_unique<MemoryChannel>(ba, ab), std::make_unique<MemoryChannel>(ab, ba)};
}

}  // namespace lathe::rpc
