// engine/agent/session_table.h on a manual executor: nothing of a turn runs
// until the test drains the executor, so each step is decided here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>

#include "engine/agent/session_table.h"
#include "engine/model/model_provider.h"
#include "tests/engine/session/fake_editor.h"
#include "protocol/exec/executor.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;

namespace {

struct TableFixture {
  testing::TempDir dir;
  AgentConfig config;
  testing::FakeEditor editor;
  exec::Executor executor{exec::Executor::Options{exec::Executor::Mode::manual}};
  SessionTable table{executor};

  std::shared_ptr<Session> open(const std::string& id) {
    auto ws = std::make_shared<const tools::Workspace>(tools::Workspace::create(dir.path.string()).value());
    auto session = std::make_shared<Session>(id, ws, config, editor);
    REQUIRE(table.add(id, session, nullptr).ok());
    return session;
  }
};

}  // namespace

TEST_CASE("session table: a turn runs only when the executor does, and done follows it once", "[session_table]") {
  TableFixture f;
  f.open("a");
  int ran = 0, finished = 0;
  auto turn = [&](Session&, const CancelToken&) -> Result<acp::StopReason> {
    ++ran;
    return acp::StopReason::end_turn;
  };
  REQUIRE(f.table.startTurn("a", turn, [&](Result<acp::StopReason> r) { finished += r.ok(); }).ok());
  CHECK(ran == 0);
  CHECK(f.table.lookup("a")->busy);
  // One turn at a time.
  CHECK_FALSE(f.table.startTurn("a", turn, [](Result<acp::StopReason>) {}).ok());
  f.executor.drain();
  CHECK(ran == 1);
  CHECK(finished == 1);
  CHECK_FALSE(f.table.lookup("a")->busy);
  CHECK(f.table.startTurn("a", turn, [](Result<acp::StopReason>) {}).ok());
  f.executor.drain();
}

TEST_CASE("session table: cancel reaches the running turn's token, and unknown ids are errors naming the field", "[session_table]") {
  TableFixture f;
  f.open("a");
  bool sawCancel = false;
  REQUIRE(f.table
              .startTurn(
                  "a",
                  [&](Session&, const CancelToken& cancel) -> Result<acp::StopReason> {
                    sawCancel = cancel.cancelled();
                    return acp::StopReason::cancelled;
                  },
                  [](Result<acp::StopReason>) {})
              .ok());
  REQUIRE(f.table.cancel("a").ok());
  f.executor.drain();
  CHECK(sawCancel);
  auto missing = f.table.cancel("nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("params.sessionId") != std::string::npos);
}

TEST_CASE("session table: a closed session's turn is cancelled and still ends, and shutdown refuses what comes after", "[session_table]") {
  TableFixture f;
  std::weak_ptr<Session> weak = f.open("a");
  bool sawCancel = false;
  int done = 0;
  REQUIRE(f.table
              .startTurn(
                  "a",
                  [&](Session&, const CancelToken& cancel) -> Result<acp::StopReason> {
                    sawCancel = cancel.cancelled();
                    return acp::StopReason::cancelled;
                  },
                  [&](Result<acp::StopReason>) { ++done; })
              .ok());
  REQUIRE(f.table.close("a").ok());
  CHECK_FALSE(f.table.lookup("a"));
  CHECK_FALSE(weak.expired());  // the queued turn holds it
  f.executor.drain();
  CHECK(sawCancel);
  CHECK(done == 1);
  CHECK(weak.expired());
  f.table.shutdown();
  CHECK_FALSE(f.table.add("b", nullptr, nullptr).ok());
}

namespace {

// A model that answers every request with one line of text.
class OneLine final : public ModelProvider {
 public:
  Result<ModelReply> generate(const ModelRequest&, const CancelToken&) override {
    return makeError(Errc::model, "not used");
  }
  Result<ModelReply> stream(const ModelRequest&, const ChunkSink& onChunk, const CancelToken&) override {
    ReplyAccumulator reply;
    ModelChunk chunk;
    chunk.parts.push_back(Part::makeText("hello"));
    onChunk(chunk);
    reply.add(chunk);
    ModelChunk last;
    last.finishReason = FinishReason::stop;
    reply.add(last);
    return reply.take();
  }
};

// A hook whose end-of-turn work throws (as any hook's may: allocation, a thread
// that cannot start); before issue 19 the turn's thread caught it.
struct ThrowsAfterTurn final : TurnHooks {
  void afterTurn(const History&, const CancelToken&) override { throw std::runtime_error("boom"); }
};

}  // namespace

TEST_CASE("session table: a turn whose hook throws still ends, as a failed turn, and done runs once", "[session_table]") {
  TableFixture f;
  f.config.provider = std::make_shared<OneLine>();
  auto session = f.open("a");
  session->addHooks(std::make_shared<ThrowsAfterTurn>());
  int done = 0;
  bool failed = false;
  // The turn SessionManager::startPrompt runs.
  REQUIRE(f.table
              .startTurn(
                  "a",
                  [](Session& s, const CancelToken& cancel) {
                    return s.prompt({acp::TextBlock{"hi"}}, cancel);
                  },
                  [&](Result<acp::StopReason> result) {
                    ++done;
                    failed = !result.ok();
                  })
              .ok());
  // On the threaded executor an exception escaping a task ends the process (std::terminate).
  CHECK_NOTHROW(f.executor.drain());
  CHECK(done == 1);
  CHECK(failed);
  CHECK_FALSE(f.table.lookup("a")->busy);
}
