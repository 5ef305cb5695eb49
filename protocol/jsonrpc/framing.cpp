// Frame decoding for newline-delimited and Content-Length framed JSON-RPC.
#include "protocol/jsonrpc/framing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lathe {
namespace {

constexpr std::string_view kContentLength = "content-length:";

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

bool isBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

}  // namespace

void FrameDecoder::feed(std::string_view bytes, std::vector<Frame>& out) {
  buffer_.append(bytes);
  if (framing_ == Framing::unknown) {
    size_t start = buffer_.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return;
    std::string_view rest(buffer_.data() + start, buffer_.size() - start);
    if (rest.size() < kContentLength.size() && startsWithIgnoreCase(rest, kContentLength.substr(0, rest.size()))) {
      return;  // could still become a header; wait for more bytes
    }
    framing_ = startsWithIgnoreCase(rest, kContentLength) ? Framing::content_length : Framing::newline;
  }
  if (framing_ == Framing::newline) {
    decodeLines(out);
  } else {
    decodeHeaders(out);
  }
}

void FrameDecoder::finish(std::vector<Frame>& out) {
  if (framing_ != Framing::content_length && !discarding_ && !isBlank(buffer_)) {
    out.push_back(Frame{std::move(buffer_), std::nullopt});
  }
  buffer_.clear();
  scanned_ = 0;
}

void FrameDecoder::decodeLines(std::vector<Frame>& out) {
  size_t begin = 0;
  for (;;) {
    size_t nl = buffer_.find('\n', std::max(begin, scanned_));
    if (nl == std::string::npos) break;
    if (discarding_) {
      discarding_ = false;
    } else {
      std::string_view line(buffer_.data() + begin, nl - begin);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (!isBlank(line)) out.push_back(Frame{std::string(line), std::nullopt});
    }
    begin = nl + 1;
    scanned_ = begin;
  }
  buffer_.erase(0, begin);
  scanned_ = buffer_.size();
  if (buffer_.size() > maxFrame_ && !discarding_) {
    out.push_back(Frame{{}, "message exceeds " + std::to_string(maxFrame_) + " bytes"});
    discarding_ = true;
  }
  if (discarding_) {
    buffer_.clear();
    scanned_ = 0;
  }
}

void FrameDecoder::decodeHeaders(std::vector<Frame>& out) {
  for (;;) {
    if (skip_ > 0) {
      size_t drop = std::min(skip_, buffer_.size());
      buffer_.erase(0, drop);
      skip_ -= drop;
      if (skip_ > 0) return;
    }
    if (!contentLength_) {
      // The headers end at the first empty line, whatever mix of LF and CRLF
      // ends each line ("Content-Length: 5\n\r\n" included).
      size_t end = std::string::npos, sepLen = 0;
      for (size_t lineStart = 0;;) {
        size_t nl = buffer_.find('\n', lineStart);
        if (nl == std::string::npos) break;
        size_t lineEnd = nl > lineStart && buffer_[nl - 1] == '\r' ? nl - 1 : nl;
        if (lineEnd == lineStart && lineStart > 0) {
          end = lineStart;
          sepLen = nl + 1 - lineStart;
          break;
        }
        lineStart = nl + 1;
      }
      if (end == std::string::npos) {
        if (buffer_.size() > 64 * 1024) {
          out.push_back(Frame{{}, "header block too large"});
          buffer_.clear();
        }
        return;
      }
      std::string_view headers(buffer_.data(), end);
      std::optional<size_t> length;
      size_t pos = 0;
      while (pos <= headers.size()) {
        size_t eol = headers.find('\n', pos);
        std::string_view line = headers.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        size_t first = line.find_first_not_of(" \t\r\n");
        if (first != std::string_view::npos) line.remove_prefix(first);
        if (startsWithIgnoreCase(line, kContentLength)) {
          std::string_view num = line.substr(kContentLength.size());
          while (!num.empty() && (num.front() == ' ' || num.front() == '\t')) num.remove_prefix(1);
          size_t n = 0;
          auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), n);
          if (ec == std::errc() && ptr != num.data()) length = n;
        }
        if (eol == std::string::npos) break;
        pos = eol + 1;
      }
      buffer_.erase(0, end + sepLen);
      if (!length) {
        out.push_back(Frame{{}, "missing or invalid Content-Length header"});
        continue;
      }
      if (*length > maxFrame_) {
        out.push_back(Frame{{}, "message exceeds " + std::to_string(maxFrame_) + " bytes"});
        skip_ = *length;  // drop exactly its body; the next header follows it
        continue;
      }
      contentLength_ = length;
    }
    if (buffer_.size() < *contentLength_) return;
    out.push_back(Frame{buffer_.substr(0, *contentLength_), std::nullopt});
    buffer_.erase(0, *contentLength_);
    contentLength_.reset();
  }
}

std::string frameHeader(size_t jsonSize, Framing framing) {
  if (framing != Framing::content_length) return {};
  return "Content-Length: " + std::to_string(jsonSize) + "\r\n\r\n";
}

std::string_view frameTrailer(Framing framing) { return framing == Framing::content_length ? "" : "\n"; }

std::string encodeFrame(std::string_view json, Framing framing) {
  std::string out = frameHeader(json.size(), framing);
  out.append(json);
  out.append(frameTrailer(framing));
  return out;
}

}  // namespace lathe
