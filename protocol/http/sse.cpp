// Server-Sent-Events parsing: line splitting across feeds (LF, CRLF or CR),
// fields, comments and blank-line dispatch. Runs on the stream-reading thread.
#include "protocol/http/sse.h"

namespace lathe::http {

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  size_t pos = 0;
  if (skipLf_ && !bytes.empty()) {
    if (bytes[0] == '\n') pos = 1;
    skipLf_ = false;
  }
  while (pos < bytes.size()) {
    size_t end = bytes.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) {
      partial_.append(bytes.substr(pos));
      break;
    }
    std::string_view text = bytes.substr(pos, end - pos);
    if (partial_.empty()) {
      line(text, out);
    } else {
      partial_.append(text);
      line(partial_, out);
      partial_.clear();
    }
    pos = end + 1;
    if (bytes[end] == '\r') {
      if (pos == bytes.size()) {
        skipLf_ = true;
      } else if (bytes[pos] == '\n') {
        ++pos;
      }
    }
  }
  return out;
}

std::optional<SseEvent> SseParser::finish() {
  std::vector<SseEvent> out;
  if (!partial_.empty()) {
    std::string last = std::move(partial_);
    partial_.clear();
    line(last, out);
  }
  skipLf_ = false;
  dispatch(out);
  if (out.empty()) return std::nullopt;
  return std::move(out.back());
}

void SseParser::line(std::string_view text, std::vector<SseEvent>& out) {
  if (!started_) {
    started_ = true;
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  }
  if (text.empty()) {
    dispatch(out);
    return;
  }
  if (text.front() == ':') return;  // a comment (often a keep-alive)

  std::string_view field = text;
  std::string_view value;
  if (size_t colon = text.find(':'); colon != std::string_view::npos) {
    field = text.substr(0, colon);
    value = text.substr(colon + 1);
    if (value.starts_with(' ')) value.remove_prefix(1);
  }
  if (field == "data") {
    if (haveData_) data_ += '\n';
    data_.append(value);
    haveData_ = true;
  } else if (field == "event") {
    type_.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) lastId_.assign(value);
  }
  // "retry" and unknown fields are ignored.
}

void SseParser::dispatch(std::vector<SseEvent>& out) {
  if (haveData_) {
    SseEvent event;
    if (!type_.empty()) event.type = type_;
    event.data = std::move(data_);
    event.id = lastId_;
    out.push_back(std::move(event));
  }
  data_.clear();
  type_.clear();
  haveData_ = false;
}

}  // namespace lathe::http
