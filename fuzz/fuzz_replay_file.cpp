// Fuzz target: replay-file parsing (ReplayProvider::open on a temporary file
// holding the input, Gemini CLI's --fake-responses JSON lines), in both
// orders. Single-threaded; the file lives in $TMPDIR for the run.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/model/replay_provider.h"

namespace {

const std::string& tempPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/lathe-fuzz-replay-" + std::to_string(getpid()) + ".jsonl";
  }();
  return path;
}

bool writeFile(const uint8_t* data, size_t size) {
  FILE* f = std::fopen(tempPath().c_str(), "wb");
  if (!f) return false;
  bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using lathe::engine::ReplayProvider;
  if (!writeFile(data, size)) abort();
  auto strict = ReplayProvider::open(tempPath());
  auto byMethod = ReplayProvider::open(tempPath(), ReplayProvider::Options{ReplayProvider::Order::byMethod});
  // Both orders read the same file: they accept or reject it together.
  if (strict.ok() != byMethod.ok()) abort();
  if (strict && (*strict)->remaining() != (*byMethod)->remaining()) abort();
  std::remove(tempPath().c_str());
  return 0;
}
