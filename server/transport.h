// Byte transport of the JSON-RPC connection: reads frames from an input fd on
// the calling thread, writes whole frames to an output fd from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

#include "protocol/framing.h"

namespace lathe::server {

class Transport {
 public:
  Transport(int inFd, int outFd) : inFd_(inFd), outFd_(outFd) {}

  // Reads until end of input, calling onFrame for each frame in order.
  void readLoop(const std::function<void(Frame)>& onFrame);

  // Writes one message in the framing the peer used; false once the output is gone.
  bool send(const std::string& json);

 private:
  int inFd_;
  int outFd_;
  std::mutex writeMutex_;
  FrameDecoder decoder_;                             // reading thread only
  std::atomic<Framing> framing_{Framing::unknown};  // replies use the peer's style
  bool outputBroken_ = false;
};

}  // namespace lathe::server
