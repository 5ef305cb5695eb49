// PipeWriter: non-blocking write(2) on the reactor, an Asio async_wait for
// room when the pipe is full.
#include "protocol/exec/pipe_writer.h"

#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>

#include "protocol/base/sigpipe_block.h"
#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {

struct PipeWriter::State : std::enable_shared_from_this<PipeWriter::State> {
  State(asio::io_context& context, int fd) : io(context), pipe(context, fd) {}

  // Reactor only: writes what the pipe takes, then waits for room or ends.
  void writeNext() {
    if (gate.closed()) return;
    boost::system::error_code error;
    pipe.non_blocking(true, error);
    while (!error && written < bytes.size()) {
      ssize_t n;
      int writeErrno;
      {
        SigpipeBlock sigpipe;
        n = ::write(pipe.native_handle(), bytes.data() + written, bytes.size() - written);
        writeErrno = errno;  // before the guard consumes the SIGPIPE (and sets errno)
      }
      if (n > 0) {
        written += static_cast<size_t>(n);
      } else if (n < 0 && writeErrno == EINTR) {
        continue;
      } else if (n < 0 && (writeErrno == EAGAIN || writeErrno == EWOULDBLOCK)) {
        pipe.async_wait(asio::posix::descriptor_base::wait_write,
                        [self = shared_from_this()](const boost::system::error_code& waitError) {
                          if (waitError != asio::error::operation_aborted) self->writeNext();
                        });
        return;
      } else {
        break;  // EPIPE: the reader is gone
      }
    }
    finish(written == bytes.size());
  }

  void finish(bool complete) {
    close();
    gate.run([&] { onDone(complete); });
    gate.close();
  }

  void close() {
    boost::system::error_code ignored;
    pipe.close(ignored);
  }

  asio::io_context& io;
  asio::posix::stream_descriptor pipe;  // reactor only
  std::string bytes;
  size_t written = 0;  // reactor only
  DoneFn onDone;
  CallbackGate gate;
};

PipeWriter::PipeWriter() = default;
PipeWriter::PipeWriter(std::shared_ptr<State> state) : state_(std::move(state)) {}
PipeWriter::PipeWriter(PipeWriter&&) noexcept = default;
PipeWriter& PipeWriter::operator=(PipeWriter&& other) noexcept {
  if (this != &other) {
    stop();
    state_ = std::move(other.state_);
  }
  return *this;
}
PipeWriter::~PipeWriter() { stop(); }

PipeWriter PipeWriter::start(Executor& executor, int fd, std::string bytes, DoneFn onDone) {
  auto& io = executor.impl().reactor();
  auto state = std::make_shared<State>(io, fd);
  state->bytes = std::move(bytes);
  state->onDone = std::move(onDone);
  asio::post(io, [state] { state->writeNext(); });
  return PipeWriter(std::move(state));
}

void PipeWriter::stop() {
  if (!state_) return;
  state_->gate.close();
  auto& io = state_->io;
  asio::post(io, [s = std::move(state_)] { s->close(); });
}

}  // namespace lathe::exec
