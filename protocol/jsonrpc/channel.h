// A byte channel carries one JSON-RPC connection: the editor's stdio, an MCP
// server's pipes, or an in-memory pair for tests. read() blocks its caller (the
// peer's reading thread); write() may be called from any thread and is
// serialised by the peer.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>

namespace lathe::rpc {

class ByteChannel {
 public:
  virtual ~ByteChannel() = default;
  // Blocks for the next bytes; 0 at end of input.
  virtual size_t read(char* buffer, size_t size) = 0;
  // Writes all bytes; false once the other side is gone.
  virtual bool write(std::string_view bytes) = 0;
  // Ends our output: the other side reads end of input.
  virtual void closeWrite() = 0;
};

// Reads from inFd and writes to outFd (stdio, or a child's pipes). The fds stay
// owned by the caller unless ownFds is set.
std::unique_ptr<ByteChannel> makeFdChannel(int inFd, int outFd, bool ownFds = false);

// Two connected in-memory channels: what one writes, the other reads.
std::pair<std::unique_ptr<ByteChannel>, std::unique_ptr<ByteChannel>> makeMemoryChannelPair();

}  // namespace lathe::rpc
