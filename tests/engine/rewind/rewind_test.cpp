// Rewinds below the session: which files go back where (a table), a look at
// files changed elsewhere, writes checked again, and the log on disk.
#include <catch2/catch.hpp>

#include <fstream>

#include "engine/rewind/file_restore.h"
#include "engine/rewind/rewind_log.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

PromptRecord prompt(std::vector<tools::FileChange> files) {
  PromptRecord out;
  out.text = "p";
  out.files = std::move(files);
  return out;
}

std::string readWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("rewind steps: each file back to before the first prompt that changed it") {
  struct Row {
    const char* what;
    std::vector<PromptRecord> prompts;
    std::vector<RestoreStep> steps;
  };
  const std::vector<Row> rows = {
      {"one edit", {prompt({{"/w/a", "1", "2"}})}, {{"/w/a", "2", "1"}}},
      {"two prompts on one file", {prompt({{"/w/a", "1", "2"}}), prompt({{"/w/a", "2", "3"}})}, {{"/w/a", "3", "1"}}},
      {"created, then removed by the next: nothing to do", {prompt({{"/w/a", "", "2"}}), prompt({{"/w/a", "2", ""}})}, {}},
      {"created is removed", {prompt({{"/w/n", "", "x"}})}, {{"/w/n", "x", ""}}},
      {"files of several prompts", {prompt({{"/w/a", "1", "2"}}), prompt({{"/w/b", "5", "6"}})},
       {{"/w/a", "2", "1"}, {"/w/b", "6", "5"}}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    auto steps = stepsToUndo(row.prompts);
    REQUIRE(steps.size() == row.steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      CHECK(steps[i].path == row.steps[i].path);
      CHECK(steps[i].expected == row.steps[i].expected);
      CHECK(steps[i].target == row.steps[i].target);
    }
  }
  auto redo = stepsToRedo({{"/w/a", "1", "2"}});
  REQUIRE(redo.size() == 1);
  CHECK(redo[0].expected == "1");
  CHECK(redo[0].target == "2");
}

TEST_CASE("file restore: files changed elsewhere are left alone unless overwritten, each checked again") {
  TempDir store, folder;
  auto workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(folder.str()).value());
  tools::ChangeRecorder blobs(workspace, store.str(), 1 << 20);
  auto disk = tools::makeDiskFileStore();
  const std::string mine = folder.str() + "/mine.txt", theirs = folder.str() + "/theirs.txt", made = folder.str() + "/made.txt";
  std::ofstream(mine) << "turn";
  std::ofstream(theirs) << "person";
  std::ofstream(made) << "new";
  std::vector<RestoreStep> steps = {
      {mine, blobs.keep(mine, "turn").value(), blobs.keep(mine, "before").value()},
      {theirs, blobs.keep(theirs, "turn").value(), blobs.keep(theirs, "before").value()},
      {made, blobs.keep(made, "new").value(), ""},
  };
  FileRestore restore(blobs, *disk, *workspace);
  auto look = restore.look(steps, CancelToken{});
  REQUIRE(look);
  CHECK_FALSE((*look)[0].changedElsewhere);
  CHECK((*look)[1].changedElsewhere);
  auto out = restore.apply(*look, false, CancelToken{});
  CHECK(readWhole(mine) == "before");
  CHECK(readWhole(theirs) == "person");
  CHECK_FALSE(fs::exists(made));
  CHECK(out.leftAlone == std::vector<std::string>{"theirs.txt"});
  REQUIRE(out.written.size() == 2);
  CHECK(blobs.read(mine, out.written[0].after).value() == "turn");  // what it held, for /redo

  // A file that changes between the look and the write is left alone.
  std::ofstream(mine, std::ios::trunc) << "turn";
  auto again = restore.look({steps[0]}, CancelToken{});
  REQUIRE(again);
  std::ofstream(mine, std::ios::trunc) << "typed meanwhile";
  auto late = restore.apply(*again, true, CancelToken{});
  CHECK(late.written.empty());
  CHECK(late.leftAlone.size() == 1);
  CHECK(readWhole(mine) == "typed meanwhile");

  // A step outside the workspace fails the look.
  CHECK_FALSE(restore.look({{"/etc/passwd", "", ""}}, CancelToken{}).ok());
}

TEST_CASE("rewind log: saved and read back whole, with what /redo needs") {
  TempDir folder;
  RewindLog log;
  PromptRecord first = prompt({{"/w/a", "1", "2"}});
  first.text = "fix \"it\"\nplease";
  first.historyAt = 4;
  first.historyParts = 2;
  log.prompts.push_back(first);
  UndoneRecord undone;
  undone.prompts.push_back(prompt({{"/w/b", "", "3"}}));
  undone.files = {{"/w/b", "", "3"}};
  undone.history = {Content{Role::user, {Part::makeText("hello")}}};
  log.undone = undone;
  REQUIRE(log.save(folder.str()));
  auto read = RewindLog::load(folder.str());
  REQUIRE(read);
  REQUIRE(read->prompts.size() == 1);
  CHECK(read->prompts[0].text == first.text);
  CHECK(read->prompts[0].historyAt == 4);
  CHECK(read->prompts[0].historyParts == 2);
  CHECK(read->prompts[0].files == first.files);
  REQUIRE(read->undone);
  CHECK(read->undone->files == undone.files);
  REQUIRE(read->undone->history.size() == 1);
  CHECK(*read->undone->history[0].parts[0].text == "hello");

  read->undone.reset();
  REQUIRE(read->save(folder.str()));
  CHECK_FALSE(fs::exists(folder.path / "redo.json"));
  CHECK(RewindLog::load((folder.path / "none").string())->prompts.empty());
  std::ofstream(folder.path / "rewind.json", std::ios::trunc) << "{\"prompts\": 3}";
  auto bad = RewindLog::load(folder.str());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("rewind.json") != std::string::npos);
}
