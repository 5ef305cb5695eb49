// The global memory file: the entry format, where entries go, and the atomic,
// serialised update on disk.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include "tests/support/temp_dir.h"
#include "tools/memory/memory_file.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::readFile;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("a fact becomes one list line, and empty or multi-line facts are refused") {
  CHECK(memoryEntryFor("Prefers tabs").value() == "- Prefers tabs");
  CHECK(memoryEntryFor("  - - uses pnpm  ").value() == "- uses pnpm");
  // "@path" words would import files (from ~/.gemini, credentials too) into every prompt.
  CHECK(memoryEntryFor("see @oauth_creds.json and @./x, mail a@b.c, 2 @ 3").value() ==
        "- see `@oauth_creds.json` and `@./x,` mail a@b.c, 2 @ 3");  // the word runs to the next blank, as an import would
  CHECK(memoryEntryFor("run `make` after @settings.json").value() == "- run `make` after @ settings.json");
  auto empty = memoryEntryFor("  -  ");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message.find("empty") != std::string::npos);
  auto lines = memoryEntryFor("one\ntwo");
  REQUIRE_FALSE(lines);
  CHECK(lines.error().message.find("single line") != std::string::npos);
  CHECK_FALSE(memoryEntryFor("carriage\rreturn"));
  CHECK_FALSE(memoryEntryFor(std::string("nul\0byte", 8)));
}

TEST_CASE("the section is made at the end of a file that lacks it") {
  CHECK(withMemoryEntry("", "- a") == "## Gemini Added Memories\n- a\n");
  CHECK(withMemoryEntry("# Me\nhello", "- a") == "# Me\nhello\n\n## Gemini Added Memories\n- a\n");
  CHECK(withMemoryEntry("# Me\nhello\n", "- a") == "# Me\nhello\n\n## Gemini Added Memories\n- a\n");
  CHECK(withMemoryEntry("# Me\nhello\n\n", "- a") == "# Me\nhello\n\n## Gemini Added Memories\n- a\n");
}

TEST_CASE("an entry goes last in the existing section and nothing else changes") {
  const std::string before = "# Rules\n  keep   spacing \n\n## Gemini Added Memories\n- one\n- two\n\n## Later\ntext\n";
  CHECK(withMemoryEntry(before, "- three") ==
        "# Rules\n  keep   spacing \n\n## Gemini Added Memories\n- one\n- two\n- three\n\n## Later\ntext\n");
  // A sub-heading belongs to the section; an empty section takes the entry under its header.
  CHECK(withMemoryEntry("## Gemini Added Memories\n### old\n- x\n", "- y") == "## Gemini Added Memories\n### old\n- x\n- y\n");
  CHECK(withMemoryEntry("## Gemini Added Memories\n\n# Next\n", "- y") == "## Gemini Added Memories\n- y\n\n# Next\n");
  // The last line without a newline, and CRLF files keep their style.
  CHECK(withMemoryEntry("## Gemini Added Memories\n- x", "- y") == "## Gemini Added Memories\n- x\n- y\n");
  CHECK(withMemoryEntry("## Gemini Added Memories", "- y") == "## Gemini Added Memories\n- y\n");
  CHECK(withMemoryEntry("a\r\n## Gemini Added Memories\r\n- x\r\n", "- y") == "a\r\n## Gemini Added Memories\r\n- x\r\n- y\r\n");
}

TEST_CASE("addMemoryFact creates the folder and file, then appends") {
  TempDir home;
  const std::string file = (home.path / ".gemini" / "GEMINI.md").string();
  auto first = addMemoryFact(file, "likes short answers", CancelToken());
  REQUIRE(first);
  CHECK(*first == "- likes short answers");
  CHECK(readFile(file) == "## Gemini Added Memories\n- likes short answers\n");
  REQUIRE(addMemoryFact(file, "works in C++20", CancelToken()));
  CHECK(readFile(file) == "## Gemini Added Memories\n- likes short answers\n- works in C++20\n");
}

TEST_CASE("addMemoryFact replaces the file atomically and keeps the rest byte for byte") {
  TempDir home;
  const fs::path file = home.write(".gemini/GEMINI.md", "# Mine\r\nodd  bytes \t\n\n## Other\nz\n");
  ::chmod(file.c_str(), 0600);
  // A hard link to the old file still sees the old bytes: the new content
  // came in by rename, never by rewriting the file in place.
  const fs::path old = home.path / "old-link";
  fs::create_hard_link(file, old);
  REQUIRE(addMemoryFact(file.string(), "fact", CancelToken()));
  CHECK(readFile(old) == "# Mine\r\nodd  bytes \t\n\n## Other\nz\n");
  CHECK(readFile(file) == "# Mine\r\nodd  bytes \t\n\n## Other\nz\n\n## Gemini Added Memories\n- fact\n");
  CHECK((fs::status(file).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(file.parent_path())) names.push_back(entry.path().filename().string());
  CHECK(names == std::vector<std::string>{"GEMINI.md"});  // no temporary left behind
}

TEST_CASE("a bad fact changes nothing") {
  TempDir home;
  const fs::path file = home.write(".gemini/GEMINI.md", "keep\n");
  CHECK_FALSE(addMemoryFact(file.string(), "a\nb", CancelToken()));
  CHECK_FALSE(addMemoryFact(file.string(), "", CancelToken()));
  CHECK(readFile(file) == "keep\n");
  CHECK_FALSE(addMemoryFact("relative/GEMINI.md", "x", CancelToken()));
}

TEST_CASE("a symbolic link at the memory file is written through") {
  TempDir home;
  const fs::path real = home.write("dotfiles/GEMINI.md", "# dot\n");
  fs::create_directories(home.path / ".gemini");
  fs::create_symlink(real, home.path / ".gemini" / "GEMINI.md");
  REQUIRE(addMemoryFact((home.path / ".gemini" / "GEMINI.md").string(), "linked", CancelToken()));
  CHECK(fs::is_symlink(home.path / ".gemini" / "GEMINI.md"));
  CHECK(readFile(real) == "# dot\n\n## Gemini Added Memories\n- linked\n");
}

TEST_CASE("facts added at once from many threads are all kept") {
  TempDir home;
  const std::string file = (home.path / ".gemini" / "GEMINI.md").string();
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] { REQUIRE(addMemoryFact(file, "fact " + std::to_string(i), CancelToken())); });
  }
  for (auto& t : threads) t.join();
  const std::string text = readFile(file);
  for (int i = 0; i < 8; ++i) CHECK(text.find("- fact " + std::to_string(i) + "\n") != std::string::npos);
  CHECK(text.rfind("## Gemini Added Memories", 0) == 0);
}
