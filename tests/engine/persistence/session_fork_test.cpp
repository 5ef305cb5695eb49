// Forked records: a copy of a session's record under a new id that replays
// and goes on like any recorded session, and the record of a session with a
// turn under way read as its last turn left it. Every store lives in a temp dir.
#include <catch2/catch.hpp>

#include "engine/persistence/content_codec.h"
#include "engine/persistence/session_fork.h"
#include "engine/persistence/session_recorder.h"
#include "tests/support/temp_dir.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace lathe::engine::persist {
namespace {

using testing::TempDir;
using Who = acp::MessageChunk::Role;

std::string encoded(const std::vector<Content>& contents) {
  return json::build([&](json::Writer& w) { writeContents(w, contents, 0, 0); });
}

SessionMeta metaOf(const std::string& id, const std::string& title = "") {
  SessionMeta meta;
  meta.id = id;
  meta.cwd = "/tmp";
  meta.title = title;
  return meta;
}

// A prompt shown and answered: the history and what the editor saw.
void turn(SessionRecorder& recorder, History& history, const std::string& prompt) {
  recorder.onUpdate(acp::MessageChunk{Who::user, prompt, "msg_u_" + prompt});
  REQUIRE(history.appendUser({Part::makeText(prompt)}));
  recorder.onUpdate(acp::MessageChunk{Who::agent, "answer to " + prompt, "msg_a_" + prompt});
  REQUIRE(history.appendModel(Content{Role::model, {Part::makeText("answer to " + prompt)}}));
  recorder.turnEnded(history);
}

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("persist: a forked record replays the original's updates under its own id and goes on alone", "[persist][fork]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto original = SessionRecorder::create(store, metaOf("sess_orig"));
  REQUIRE(original);
  History history;
  turn(**original, history, "one");
  (*original)->recordFor("sess_orig-child", acp::MessageChunk{Who::agent, "child work", "msg_c"});
  (*original)->onUpdate(acp::SessionInfoUpdate{"Named by the model"});
  turn(**original, history, "two");
  (*original)->close();

  auto record = store.readRecord("sess_orig");
  REQUIRE(record);
  REQUIRE(writeForkedRecord(store, metaOf("sess_fork", "Named by the model"), "sess_orig", *record));
  const std::string originalBytes = fileText(dir.path / "sess_orig" / "record.jsonl");

  auto fork = SessionRecorder::open(store, "sess_fork");
  REQUIRE(fork);
  CHECK(encoded(fork->history.contents()) == encoded(history.contents()));
  CHECK(fork->meta.id == "sess_fork");
  CHECK(fork->meta.title == "Named by the model");
  REQUIRE(fork->shown.size() == record->shown.size());
  size_t own = 0;
  for (const auto& line : fork->shown) {
    INFO(line);
    CHECK(line.find("sess_orig\"") == std::string::npos);  // only the child's id keeps the original's
    own += line.starts_with(R"({"sessionId":"sess_fork",)");
  }
  CHECK(own == fork->shown.size() - 1);
  CHECK(withoutChildSessions(fork->shown, "sess_fork").size() == own);

  // The fork goes on: its turn is in its record only.
  turn(*fork->recorder, fork->history, "three");
  fork->recorder->close();
  CHECK(fileText(dir.path / "sess_orig" / "record.jsonl") == originalBytes);
  auto again = SessionRecorder::open(store, "sess_fork");
  REQUIRE(again);
  CHECK(again->history.size() == 6);
  auto originalAgain = SessionRecorder::open(store, "sess_orig");
  REQUIRE(originalAgain);
  CHECK(originalAgain->history.size() == 4);

  // A fork never writes over a session.
  auto twice = writeForkedRecord(store, metaOf("sess_fork"), "sess_orig", *record);
  REQUIRE_FALSE(twice);
  CHECK_THAT(twice.error().message, Catch::Contains("exists already"));
}

TEST_CASE("persist: renaming a recorded update touches only the session's own", "[persist][fork]") {
  CHECK(renamedUpdate(R"({"sessionId":"a","update":{}})", "a", "b") == R"({"sessionId":"b","update":{}})");
  CHECK(renamedUpdate(R"({"sessionId":"a-1","update":{}})", "a", "b") == R"({"sessionId":"a-1","update":{}})");
  CHECK(renamedUpdate(R"({"sessionId":"ab","update":{}})", "a", "b") == R"({"sessionId":"ab","update":{}})");
}

TEST_CASE("persist: the settled record leaves a turn under way out, whole", "[persist][fork]") {
  TempDir dir;
  SessionStore store(dir.str());
  auto recorder = SessionRecorder::create(store, metaOf("sess_busy"));
  REQUIRE(recorder);
  History history;
  turn(**recorder, history, "done");
  // The next turn: its prompt shown, its history recorded before the model
  // request, an answer half streamed.
  (*recorder)->onUpdate(acp::MessageChunk{Who::user, "under way", "msg_u2"});
  REQUIRE(history.appendUser({Part::makeText("under way")}));
  CancelToken token;
  (*recorder)->beforeModelRequest(history, token);
  (*recorder)->onUpdate(acp::MessageChunk{Who::agent, "half", "msg_a2"});

  auto settled = (*recorder)->recordSoFar(true);
  REQUIRE(settled);
  CHECK(settled->shown.size() == 2);
  CHECK(settled->contents.size() == 2);
  for (const auto& line : settled->shown) CHECK(line.find("under way") == std::string::npos);

  // The streamed message was not cut by the settled read: it stays one record.
  (*recorder)->onUpdate(acp::MessageChunk{Who::agent, " more", "msg_a2"});
  REQUIRE(history.appendModel(Content{Role::model, {Part::makeText("half more")}}));
  (*recorder)->turnEnded(history);
  auto all = (*recorder)->recordSoFar(false);
  REQUIRE(all);
  CHECK(all->contents.size() == 4);
  REQUIRE(all->shown.size() == 4);
  CHECK_THAT(all->shown.back(), Catch::Contains("half more"));
  (*recorder)->close();
  auto opened = SessionRecorder::open(store, "sess_busy");
  REQUIRE(opened);
  CHECK(opened->history.size() == 4);

  // Opened again, before any turn: settled is the record as it was opened.
  (*opened).recorder->onUpdate(acp::MessageChunk{Who::user, "new turn", "msg_u3"});
  auto reopened = opened->recorder->recordSoFar(true);
  REQUIRE(reopened);
  CHECK(reopened->contents.size() == 4);
  for (const auto& line : reopened->shown) CHECK(line.find("new turn") == std::string::npos);
}

}  // namespace lathe::engine::persist
