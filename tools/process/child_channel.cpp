// A child's stdio as a byte channel; stderr (and stdout on request) read on
// the executor.
#include "tools/process/child_channel.h"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace lathe::tools::process {

// The child's stdout (until readOutput takes it) and stdin.
class ChildPipes final : public rpc::ByteChannel {
 public:
  ChildPipes(int out, int in) : out_(out), writer_(rpc::makeFdChannel(-1, in, /*ownFds=*/true)) {}
  ~ChildPipes() override {
    if (out_ >= 0) ::close(out_);
  }
  size_t read(char* buffer, size_t size) override {
    if (out_ < 0) return 0;
    for (;;) {
      ssize_t n = ::read(out_, buffer, size);
      if (n < 0 && errno == EINTR) continue;
      return n > 0 ? static_cast<size_t>(n) : 0;
    }
  }
  bool write(std::string_view bytes) override { return writer_->write(bytes); }
  void closeWrite() override { writer_->closeWrite(); }
  int takeOutput() { return std::exchange(out_, -1); }

 private:
  int out_;
  std::unique_ptr<rpc::ByteChannel> writer_;
};

Result<std::unique_ptr<ChildChannel>> ChildChannel::spawn(ProcessSpec spec, ChildChannelOptions options) {
  spec.stdinMode = StdinMode::pipe;
  spec.output = OutputMode::separate;
  auto child = ChildProcess::spawn(spec);
  if (!child) return child.error();
  std::unique_ptr<ChildChannel> self(new ChildChannel());
  self->options_ = std::move(options);
  if (!self->options_.executor) self->options_.executor = &exec::Executor::shared();
  self->child_ = std::move(child).value();
  int out = self->child_->takeStdout();
  int in = self->child_->takeStdin();
  self->pipes_ = std::make_unique<ChildPipes>(out, in);
  ChildChannel* s = self.get();
  s->stderrLines_ = std::make_unique<exec::LineSplitter>(s->options_.maxLineBytes, [s](std::string_view line) {
    if (s->options_.onStderrLine) s->options_.onStderrLine(line);
  });
  s->stderr_ = exec::PipeReader::start(
      *s->options_.executor, s->child_->takeStderr(), [s](std::string_view chunk) { s->takeStderr(chunk); },
      [s] { s->stderrLines_->finish(); });  // every writer is gone: the tree ended or closed stderr
  return self;
}

ChildChannel::~ChildChannel() {
  shutdown(std::chrono::milliseconds(1000));
  stopReading();
  stderr_.stop();
}

rpc::ByteChannel& ChildChannel::channel() { return *pipes_; }

void ChildChannel::readOutput(exec::PipeReader::DataFn onData, exec::PipeReader::EndFn onEnd) {
  int out = pipes_->takeOutput();
  if (out < 0) return;
  stdout_ = exec::PipeReader::start(*options_.executor, out, std::move(onData), std::move(onEnd));
}

void ChildChannel::stopReading() { stdout_.stop(); }

void ChildChannel::takeStderr(std::string_view chunk) {
  {
    MutexLock lock(mutex_);
    stderrTail_.append(chunk);
    if (stderrTail_.size() > 2 * options_.keepStderrBytes) {
      stderrTail_.erase(0, stderrTail_.size() - options_.keepStderrBytes);
    }
  }
  stderrLines_->feed(chunk);
}

ExitStatus ChildChannel::shutdown(std::chrono::milliseconds grace) {
  pipes_->closeWrite();
  if (!child_->reaped()) child_->waitFor(grace);
  // Whatever still runs (the child, or what it left behind holding its pipes).
  child_->killTree(std::chrono::milliseconds(500));
  if (!child_->reaped()) child_->waitExit();
  return child_->exit();
}

std::optional<ExitStatus> ChildChannel::exited() {
  if (!child_->tryReap()) return std::nullopt;
  return child_->exit();
}

std::string ChildChannel::stderrTail() const {
  MutexLock lock(mutex_);
  return stderrTail_.size() > options_.keepStderrBytes ? stderrTail_.substr(stderrTail_.size() - options_.keepStderrBytes)
                                                      : stderrTail_;
}

}  // namespace lathe::tools::process
