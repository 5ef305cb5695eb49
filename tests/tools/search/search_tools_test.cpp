// The search tools: grep_search, glob and read_many_files through the Tool API.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <sys/stat.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <regex>
#include <set>

#include "tools/files/file_tools.h"
#include "tools/search/search_tools.h"
#include "tools/files/guarded_reads.h"
#include "tools/files/secret_files.h"
#include "tools/search/file_walker.h"
#include "tools/search/glob_match.h"
#include "tools/search/ignore_rules.h"
#include "tools/search/text_search.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"
#include "tests/tools/core/tool_fixture.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;

namespace {

using lathe::testing::TempDir;

// Sets a file's modification time to `secondsAgo` before now.
void age(const fs::path& p, long secondsAgo) {
  struct timeval now {};
  ::gettimeofday(&now, nullptr);
  struct timeval times[2] = {now, now};
  times[0].tv_sec -= secondsAgo;
  times[1].tv_sec -= secondsAgo;
  REQUIRE(::utimes(p.c_str(), times) == 0);
}

struct Fixture : lathe::testing::ToolFixture {
  ToolResult grep(const std::string& args) { return run(*makeGrepSearchTool(context), args); }
  ToolResult glob(const std::string& args) { return run(*makeGlobTool(context), args); }
  ToolResult readMany(const std::string& args) { return run(*makeReadManyFilesTool(context), args); }
  ToolResult list(const std::string& args) { return run(*makeListDirectoryTool(context), args); }
  std::string abs(const std::string& rel) const { return (root.path / rel).string(); }
};

using lathe::testing::llmText;

bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }



}  // namespace

// ---------------------------------------------------------------- grep_search

TEST_CASE("grep_search groups matching lines by file like Gemini CLI") {
  Fixture f;
  f.root.write("src/a.cpp", "int main() {\n  return Foo();\n}\n");
  f.root.write("src/b.cpp", "// foo here\nvoid foo();\nint other;\nfoo again\n");
  f.root.write("README.md", "Nothing to see\n");

  auto result = f.grep(R"({"pattern": "foo"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) ==
        "Found 4 matches for pattern \"foo\" in path \".\":\n---\n"
        "File: src/a.cpp\nL2:   return Foo();\n---\n"
        "File: src/b.cpp\nL1: // foo here\nL2: void foo();\nL4: foo again\n---");
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 4 matches");

  // case_sensitive drops the capitalised match
  result = f.grep(R"({"pattern": "foo", "case_sensitive": true, "context": 0})");
  CHECK(has(llmText(result), "Found 3 matches"));
  CHECK_FALSE(has(llmText(result), "src/a.cpp"));

  // names_only
  result = f.grep(R"({"pattern": "FOO", "names_only": true})");
  CHECK(llmText(result) == "Found 2 files with matches for pattern \"FOO\" in path \".\":\nsrc/a.cpp\nsrc/b.cpp");

  // dir_path narrows and paths are relative to it
  result = f.grep(R"({"pattern": "void", "dir_path": "src", "context": 0})");
  CHECK(llmText(result) == "Found 1 match for pattern \"void\" in path \"src\":\n---\nFile: b.cpp\nL2: void foo();\n---");

  // no match
  result = f.grep(R"({"pattern": "zebra", "include_pattern": "*.md"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "No matches found for pattern \"zebra\" in path \".\" (filter: \"*.md\").");
}

TEST_CASE("grep_search filters files, lines and regex flavours") {
  Fixture f;
  f.root.write("src/app.ts", "const x = 1; // TODO fix\n");
  f.root.write("src/app.tsx", "// TODO render\n");
  f.root.write("src/deep/util.js", "// TODO later\n");
  f.root.write("test/app.ts", "// TODO test\n");
  f.root.write("notes.txt", "TODO: a.b(c)\nTODO skip me\n");

  auto text = llmText(f.grep(R"({"pattern": "TODO", "include_pattern": "*.{ts,tsx}", "context": 0})"));
  CHECK(has(text, "Found 3 matches"));
  CHECK(has(text, "File: src/app.ts\n"));
  CHECK(has(text, "File: src/app.tsx\n"));
  CHECK(has(text, "File: test/app.ts\n"));

  text = llmText(f.grep(R"({"pattern": "TODO", "include_pattern": "src/**", "context": 0})"));
  CHECK(has(text, "Found 3 matches"));
  CHECK(has(text, "File: src/deep/util.js"));
  CHECK_FALSE(has(text, "test/app.ts"));

  text = llmText(f.grep(R"({"pattern": "todo", "exclude_pattern": "skip|render", "context": 0})"));
  CHECK(has(text, "Found 4 matches"));
  CHECK_FALSE(has(text, "skip me"));
  CHECK_FALSE(has(text, "render"));

  text = llmText(f.grep(R"J({"pattern": "a.b(c)", "fixed_strings": true})J"));
  CHECK(has(text, "Found 1 match"));
  CHECK(has(text, "L1: TODO: a.b(c)"));

  text = llmText(f.grep(R"({"pattern": "const\\s+\\w+\\s*=", "context": 0})"));
  CHECK(has(text, "File: src/app.ts\nL1: const x = 1; // TODO fix"));
}

TEST_CASE("grep_search shows context lines marked apart from matches") {
  Fixture f;
  std::string body;
  for (int i = 1; i <= 20; ++i) body += "line " + std::to_string(i) + (i == 5 || i == 7 || i == 15 ? " hit" : "") + "\n";
  f.root.write("f.txt", body);

  auto text = llmText(f.grep(R"({"pattern": "hit", "context": 1})"));
  CHECK(has(text, "File: f.txt\nL4- line 4\nL5: line 5 hit\nL6- line 6\nL7: line 7 hit\nL8- line 8\n"
                  "L14- line 14\nL15: line 15 hit\nL16- line 16\n---"));

  text = llmText(f.grep(R"({"pattern": "line 15", "before": 2, "after": 0})"));
  CHECK(has(text, "L13- line 13\nL14- line 14\nL15: line 15 hit\n---"));

  // One match and no context asked for: Gemini CLI's automatic surroundings.
  text = llmText(f.grep(R"({"pattern": "line 15"})"));
  CHECK(has(text, "Found 1 match"));
  CHECK(has(text, "L1- line 1\n"));
  CHECK(has(text, "L15: line 15 hit\n"));
  CHECK(has(text, "L20- line 20\n---"));
}

TEST_CASE("grep_search limits say so clearly") {
  Fixture f;
  std::string many;
  for (int i = 0; i < 50; ++i) many += "match " + std::to_string(i) + "\n";
  f.root.write("a.txt", many);
  f.root.write("b.txt", many);

  auto result = f.grep(R"({"pattern": "match", "total_max_matches": 10})");
  auto text = llmText(result);
  CHECK(has(text, "Found 10 matches"));
  CHECK(has(text, "(results limited to 10 matches for performance)"));
  CHECK(has(text, "[Search stopped at total_max_matches=10: more matches exist."));
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 10 matches (limited)");

  text = llmText(f.grep(R"({"pattern": "match", "max_matches_per_file": 3})"));
  CHECK(has(text, "Found 6 matches"));
  CHECK(has(text, "File: a.txt\nL1: match 0\nL2: match 1\nL3: match 2\n"
                  "[more matches in this file not shown: max_matches_per_file=3]\n---"));
  CHECK_FALSE(has(text, "Search stopped"));

  // Default: limits.grepDefaultMaxMatches (100) of the 100 lines: not over it.
  text = llmText(f.grep(R"({"pattern": "match"})"));
  CHECK(has(text, "Found 100 matches"));
  CHECK_FALSE(has(text, "limited"));
  f.context.limits.grepDefaultMaxMatches = 30;
  CHECK(has(llmText(f.grep(R"({"pattern": "match"})")), "(results limited to 30 matches"));

  // Long lines are cut.
  f.context.limits.maxLineChars = 20;
  f.root.write("long.txt", "needle " + std::string(100, 'x') + "\n");
  text = llmText(f.grep(R"({"pattern": "needle", "context": 0})"));
  CHECK(has(text, "L1: needle xxxxxxxxxxxxx... [line cut]"));
}

TEST_CASE("grep_search skips binaries and respects ignore files unless no_ignore") {
  Fixture f;
  f.root.write("text.txt", "needle\n");
  f.root.write("blob.bin", std::string("needle\0\x01\x02", 9));
  f.root.write(".gitignore", "ignored/\n");
  f.root.write("ignored/x.txt", "needle\n");
  f.root.write(".geminiignore", "private.txt\n");
  f.root.write("private.txt", "needle\n");
  f.root.write("node_modules/pkg/index.js", "needle\n");
  f.root.write(".hidden/h.txt", "needle\n");

  auto text = llmText(f.grep(R"({"pattern": "needle", "names_only": true})"));
  CHECK(text == "Found 2 files with matches for pattern \"needle\" in path \".\":\n.hidden/h.txt\ntext.txt");

  text = llmText(f.grep(R"({"pattern": "needle", "names_only": true, "no_ignore": true})"));
  CHECK(text == "Found 5 files with matches for pattern \"needle\" in path \".\":\n.hidden/h.txt\n"
                "ignored/x.txt\nnode_modules/pkg/index.js\nprivate.txt\ntext.txt");

  text = llmText(f.grep(R"({"pattern": "zzz"})"));
  CHECK(text == "No matches found for pattern \"zzz\" in path \".\". 1 binary file was skipped.");
  text = llmText(f.grep(R"({"pattern": "zzz", "include_pattern": "*.txt"})"));
  CHECK(text == "No matches found for pattern \"zzz\" in path \".\" (filter: \"*.txt\").");
}

TEST_CASE("grep_search errors name the problem") {
  Fixture f;
  f.root.write("a.txt", "x\n");

  auto result = f.grep(R"({"pattern": "foo(["})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
  CHECK(has(result.error->message, "params.pattern: invalid regular expression \"foo([\""));
  CHECK(has(result.error->message, "at offset"));

  result = f.grep(R"({"pattern": "x", "exclude_pattern": "(("})");
  REQUIRE(result.error);
  CHECK(has(result.error->message, "params.exclude_pattern"));

  result = f.grep(R"({"pattern": "x", "total_max_matches": 0})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);

  result = f.grep(R"({"pattern": "x", "dir_path": ")" + f.outside.path.string() + R"("})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);

  result = f.grep(R"({"pattern": "x", "dir_path": "nope"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::file_not_found);

  // A single file is searched directly.
  auto text = llmText(f.grep(R"({"pattern": "x", "dir_path": "a.txt", "context": 0})"));
  CHECK(has(text, "File: a.txt\nL1: x\n"));

  // Cancellation
  auto tool = makeGrepSearchTool(f.context);
  auto built = tool->build(json::parse(R"({"pattern": "x"})").value());
  auto cancel = CancelToken::create();
  cancel.cancel();
  result = built.invocation->execute(cancel, [](const std::string&) {});
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::cancelled);
}

// ------------------------------------------------------------------------ glob

TEST_CASE("glob lists recent files first, newest first, then the rest by path") {
  Fixture f;
  auto oldB = f.root.write("src/b.ts", "");
  auto oldA = f.root.write("src/a.ts", "");
  auto recent1 = f.root.write("src/z.ts", "");
  auto recent2 = f.root.write("lib/y.ts", "");
  f.root.write("src/c.js", "");
  age(oldA, 3 * 86400);
  age(oldB, 2 * 86400);
  age(recent1, 3600);
  age(recent2, 60);

  auto result = f.glob(R"({"pattern": "**/*.ts"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "Found 4 file(s) matching \"**/*.ts\" within " + f.root.path.string() +
                               ", sorted by modification time (newest first):\n" + f.abs("lib/y.ts") + "\n" +
                               f.abs("src/z.ts") + "\n" + f.abs("src/a.ts") + "\n" + f.abs("src/b.ts"));
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 4 matching file(s)");

  // `*.ts` is the top level only; dir_path moves the base.
  CHECK(has(llmText(f.glob(R"({"pattern": "*.ts"})")), "No files found matching pattern \"*.ts\""));
  auto text = llmText(f.glob(R"({"pattern": "*.ts", "dir_path": "src"})"));
  CHECK(has(text, "Found 3 file(s)"));
  CHECK(has(text, "within " + f.abs("src")));

  // Case-insensitive by default.
  CHECK(has(llmText(f.glob(R"({"pattern": "SRC/*.TS"})")), "Found 3 file(s)"));
  CHECK(has(llmText(f.glob(R"({"pattern": "SRC/*.TS", "case_sensitive": true})")), "No files found"));
  CHECK(has(llmText(f.glob(R"({"pattern": "src/*.{js,ts}"})")), "Found 4 file(s)"));
}

TEST_CASE("glob honours ignore files, caps its list and reports errors") {
  Fixture f;
  f.root.write(".gitignore", "dist/\n*.gen.ts\n");
  f.root.write(".geminiignore", "secret.ts\n");
  f.root.write("a.ts", "");
  f.root.write("x.gen.ts", "");
  f.root.write("dist/out.ts", "");
  f.root.write("secret.ts", "");
  f.root.write("node_modules/m/index.ts", "");
  f.root.write("weird[1].ts", "");

  auto text = llmText(f.glob(R"({"pattern": "**/*.ts"})"));
  CHECK(has(text, "Found 2 file(s)"));
  CHECK(has(text, f.abs("a.ts")));
  CHECK(has(text, f.abs("weird[1].ts")));

  text = llmText(f.glob(R"({"pattern": "**/*.ts", "respect_git_ignore": false})"));
  CHECK(has(text, "Found 4 file(s)"));
  CHECK(has(text, f.abs("dist/out.ts")));
  CHECK_FALSE(has(text, "secret.ts"));
  text = llmText(f.glob(R"({"pattern": "**/*.ts", "respect_gemini_ignore": false})"));
  CHECK(has(text, "Found 3 file(s)"));
  CHECK(has(text, f.abs("secret.ts")));

  // A pattern naming an existing file is taken literally.
  text = llmText(f.glob(R"({"pattern": "weird[1].ts"})"));
  CHECK(has(text, "Found 1 file(s)"));

  text = llmText(f.glob(R"({"pattern": "dist/*.ts"})"));
  CHECK(has(text, "No files found"));
  CHECK(has(text, "respect_git_ignore"));

  f.context.limits.globMaxResults = 1;
  auto capped = f.glob(R"({"pattern": "**/*.ts", "respect_git_ignore": false})");
  CHECK(has(llmText(capped), "showing the first 1:"));
  CHECK(has(llmText(capped), "[3 more matching files are not listed (the limit is 1)."));
  CHECK(std::get<std::string>(capped.returnDisplay) == "Found 4 matching file(s) (listed 1)");

  auto result = f.glob(R"({"pattern": "*.ts", "dir_path": "a.ts"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::not_a_directory);
  result = f.glob(R"({"pattern": "*.ts", "dir_path": "missing"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::file_not_found);
  result = f.glob(R"({"pattern": "*", "dir_path": ")" + f.outside.path.string() + R"("})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.glob(R"({"pattern": "../*"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
  result = f.glob(R"({"pattern": ""})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
}

// -------------------------------------------------------------- read_many_files

TEST_CASE("read_many_files joins text files and lists what it skipped") {
  Fixture f;
  f.root.write("docs/a.md", "# A\n");
  f.root.write("docs/b.md", "# B\n");
  f.root.write("docs/deep/c.md", "# C\n");
  f.root.write("docs/blob.dat", std::string("\0\0\0binary", 9));
  f.root.write("docs/archive.zip", "PK");
  f.root.write("docs/logo.png", "\x89PNG fake");
  f.root.write("node_modules/x/readme.md", "dep");
  f.root.write("src/main.cpp", "int main() {}\n");

  auto result = f.readMany(R"({"include": ["docs/*.md", "src/main.cpp"]})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "--- " + f.abs("docs/a.md") + " ---\n\n# A\n\n\n" + "--- " + f.abs("docs/b.md") +
                               " ---\n\n# B\n\n\n" + "--- " + f.abs("src/main.cpp") + " ---\n\nint main() {}\n\n\n" +
                               "\n--- End of content ---");

  // A directory means its subtree; binaries and unnamed images are skipped with reasons.
  result = f.readMany(R"({"include": ["docs/"]})");
  auto text = llmText(result);
  CHECK(has(text, "--- " + f.abs("docs/deep/c.md") + " ---"));
  CHECK(has(text, "- docs/blob.dat (binary file)"));
  CHECK(has(text, "- docs/logo.png (image/PDF not named explicitly"));
  CHECK_FALSE(has(text, "archive.zip ---"));  // default excludes
  CHECK(result.llmContent.size() == 1);
  auto display = std::get<std::string>(result.returnDisplay);
  CHECK(has(display, "Successfully read and concatenated content from **3 file(s)**."));
  CHECK(has(display, "**Skipped 2 item(s):**"));

  // recursive: false keeps to the folder itself.
  text = llmText(f.readMany(R"({"include": ["docs"], "recursive": false})"));
  CHECK_FALSE(has(text, "deep/c.md"));
  CHECK(has(text, "docs/a.md ---"));

  // Without default excludes the archive is reached, then skipped as binary.
  text = llmText(f.readMany(R"({"include": ["docs/archive.zip"], "useDefaultExcludes": false})"));
  CHECK(has(text, "- docs/archive.zip (binary file)"));

  // exclude patterns
  text = llmText(f.readMany(R"({"include": ["**/*.md"], "exclude": ["deep/"]})"));
  CHECK(has(text, "docs/a.md ---"));
  CHECK_FALSE(has(text, "deep/c.md"));
  CHECK_FALSE(has(text, "node_modules"));
}

TEST_CASE("read_many_files sends named images inline and respects ignore files and size caps") {
  Fixture f;
  f.root.write("img/logo.png", "\x89PNG fake");
  f.root.write(".gitignore", "secret.txt\n");
  f.root.write("secret.txt", "hidden");
  f.root.write("big1.txt", std::string(600, 'a') + "\n");
  f.root.write("big2.txt", std::string(600, 'b') + "\n");
  f.root.write("big3.txt", std::string(600, 'c') + "\n");

  auto result = f.readMany(R"({"include": ["img/logo.png"]})");
  REQUIRE_FALSE(result.error);
  REQUIRE(result.llmContent.size() == 2);
  CHECK(result.llmContent[0].mimeType == "image/png");
  CHECK(result.llmContent[0].data == "iVBORyBmYWtl");
  CHECK(has(result.llmContent[1].text, "--- End of content ---"));
  // Naming the extension is enough.
  result = f.readMany(R"({"include": ["**/*.png"]})");
  CHECK(result.llmContent.front().mimeType == "image/png");

  auto text = llmText(f.readMany(R"({"include": ["secret.txt"]})"));
  CHECK(has(text, "No files matching the criteria were found or all were skipped."));
  CHECK(has(text, "- secret.txt (ignored by .gitignore"));
  text = llmText(f.readMany(R"({"include": ["secret.txt"], "file_filtering_options": {"respect_git_ignore": false}})"));
  CHECK(has(text, "hidden"));

  f.context.limits.readManyMaxBytes = 1000;
  text = llmText(f.readMany(R"({"include": ["big*.txt"]})"));
  CHECK(has(text, "big1.txt ---"));
  CHECK(has(text, "big2.txt ---"));
  CHECK_FALSE(has(text, "big3.txt ---"));
  CHECK(has(text, "- 1 more file(s) (not read: the total size limit (1000 bytes) was reached)"));
  CHECK(has(text, "[Output stopped at the size limit"));

  f.context.limits.readDefaultLines = 2;
  f.root.write("lines.txt", "1\n2\n3\n4\n");
  text = llmText(f.readMany(R"({"include": ["lines.txt"]})"));
  CHECK(has(text, "[WARNING: This file was truncated"));
  CHECK(has(text, "1\n2\n\n"));
  CHECK_FALSE(has(text, "3\n"));

  result = f.readMany(R"({"include": [")" + f.outside.path.string() + R"(/x.txt"]})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.readMany(R"({"include": ["../**/*.txt"]})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.readMany(R"({"include": []})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
}

TEST_CASE("grep_search on a file .geminiignore ignores refuses it unless no_ignore") {
  Fixture f;
  f.root.write(".geminiignore", "private.txt\n");
  f.root.write("private.txt", "needle\n");
  auto refused = f.grep(R"({"pattern": "needle", "dir_path": "private.txt"})");
  REQUIRE(refused.error);
  CHECK(has(refused.error->message, ".geminiignore"));
  CHECK_FALSE(has(llmText(refused), "L1"));
  auto allowed = f.grep(R"({"pattern": "needle", "dir_path": "private.txt", "no_ignore": true})");
  REQUIRE_FALSE(allowed.error);
  CHECK(has(llmText(allowed), "L1: needle"));
}

// .gitignore applies whether or not the folder is a git repository (like
// ripgrep with --no-require-git), in glob and grep alike: a workspace that
// is not (yet) a repository lists the same files in both, and the same as
// once it is one.
TEST_CASE("glob, grep and list_directory agree on .gitignore with and without a git repository") {
  for (bool repository : {false, true}) {
    INFO("git repository: " << repository);
    Fixture f;
    f.root.write(".gitignore", "build/\n*.log\n");
    f.root.write("sub/.gitignore", "local.txt\n");
    f.root.write("a.txt", "needle\n");
    f.root.write("run.log", "needle\n");
    f.root.write("build/out.txt", "needle\n");
    f.root.write("sub/local.txt", "needle\n");
    f.root.write("sub/kept.txt", "needle\n");
    if (repository) REQUIRE(std::system(("git -C '" + f.root.str() + "' init -q").c_str()) == 0);

    std::string globbed = llmText(f.glob(R"({"pattern": "**/*.{txt,log}"})"));
    std::string grepped = llmText(f.grep(R"({"pattern": "needle", "names_only": true})"));
    for (const char* kept : {"a.txt", "sub/kept.txt"}) {
      INFO(kept);
      CHECK(has(globbed, f.abs(kept)));
      CHECK(has(grepped, std::string("\n") + kept));
    }
    for (const char* ignored : {"run.log", "build/out.txt", "sub/local.txt"}) {
      INFO(ignored);
      CHECK_FALSE(has(globbed, ignored));
      CHECK_FALSE(has(grepped, ignored));
    }
    // One rule for the three: .gitignore files apply wherever they are, repository or not.
    std::string listed = llmText(f.list(R"({"dir_path": "."})"));
    std::string listedSub = llmText(f.list(R"({"dir_path": "sub"})"));
    CHECK(has(listed, "a.txt"));
    CHECK_FALSE(has(listed, "run.log"));
    CHECK_FALSE(has(listed, "[DIR] build"));
    CHECK(has(listedSub, "kept.txt"));
    CHECK_FALSE(has(listedSub, "local.txt"));
    // Both let .gitignore go the same way.
    globbed = llmText(f.glob(R"({"pattern": "**/*.{txt,log}", "respect_git_ignore": false})"));
    grepped = llmText(f.grep(R"({"pattern": "needle", "names_only": true, "no_ignore": true})"));
    for (const char* all : {"run.log", "build/out.txt", "sub/local.txt"}) {
      CHECK(has(globbed, all));
      CHECK(has(grepped, all));
    }
  }
}

TEST_CASE("grep_search and read_many_files leave out files shaped like secrets, read_file asks for them") {
  Fixture f;
  f.root.write(".env", "TOKEN=needle-secret\n");
  f.root.write("keys/deploy.pem", "needle-key\n");
  f.root.write(".env.example", "TOKEN=needle-placeholder\n");
  f.root.write("a.txt", "needle\n");
  std::string grepped = llmText(f.grep(R"({"pattern": "needle"})"));
  CHECK(has(grepped, "a.txt"));
  CHECK(has(grepped, "needle-placeholder"));  // a template holds no secret
  CHECK_FALSE(has(grepped, "needle-secret"));
  CHECK_FALSE(has(grepped, "needle-key"));
  std::string read = llmText(f.readMany(R"({"include": ["**/*.pem", "a.txt"], "useDefaultExcludes": false})"));
  CHECK(has(read, "needle"));
  CHECK_FALSE(has(read, "needle-key"));
  CHECK(has(read, "read it with read_file, which asks the person first"));

  // read_file asks, naming the file and why; an ordinary file is not asked about.
  auto readFile = makeReadFileTool(f.context);
  auto invocation = readFile->build(json::parse(R"({"file_path": ".env"})").value());
  REQUIRE(invocation.invocation);
  auto details = invocation.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details);
  REQUIRE(details->has_value());
  auto* ask = std::get_if<ReadConfirmation>(&**details);
  REQUIRE(ask);
  REQUIRE(ask->files.size() == 1);
  CHECK(ask->files[0].path == f.abs(".env"));
  CHECK(ask->files[0].why == "an environment file (.env)");
  auto plain = readFile->build(json::parse(R"({"file_path": "a.txt"})").value());
  REQUIRE(plain.invocation);
  auto none = plain.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(none);
  CHECK_FALSE(none->has_value());
}

TEST_CASE("kept from the model: case and more shapes, ignored folders, links to such files, a repository above the root") {
  CHECK(secretFileReason("/w/.ENV") == "an environment file (.ENV)");
  CHECK_FALSE(secretFileReason("/w/prod.env").empty());
  CHECK_FALSE(secretFileReason("/w/.env-local").empty());
  CHECK_FALSE(secretFileReason("/w/id_ed25519").empty());
  CHECK(secretFileReason("/w/id_ed25519.pub").empty());
  CHECK_FALSE(secretFileReason("/home/me/.kube/config").empty());
  CHECK_FALSE(secretFileReason("/w/deploy/secrets.yaml").empty());
  CHECK(secretFileReason("/w/.env.example").empty());
  CHECK(secretFileReason("/w/environment.ts").empty());

  Fixture f;
  f.root.write(".gitignore", "secrets/\n");
  f.root.write("secrets/db.yaml", "password=needle-db\n");
  f.root.write(".env", "TOKEN=needle-env\n");
  f.root.write("a.txt", "needle\n");
  fs::create_symlink(f.root.path / ".env", f.root.path / "notes.txt");
  // A folder git ignores, named to grep_search, asks first.
  auto grep = makeGrepSearchTool(f.context);
  auto intoIgnored = grep->build(json::parse(R"({"pattern": "needle", "dir_path": "secrets"})").value());
  REQUIRE(intoIgnored.invocation);
  auto asked = intoIgnored.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE((asked && asked->has_value()));
  CHECK(std::get<ReadConfirmation>(**asked).files.at(0).why == "ignored by .gitignore");
  // A link to a secret is not searched or read through its own name.
  std::string grepped = llmText(f.grep(R"({"pattern": "needle"})"));
  CHECK(has(grepped, "a.txt"));
  CHECK_FALSE(has(grepped, "needle-env"));
  CHECK(has(grepped, "not searched: shaped like secrets"));
  std::string read = llmText(f.readMany(R"({"include": ["*.txt"]})"));
  CHECK(has(read, "needle"));
  CHECK_FALSE(has(read, "needle-env"));

  // A workspace opened in a folder of a repository: the repository's .gitignore counts.
  TempDir repo;
  fs::create_directories(repo.path / ".git");
  fs::create_directories(repo.path / "sub" / "private");
  std::ofstream(repo.path / ".gitignore") << "private/\n";
  std::ofstream(repo.path / "sub" / "private" / "a.txt") << "mine\n";
  auto sub = Workspace::create((repo.path / "sub").string()).value();
  CHECK(guardedReadReason(sub, (repo.path / "sub" / "private" / "a.txt").string(), false) == "ignored by .gitignore");
}

TEST_CASE("a workspace inside a folder its repository ignores is not governed by that repository's ignore files") {
  TempDir repo;
  fs::create_directories(repo.path / ".git");
  fs::create_directories(repo.path / "build" / "ws");
  std::ofstream(repo.path / ".gitignore") << "build/\n";
  std::ofstream(repo.path / "build" / "ws" / "a.txt") << "x\n";
  auto ws = Workspace::create((repo.path / "build" / "ws").string()).value();
  CHECK(guardedReadReason(ws, (repo.path / "build" / "ws" / "a.txt").string(), false).empty());
}
