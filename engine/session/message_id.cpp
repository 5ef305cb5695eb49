// Random message ids.
#include "engine/session/message_id.h"

#include <random>

namespace lathe::engine {

std::string newMessageId() { return randomId("msg_"); }

std::string randomId(std::string_view prefix) {
  thread_local std::mt19937_64 bits{(static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(prefix);
  for (int half = 0; half < 2; ++half) {
    uint64_t word = bits();
    for (int i = 0; i < 16; ++i, word >>= 4) id += kHex[word & 15];
  }
  return id;
}

}  // namespace lathe::engine
