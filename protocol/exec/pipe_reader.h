// Reads a descriptor (a child's stdout or stderr pipe) on the executor's
// reactor instead of a thread per pipe: each chunk goes to onData as it
// arrives, then onEnd runs once at end of input (or a read error). The reader
// owns the descriptor and closes it when it ends or stops.
//
// Threads: the callbacks run on the reactor and must not block; stop() and
// the destructor may be called from any thread, and from the callbacks.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/exec/executor.h"

namespace lathe::exec {

class PipeReader {
 public:
  using DataFn = std::function<void(std::string_view chunk)>;
  using EndFn = std::function<void()>;

  PipeReader();
  PipeReader(PipeReader&&) noexcept;
  PipeReader& operator=(PipeReader&&) noexcept;
  ~PipeReader();  // stop()

  // Starts reading `fd` (taken over).
  static PipeReader start(Executor& executor, int fd, DataFn onData, EndFn onEnd);

  // After it returns no callback runs, and none is running except the
  // caller's own; the descriptor is closed on the reactor. Idempotent.
  void stop();
  // True until onEnd ran or stop() was called.
  bool reading() const;
  // From a reactor callback only: reads what the pipe holds right now (up to
  // `limit` bytes) into onData without waiting, e.g. what a child wrote just
  // before the exit that callback is about. End of input is left to the
  // reader's own wait.
  void readAvailable(size_t limit);

  struct State;

 private:
  explicit PipeReader(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

// Cuts chunks into lines for a PipeReader: each line without its '\n' (and a
// '\r' before it is kept); a last line without '\n' counts at finish(); a
// line longer than maxBytes is cut there (the rest of it is dropped).
class LineSplitter {
 public:
  LineSplitter(size_t maxBytes, std::function<void(std::string_view line)> onLine);
  void feed(std::string_view chunk);
  void finish();

 private:
  size_t maxBytes_;
  std::function<void(std::string_view)> onLine_;
  std::string line_;
};

}  // namespace lathe::exec
