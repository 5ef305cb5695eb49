// PipeReader over an Asio stream_descriptor; LineSplitter.
#include "protocol/exec/pipe_reader.h"

#include <unistd.h>

#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {

struct PipeReader::State : std::enable_shared_from_this<PipeReader::State> {
  State(asio::io_context& context, int fd) : io(context), pipe(context, fd) {}

  // Reactor only.
  void readNext() {
    pipe.async_read_some(asio::buffer(buffer), [self = shared_from_this()](const boost::system::error_code& error,
                                                                           size_t n) { self->arrived(error, n); });
  }

  void arrived(const boost::system::error_code& error, size_t n) {
    if (error == asio::error::operation_aborted) return;
    if (n > 0 && !gate.run([&] { onData(std::string_view(buffer.data(), n)); })) return;
    if (!error) {
      if (!gate.closed()) readNext();
      return;
    }
    ended = true;
    gate.run([&] { onEnd(); });
    gate.close();
    close();
  }

  void close() {
    boost::system::error_code ignored;
    pipe.close(ignored);
  }

  asio::io_context& io;
  asio::posix::stream_descriptor pipe;  // reactor only
  std::array<char, 64 * 1024> buffer{};
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
  asio::post(io, [state] { state->readNext(); });
  return PipeReader(std::move(state));
}

void PipeReader::stop() {
  if (!state_) return;
  state_->gate.close();
  auto& io = state_->io;
  asio::post(io, [s = std::move(state_)] { s->close(); });
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
