// PipeReader over an Asio stream_descriptor; LineSplitter.
#include "protocol/exec/pipe_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>
#include <memory>

#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {
namespace {

// The buffer reads go through: one per reading thread (the reactor), not one
// per pipe, so a hundred children's pipes cost no 64 KB each. A read nested in
// another's callback (the buffer still lent out) gets one of its own.
class ReadBuffer {
 public:
  static constexpr size_t kSize = 64 * 1024;
  ReadBuffer() : data_(lend()) {}
  ~ReadBuffer() {
    if (own_) return;
    shared().busy = false;
  }
  ReadBuffer(const ReadBuffer&) = delete;
  ReadBuffer& operator=(const ReadBuffer&) = delete;
  char* data() { return data_; }

 private:
  struct Shared {
    std::unique_ptr<char[]> data;
    bool busy = false;
  };
  static Shared& shared() {
    thread_local Shared buffer;
    return buffer;
  }
  char* lend() {
    Shared& s = shared();
    if (s.busy) {
      own_ = std::make_unique<char[]>(kSize);
      return own_.get();
    }
    if (!s.data) s.data = std::make_unique_for_overwrite<char[]>(kSize);
    s.busy = true;
    return s.data.get();
  }
  std::unique_ptr<char[]> own_;
  char* data_;
};

}  // namespace

struct PipeReader::State : std::enable_shared_from_this<PipeReader::State> {
  State(asio::io_context& context, int fd) : io(context), pipe(context, fd) {}

  enum class Read { empty, limit, end, stopped };

  // Reactor only. Reading happens only here, in a handler, never as Asio's
  // speculative read: readAvailable() may then read between two handlers
  // without a chunk read earlier still waiting to be delivered. Asio watches
  // edge-triggered, so a wait is queued only once a read found the pipe
  // empty (in the same handler), never while data or its end already waits.
  void readThenWait() {
    switch (readSome(kPerWakeup)) {
      case Read::empty:
        return waitNext();
      case Read::limit:  // more may be there: after other handlers had their turn
        return asio::post(io, [self = shared_from_this()] { self->readThenWait(); });
      case Read::end:
        return end();
      case Read::stopped:
        return;
    }
  }

  void waitNext() {
    pipe.async_wait(asio::posix::descriptor_base::wait_read,
                    [self = shared_from_this()](const boost::system::error_code& error) {
                      if (error == asio::error::operation_aborted) return;
                      if (error) return self->end();
                      self->readThenWait();
                    });
  }

  // Reads until the pipe is empty, `limit` bytes were read, at end of input
  // or an error (end), or once the callbacks were closed (stopped).
  Read readSome(size_t limit) {
    ReadBuffer buffer;
    for (size_t total = 0; total < limit;) {
      ssize_t n = ::read(pipe.native_handle(), buffer.data(), ReadBuffer::kSize);
      if (n > 0) {
        if (!gate.run([&] { onData(std::string_view(buffer.data(), static_cast<size_t>(n))); })) return Read::stopped;
        total += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Read::empty;
      return Read::end;
    }
    return Read::limit;
  }

  void end() {
    ended = true;
    gate.run([&] { onEnd(); });
    gate.close();
    close();
  }

  void close() {
    boost::system::error_code ignored;
    pipe.close(ignored);
  }

  static constexpr size_t kPerWakeup = 1024 * 1024;
  asio::io_context& io;
  asio::posix::stream_descriptor pipe;  // reactor only
  DataFn onData;
  EndFn onEnd;
  CallbackGate gate;
  std::atomic<bool> ended{false};
};

PipeReader::PipeReader() = default;
PipeReader::PipeReader(std::shared_ptr<State> state) : state_(std::move(state)) {}
PipeReader::PipeReader(PipeReader&&) noexcept = default;
PipeReader& PipeReader::operator=(PipeReader&& other) noexcept {
  if (this != &other) {
    stop();
    state_ = std::move(other.state_);
  }
  return *this;
}
PipeReader::~PipeReader() { stop(); }

PipeReader PipeReader::start(Executor& executor, int fd, DataFn onData, EndFn onEnd) {
  auto& io = executor.impl().reactor();
  auto state = std::make_shared<State>(io, fd);
  state->onData = std::move(onData);
  state->onEnd = std::move(onEnd);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  asio::post(io, [state] { state->readThenWait(); });
  return PipeReader(std::move(state));
}

void PipeReader::stop() {
  if (!state_) return;
  state_->gate.close();
  auto& io = state_->io;
  asio::post(io, [s = std::move(state_)] { s->close(); });
}

void PipeReader::readAvailable(size_t limit) {
  if (state_ && state_->pipe.is_open()) state_->readSome(limit);  // end of input: left to waitNext's handler
}

bool PipeReader::reading() const { return state_ && !state_->ended.load() && !state_->gate.closed(); }

LineSplitter::LineSplitter(size_t maxBytes, std::function<void(std::string_view)> onLine)
    : maxBytes_(maxBytes), onLine_(std::move(onLine)) {}

void LineSplitter::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    size_t end = chunk.find('\n');
    std::string_view part = chunk.substr(0, end);
    if (line_.size() < maxBytes_) line_.append(part.substr(0, maxBytes_ - line_.size()));
    if (end == std::string_view::npos) return;
    onLine_(line_);
    line_.clear();
    chunk.remove_prefix(end + 1);
  }
}

void LineSplitter::finish() {
  if (line_.empty()) return;
  onLine_(line_);
  line_.clear();
}

}  // namespace lathe::exec
