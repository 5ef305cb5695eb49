// Tests for the incremental SSE parser: any split of the bytes gives the same
// events; line endings, multi-line data, comments and fields.
#include <catch2/catch.hpp>

#include "protocol/http/sse.h"

using namespace lathe;

namespace {

std::vector<http::SseEvent> parseAll(std::string_view text, bool finish = true) {
  http::SseParser parser;
  auto events = parser.feed(text);
  if (finish) {
    if (auto last = parser.finish()) events.push_back(*last);
  }
  return events;
}

std::vector<http::SseEvent> parseInPieces(std::string_view text, const std::vector<size_t>& cuts) {
  http::SseParser parser;
  std::vector<http::SseEvent> events;
  size_t from = 0;
  for (size_t cut : cuts) {
    for (auto& e : parser.feed(text.substr(from, cut - from))) events.push_back(e);
    from = cut;
  }
  for (auto& e : parser.feed(text.substr(from))) events.push_back(e);
  if (auto last = parser.finish()) events.push_back(*last);
  return events;
}

void requireSame(const std::vector<http::SseEvent>& a, const std::vector<http::SseEvent>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].type == b[i].type);
    CHECK(a[i].data == b[i].data);
    CHECK(a[i].id == b[i].id);
  }
}

const std::string kStream =
    ": keep-alive comment\r\n"
    "data: {\"a\":1}\r\n"
    "\r\n"
    "event: update\n"
    "id: 7\n"
    "data: line one\n"
    "data:line two\n"
    "\n"
    "data: cr only\r\r"
    "data: {\"b\":\"\xC3\xA9\"}\n\n";

}  // namespace

TEST_CASE("SSE: events from one feed", "[sse]") {
  auto events = parseAll(kStream);
  REQUIRE(events.size() == 4);
  CHECK(events[0].type == "message");
  CHECK(events[0].data == "{\"a\":1}");
  CHECK(events[1].type == "update");
  CHECK(events[1].id == "7");
  CHECK(events[1].data == "line one\nline two");
  CHECK(events[2].type == "message");
  CHECK(events[2].data == "cr only");
  CHECK(events[2].id == "7");  // the last id carries over
  CHECK(events[3].data == "{\"b\":\"\xC3\xA9\"}");
}

TEST_CASE("SSE: every single split point gives the same events", "[sse]") {
  auto whole = parseAll(kStream);
  REQUIRE(whole.size() == 4);  // an empty parse would make every comparison pass
  for (size_t cut = 0; cut <= kStream.size(); ++cut) {
    INFO("cut at " << cut);
    requireSame(parseInPieces(kStream, {cut}), whole);
  }
}

TEST_CASE("SSE: byte-at-a-time feeding gives the same events", "[sse]") {
  std::vector<size_t> cuts;
  for (size_t i = 1; i < kStream.size(); ++i) cuts.push_back(i);
  auto pieces = parseInPieces(kStream, cuts);
  REQUIRE(pieces.size() == 4);
  requireSame(pieces, parseAll(kStream));
}

TEST_CASE("SSE: every pair of split points gives the same events", "[sse]") {
  const std::string text = "data: x\r\n\r\ndata: yz\r\ndata: w\r\n\r\n";
  auto whole = parseAll(text);
  REQUIRE(whole.size() == 2);
  for (size_t a = 0; a <= text.size(); ++a) {
    for (size_t b = a; b <= text.size(); ++b) {
      INFO("cuts at " << a << ", " << b);
      requireSame(parseInPieces(text, {a, b}), whole);
    }
  }
}

TEST_CASE("SSE: a CRLF split between feeds is one line ending", "[sse]") {
  http::SseParser parser;
  CHECK(parser.feed("data: a\r").empty());
  CHECK(parser.feed("\n").empty());  // the LF pairs with the CR: not a blank line
  auto events = parser.feed("\r\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "a");
}

TEST_CASE("SSE: comments, unknown fields and data-less events dispatch nothing", "[sse]") {
  auto events = parseAll(":only a comment\n\nretry: 100\n\nevent: ping\n\nfoo: bar\n\n");
  CHECK(events.empty());
}

TEST_CASE("SSE: an event type resets after dispatch", "[sse]") {
  auto events = parseAll("event: a\ndata: 1\n\ndata: 2\n\n");
  REQUIRE(events.size() == 2);
  CHECK(events[0].type == "a");
  CHECK(events[1].type == "message");
}

TEST_CASE("SSE: field forms", "[sse]") {
  auto events = parseAll("data\n\ndata:\n\ndata:  two spaces\n\ndata: a:b\n\n");
  REQUIRE(events.size() == 4);
  CHECK(events[0].data.empty());  // a field name alone
  CHECK(events[1].data.empty());
  CHECK(events[2].data == " two spaces");  // only one space is removed
  CHECK(events[3].data == "a:b");
}

TEST_CASE("SSE: a final event without a blank line comes out on finish", "[sse]") {
  http::SseParser parser;
  CHECK(parser.feed("data: first\n\ndata: last").size() == 1);
  auto last = parser.finish();
  REQUIRE(last);
  CHECK(last->data == "last");
  CHECK_FALSE(parser.finish());

  http::SseParser terminated;
  CHECK(terminated.feed("data: tail\n").empty());
  auto tail = terminated.finish();
  REQUIRE(tail);
  CHECK(tail->data == "tail");
}

TEST_CASE("SSE: a byte-order mark at the start is skipped", "[sse]") {
  auto events = parseAll("\xEF\xBB\xBF" "data: x\n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "x");
}
