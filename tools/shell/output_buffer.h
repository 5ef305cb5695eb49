// The output of one shell command. Kept whole while it fits in maxChars;
// past that only the first 20% and a rolling last 80% stay in memory, the
// whole output streams to a file, and lines of the omitted middle that
// mention errors, warnings or failures are collected for the model. Limits
// count bytes (for ASCII, characters); notes report characters. Used by one
// thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lathe::tools::shell {

struct OutputBufferOptions {
  size_t maxChars = 40'000;
  std::string saveDir;   // where the full output goes once it passes maxChars; empty: not saved
  std::string saveStem;  // file name without extension, e.g. "shell-4242"
};

class OutputBuffer {
 public:
  explicit OutputBuffer(OutputBufferOptions options);
  ~OutputBuffer();
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  void append(std::string_view chunk);
  // Closes the saved file; call after the last append.
  void finish();

  uint64_t totalBytes() const { return totalBytes_; }
  uint64_t totalChars() const { return totalChars_; }
  bool truncated() const { return totalBytes_ > options_.maxChars; }
  const std::string& savedPath() const { return savedPath_; }  // empty when not saved
  const std::string& saveError() const { return saveError_; }  // why saving failed, if it did

  // The end of the output as terminal text, at most about maxBytes (live updates).
  std::string recent(size_t maxBytes) const;
  // What the model reads (terminal text): the whole output, or the head, a
  // note naming what was left out and where it is saved (with the error and
  // warning lines of the left-out part), and the tail.
  std::string modelText() const;

 private:
  void startSaving();
  void writeSaved(std::string_view bytes);
  void scanOmitted(std::string_view bytes);
  void endOmittedLine();

  OutputBufferOptions options_;
  size_t headCap_;
  size_t tailCap_;
  std::string head_;
  std::string tail_;  // everything after the head, trimmed to the last tailCap_ bytes lazily
  uint64_t totalBytes_ = 0;
  uint64_t totalChars_ = 0;
  int fd_ = -1;
  bool saving_ = false;
  std::string savedPath_;
  std::string saveError_;
  std::string omittedLine_;  // the line of the omitted part being scanned
  std::vector<std::string> notableLines_;
  size_t notableTotal_ = 0;
};

}  // namespace lathe::tools::shell
