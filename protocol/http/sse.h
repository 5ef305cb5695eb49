// An incremental Server-Sent-Events parser (the WHATWG event-stream format):
// bytes go in split anywhere, complete events come out. Plain value; used on
// the thread that reads the HTTP stream.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lathe::http {

struct SseEvent {
  std::string type = "message";  // the `event:` field, "message" when absent
  std::string data;              // `data:` lines joined with '\n'
  std::string id;                // the last `id:` seen, as the spec carries it over
};

class SseParser {
 public:
  // Feeds the next bytes of the stream; returns the events they complete.
  std::vector<SseEvent> feed(std::string_view bytes);
  // The stream ended: returns an event still pending without its blank line.
  std::optional<SseEvent> finish();

 private:
  void line(std::string_view text, std::vector<SseEvent>& out);
  void dispatch(std::vector<SseEvent>& out);

  std::string partial_;       // an unterminated line
  bool skipLf_ = false;       // the last byte was '\r': a following '\n' is its pair
  bool started_ = false;      // past a possible byte-order mark
  bool haveData_ = false;
  std::string data_;
  std::string type_;
  std::string lastId_;
};

}  // namespace lathe::http
