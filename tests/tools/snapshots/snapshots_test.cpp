// The shadow repository (snapshots of a folder, the changes between two, its
// ignore rules and size limit) and the ChangeRecorder built on it.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tools/snapshots/change_recorder.h"
#include "tools/snapshots/shadow_repo.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

void put(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::unique_ptr<ShadowRepo> openRepo(const TempDir& store, const TempDir& folder, int64_t maxBytes = 1 << 20) {
  auto repo = ShadowRepo::open(shadowRepoDir(store.str(), folder.str()), folder.str(), maxBytes);
  REQUIRE(repo);
  return std::move(repo).value();
}

std::vector<std::string> changedPaths(ShadowRepo& repo, const std::string& a, const std::string& b) {
  auto changes = repo.changes(a, b);
  REQUIRE(changes);
  std::vector<std::string> out;
  for (const auto& change : *changes) out.push_back(fs::path(change.path).filename().string());
  return out;
}

}  // namespace

TEST_CASE("shadow repo: two snapshots differ by what changed in between, kept outside the folder") {
  TempDir store, folder;
  put(folder.path / "a.txt", "a\n");
  put(folder.path / "sub/b.txt", "b\n");
  put(folder.path / "gone.txt", "bye\n");
  auto repo = openRepo(store, folder);
  auto first = repo->snapshot();
  REQUIRE(first);
  put(folder.path / "a.txt", "A\n");
  put(folder.path / "sub/new.txt", "new\n");
  fs::remove(folder.path / "gone.txt");
  auto second = repo->snapshot();
  REQUIRE(second);
  CHECK(changedPaths(*repo, *first, *second) == std::vector<std::string>{"a.txt", "gone.txt", "new.txt"});
  auto changes = repo->changes(*first, *second);
  REQUIRE(changes);
  const auto& a = changes->front();
  CHECK(a.path == folder.str() + "/a.txt");
  CHECK(repo->read(a.before).value() == "a\n");
  CHECK(repo->read(a.after).value() == "A\n");
  CHECK((*changes)[1].after.empty());   // gone.txt
  CHECK((*changes)[2].before.empty());  // new.txt
  CHECK(repo->snapshot().value() == *second);  // nothing changed since
  CHECK_FALSE(fs::exists(folder.path / ".git"));
}

TEST_CASE("shadow repo: ignored files, files past the limit and a nested repository are left out") {
  TempDir store, folder;
  put(folder.path / ".gitignore", "*.log\n");
  put(folder.path / "kept.txt", "k\n");
  auto repo = openRepo(store, folder, 100);
  auto first = repo->snapshot();
  REQUIRE(first);
  put(folder.path / "noise.log", "ignored\n");
  put(folder.path / "big.bin", std::string(200, 'x'));
  put(folder.path / "nested/.git/HEAD", "ref: refs/heads/main\n");
  put(folder.path / "kept.txt", "K\n");
  auto second = repo->snapshot();
  REQUIRE(second);
  CHECK(changedPaths(*repo, *first, *second) == std::vector<std::string>{"kept.txt"});
}

TEST_CASE("shadow repo: blobs keep bytes exactly and know binary from text") {
  TempDir store, folder;
  auto repo = openRepo(store, folder);
  auto text = repo->put("line\r\n");
  auto binary = repo->put(std::string("\0\1\2", 3));
  REQUIRE(text);
  REQUIRE(binary);
  CHECK(repo->read(*text).value() == "line\r\n");
  CHECK_FALSE(repo->binary(*text));
  CHECK(repo->binary(*binary));
  CHECK(repo->size(*binary) == 3);
  CHECK_FALSE(repo->read("0123").ok());
}

TEST_CASE("change recorder: a file's first before and last after, dropped when it ends as it began") {
  TempDir store, folder;
  auto workspace = std::make_shared<const Workspace>(Workspace::create(folder.str()).value());
  ChangeRecorder recorder(workspace, store.str(), 1 << 20);
  const std::string a = folder.str() + "/a.txt", b = folder.str() + "/b.txt";
  recorder.wrote(a, std::string("1"), "2");
  recorder.wrote(a, std::string("2"), "3");
  recorder.wrote(b, std::nullopt, "new");
  recorder.wrote(b, std::string("new"), "newer");
  recorder.wrote("/elsewhere/c.txt", std::string("x"), "y");  // outside the workspace: not kept
  auto changes = recorder.take();
  REQUIRE(changes.size() == 2);
  CHECK(recorder.read(a, changes[0].before).value() == "1");
  CHECK(recorder.read(a, changes[0].after).value() == "3");
  CHECK(changes[1].before.empty());
  CHECK(recorder.take().empty());
  recorder.wrote(a, std::string("3"), "4");
  recorder.wrote(a, std::string("4"), "3");
  CHECK(recorder.take().empty());
}

TEST_CASE("change recorder: a command's changes as diffs and notes, kept with the rest") {
  TempDir store, folder;
  put(folder.path / "t.txt", "old\n");
  put(folder.path / "bye.txt", "bye\n");
  auto workspace = std::make_shared<const Workspace>(Workspace::create(folder.str()).value());
  ChangeRecorder recorder(workspace, store.str(), 1 << 20);
  auto mark = recorder.mark();
  REQUIRE(mark);
  put(folder.path / "t.txt", "new\n");
  put(folder.path / "img.bin", std::string("\0PNG", 4));
  fs::remove(folder.path / "bye.txt");
  auto changed = recorder.changedSince(*mark);
  REQUIRE(changed);
  REQUIRE(changed->diffs.size() == 2);
  CHECK(changed->diffs[0].path == folder.str() + "/bye.txt");
  CHECK(changed->diffs[0].newText.empty());
  CHECK(changed->diffs[1].oldText == std::optional<std::string>("old\n"));
  CHECK(changed->diffs[1].newText == "new\n");
  CHECK(changed->notes == std::vector<std::string>{"bye.txt was deleted", "img.bin was created (a binary file)"});
  CHECK(recorder.take().size() == 3);
  CHECK_FALSE(recorder.changedSince("not-a-mark").ok());
}
