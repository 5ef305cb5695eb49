// A child's stdio as a byte channel, plus the stderr line pump. The pump
// thread owns the stderr descriptor; stderrTail_ is guarded by mutex_.
#include "tools/process/child_channel.h"

#include <unistd.h>

#include <cerrno>

namespace lathe::tools::process {

Result<std::unique_ptr<ChildChannel>> ChildChannel::spawn(ProcessSpec spec, ChildChannelOptions options) {
  spec.stdinMode = StdinMode::pipe;
  spec.output = OutputMode::separate;
  auto child = ChildProcess::spawn(spec);
  if (!child) return child.error();
  std::unique_ptr<ChildChannel> self(new ChildChannel());
  self->options_ = std::move(options);
  self->child_ = std::move(child).value();
  int in = self->child_->takeStdout();
  int out = self->child_->takeStdin();
  self->channel_ = rpc::makeFdChannel(in, out, /*ownFds=*/true);
  self->stderrThread_ = std::thread([s = self.get(), fd = self->child_->takeStderr()] { s->pumpStderr(fd); });
  return self;
}

ChildChannel::~ChildChannel() {
  shutdown(std::chrono::milliseconds(1000));
  if (stderrThread_.joinable()) stderrThread_.join();
}

void ChildChannel::pumpStderr(int fd) {
  std::string line;
  auto emit = [&] {
    if (options_.onStderrLine) options_.onStderrLine(line);
    line.clear();
  };
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer is gone: the tree ended or closed stderr
    std::string_view chunk(buf, static_cast<size_t>(n));
    {
      std::lock_guard lock(mutex_);
      stderrTail_.append(chunk);
      if (stderrTail_.size() > 2 * options_.keepStderrBytes) {
        stderrTail_.erase(0, stderrTail_.size() - options_.keepStderrBytes);
      }
    }
    for (char c : chunk) {
      if (c == '\n') {
        emit();
      } else if (line.size() < options_.maxLineBytes) {
        line.push_back(c);
      }
    }
  }
  if (!line.empty()) emit();
  ::close(fd);
}

ExitStatus ChildChannel::shutdown(std::chrono::milliseconds grace) {
  channel_->closeWrite();
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
  std::lock_guard lock(mutex_);
  return stderrTail_.size() > options_.keepStderrBytes ? stderrTail_.substr(stderrTail_.size() - options_.keepStderrBytes)
                                                      : stderrTail_;
}

}  // namespace lathe::tools::process
