// Head + rolling tail of a command's output, the full text saved to a file,
// and the model's view of it. Runs on the thread that reads the command.
#include "tools/shell/output_buffer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "tools/shell/terminal_text.h"

namespace lathe::tools::shell {
namespace {

constexpr size_t kNotableLinesMax = 50;
constexpr size_t kNotableLineChars = 300;
constexpr size_t kOmittedLineScan = 4096;  // bytes of a long line looked at

bool mentionsTrouble(std::string_view line) {
  std::string lower(line);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("error") != std::string::npos || lower.find("warning") != std::string::npos ||
         lower.find("fail") != std::string::npos;
}

std::string withThousands(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

OutputBuffer::OutputBuffer(OutputBufferOptions options)
    : options_(std::move(options)),
      headCap_(std::max<size_t>(options_.maxChars / 5, 1)),
      tailCap_(std::max<size_t>(options_.maxChars - std::min(options_.maxChars, headCap_), 1)) {}

OutputBuffer::~OutputBuffer() { finish(); }

void OutputBuffer::append(std::string_view chunk) {
  if (chunk.empty()) return;
  totalBytes_ += chunk.size();
  totalChars_ += countChars(chunk);
  if (saving_) writeSaved(chunk);
  size_t toHead = std::min(headCap_ - head_.size(), chunk.size());
  head_.append(chunk.substr(0, toHead));
  tail_.append(chunk.substr(toHead));
  if (!saving_ && truncated()) startSaving();
  if (tail_.size() > 2 * tailCap_ + 64 * 1024) {
    size_t drop = tail_.size() - tailCap_;
    scanOmitted(std::string_view(tail_).substr(0, drop));
    tail_.erase(0, drop);
  }
}

void OutputBuffer::startSaving() {
  saving_ = true;
  if (options_.saveDir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(options_.saveDir, ec);
  if (ec) {
    saveError_ = "cannot create " + options_.saveDir + ": " + ec.message();
    return;
  }
  std::string stem = options_.saveDir + "/" + (options_.saveStem.empty() ? "output" : options_.saveStem);
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    std::string path = stem + (attempt == 0 ? "" : "-" + std::to_string(attempt)) + ".txt";
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ >= 0) {
      savedPath_ = path;
    } else if (errno != EEXIST) {
      saveError_ = "cannot create " + path + ": " + std::strerror(errno);
      return;
    }
  }
  if (fd_ < 0) {
    saveError_ = "cannot find a free file name for " + stem;
    return;
  }
  writeSaved(head_);
  writeSaved(tail_);
}

void OutputBuffer::writeSaved(std::string_view bytes) {
  while (fd_ >= 0 && !bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      saveError_ = "writing " + savedPath_ + " failed: " + std::strerror(errno);
      ::close(fd_);
      fd_ = -1;
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void OutputBuffer::finish() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void OutputBuffer::scanOmitted(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    std::string_view part = bytes.substr(0, nl);
    if (omittedLine_.size() < kOmittedLineScan) {
      omittedLine_.append(part.substr(0, kOmittedLineScan - omittedLine_.size()));
    }
    if (nl == std::string_view::npos) return;
    endOmittedLine();
    bytes.remove_prefix(nl + 1);
  }
}

void OutputBuffer::endOmittedLine() {
  if (!omittedLine_.empty() && mentionsTrouble(omittedLine_)) {
    ++notableTotal_;
    if (notableLines_.size() < kNotableLinesMax) {
      std::string line = terminalText(omittedLine_);
      if (line.size() > kNotableLineChars) {
        line.resize(utf8FloorBoundary(line, kNotableLineChars));
        line += " [...]";
      }
      notableLines_.push_back(std::move(line));
    }
  }
  omittedLine_.clear();
}

std::string OutputBuffer::recent(size_t maxBytes) const {
  std::string text;
  if (tail_.size() >= maxBytes || truncated()) {
    std::string_view tail(tail_);
    size_t from = tail.size() > maxBytes ? utf8CeilBoundary(tail, tail.size() - maxBytes) : 0;
    text = std::string(tail.substr(from));
  } else {
    std::string all = head_ + tail_;
    size_t from = all.size() > maxBytes ? utf8CeilBoundary(all, all.size() - maxBytes) : 0;
    text = all.substr(from);
  }
  return terminalText(text);
}

std::string OutputBuffer::modelText() const {
  if (!truncated()) return terminalText(head_ + tail_);

  // The head up to its last line break near the end, the tail from its first
  // line break near the start, so the model sees whole lines.
  std::string_view head(head_);
  size_t headEnd = utf8FloorBoundary(head, headCap_);
  if (size_t nl = head.substr(0, headEnd).rfind('\n'); nl != std::string_view::npos && nl + 1 >= headEnd * 3 / 4) {
    headEnd = nl + 1;
  }
  head = head.substr(0, headEnd);
  std::string_view tail(tail_);
  size_t tailStart = tail.size() > tailCap_ ? utf8CeilBoundary(tail, tail.size() - tailCap_) : 0;
  if (size_t nl = tail.find('\n', tailStart); nl != std::string_view::npos && nl - tailStart <= tailCap_ / 4) {
    tailStart = nl + 1;
  }
  tail = tail.substr(tailStart);

  // Lines of the omitted middle still in the tail buffer (before the shown tail).
  std::vector<std::string> notable = notableLines_;
  size_t notableTotal = notableTotal_;
  {
    std::string pending = omittedLine_;
    std::string_view rest = std::string_view(tail_).substr(0, tailStart);
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      pending.append(rest.substr(0, std::min(nl, kOmittedLineScan)));
      if (nl == std::string_view::npos) break;
      if (mentionsTrouble(pending)) {
        ++notableTotal;
        if (notable.size() < kNotableLinesMax) {
          std::string line = terminalText(pending);
          if (line.size() > kNotableLineChars) line = line.substr(0, utf8FloorBoundary(line, kNotableLineChars)) + " [...]";
          notable.push_back(std::move(line));
        }
      }
      pending.clear();
      rest.remove_prefix(nl + 1);
    }
  }

  uint64_t shownChars = countChars(head) + countChars(tail);
  uint64_t omitted = totalChars_ > shownChars ? totalChars_ - shownChars : 0;
  std::string text = terminalText(head);
  if (!text.empty() && text.back() != '\n') text += '\n';
  text += "\n[... " + withThousands(omitted) + " characters omitted; ";
  if (!savedPath_.empty()) {
    text += "the full output (" + withThousands(totalChars_) + " characters) is saved in " + savedPath_ +
            " (read parts of it with shell commands such as grep, head, tail or sed) ...]\n";
  } else {
    text += "the full output (" + withThousands(totalChars_) + " characters) was not saved" +
            (saveError_.empty() ? std::string() : ": " + saveError_) + " ...]\n";
  }
  if (!notable.empty()) {
    text += "[Lines of the omitted part that mention errors, warnings or failures";
    if (notableTotal > notable.size()) {
      text += " (the first " + std::to_string(notable.size()) + " of " + std::to_string(notableTotal) + ")";
    }
    text += ":]\n";
    for (const auto& line : notable) text += line + "\n";
  }
  text += "\n";
  text += terminalText(tail);
  return text;
}

}  // namespace lathe::tools::shell
