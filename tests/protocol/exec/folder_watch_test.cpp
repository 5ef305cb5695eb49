// FolderWatch: inotify on the executor (manual mode: events are read when the
// test drains, the quiet time passes when it advances the clock), changes in
// subfolders and in folders that appear later, one call per burst, nothing
// after stop().
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "protocol/exec/executor.h"
#include "protocol/exec/folder_watch.h"
#include "tests/support/temp_dir.h"

using namespace std::chrono_literals;
using lathe::exec::Executor;
using lathe::exec::FolderWatch;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& path, const std::string& text = "x") {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// Reads what inotify has, lets the quiet time pass, and runs the call.
void settle(Executor& executor) {
  executor.drain();
  executor.advance(150ms);
  executor.drain();
}

}  // namespace

TEST_CASE("folder watch: a burst of changes below a folder is told once, after the quiet time") {
  TempDir dir;
  fs::create_directories(dir.path / "commands" / "git");
  Executor executor({Executor::Mode::manual});
  std::atomic<int> calls{0};
  FolderWatch watch = FolderWatch::start(executor, {(dir.path / "commands").string()}, [&] { ++calls; });
  REQUIRE(watch.watching());
  executor.drain();
  CHECK(calls == 0);

  touch(dir.path / "commands" / "git" / "msg.toml");
  touch(dir.path / "commands" / "top.toml");
  executor.drain();
  executor.advance(50ms);
  CHECK(calls == 0);  // still within the quiet time
  settle(executor);
  CHECK(calls == 1);

  // A folder made after the start is watched from the call on.
  fs::create_directories(dir.path / "commands" / "new");
  settle(executor);
  CHECK(calls == 2);
  touch(dir.path / "commands" / "new" / "x.toml");
  settle(executor);
  CHECK(calls == 3);
  fs::remove(dir.path / "commands" / "top.toml");
  settle(executor);
  CHECK(calls == 4);

  settle(executor);
  CHECK(calls == 4);  // nothing changed, nothing told
  watch.stop();
  touch(dir.path / "commands" / "after.toml");
  settle(executor);
  CHECK(calls == 4);
}

TEST_CASE("folder watch: a folder that does not exist yet counts once it is made") {
  TempDir dir;
  Executor executor({Executor::Mode::manual});
  std::atomic<int> calls{0};
  FolderWatch watch = FolderWatch::start(executor, {(dir.path / ".gemini" / "commands").string()}, [&] { ++calls; });
  REQUIRE(watch.watching());
  touch(dir.path / "unrelated.txt");
  settle(executor);
  const int before = calls;  // its parent's own changes may count: reading again is harmless
  touch(dir.path / ".gemini" / "commands" / "a.toml");
  settle(executor);
  CHECK(calls > before);
  const int made = calls;
  touch(dir.path / ".gemini" / "commands" / "b.toml");
  settle(executor);
  CHECK(calls == made + 1);
}

TEST_CASE("folder watch: watches share one inotify descriptor, so many can run, and stopping one leaves the rest") {
  TempDir dir;
  fs::create_directories(dir.path / "shared");
  Executor executor({Executor::Mode::manual});
  // More watches than a person may have inotify instances (128 by default).
  std::vector<FolderWatch> many;
  std::atomic<int> manyCalls{0};
  for (int i = 0; i < 200; ++i) {
    many.push_back(FolderWatch::start(executor, {(dir.path / ("tree" + std::to_string(i))).string()}, [&] { ++manyCalls; }));
    REQUIRE(many.back().watching());
  }
  std::atomic<int> first{0}, second{0};
  FolderWatch a = FolderWatch::start(executor, {(dir.path / "shared").string()}, [&] { ++first; });
  FolderWatch b = FolderWatch::start(executor, {(dir.path / "shared").string()}, [&] { ++second; });
  touch(dir.path / "shared" / "one.toml");
  settle(executor);
  CHECK(first == 1);
  CHECK(second == 1);
  a.stop();
  touch(dir.path / "shared" / "two.toml");
  settle(executor);
  CHECK(first == 1);
  CHECK(second == 2);  // the folder is still watched for b
  touch(dir.path / "tree7" / "x.toml");
  settle(executor);
  CHECK(manyCalls >= 1);
}
