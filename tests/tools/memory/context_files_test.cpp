// Context files: discovery order (global, up to the project root, a bounded
// scan below), context.fileName, @path imports, and just-in-time lookup.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tools/memory/context_files.h"
#include "tools/memory/memory_imports.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> pathsOf(const std::vector<ContextFile>& files, const fs::path& base) {
  std::vector<std::string> paths;
  for (const auto& file : files) paths.push_back(fs::path(file.path).lexically_relative(base).string());
  return paths;
}

Workspace workspaceAt(const fs::path& dir) { return Workspace::create(dir.string()).value(); }

// The project layout most tests use: a repository with the workspace in app/.
struct Tree {
  TempDir dir;
  fs::path ws;
  ContextFileOptions options;
  Tree() {
    dir.write("home/.gemini/GEMINI.md", "GLOBAL");
    dir.write("GEMINI.md", "ABOVE THE REPO");
    fs::create_directories(dir.path / "repo/.git");
    dir.write("repo/GEMINI.md", "REPO ROOT");
    dir.write("repo/app/GEMINI.md", "APP");
    dir.write("repo/app/b/GEMINI.md", "B");
    dir.write("repo/app/a/GEMINI.md", "A");
    dir.write("repo/app/a/deep/GEMINI.md", "A DEEP");
    dir.write("repo/app/empty/GEMINI.md", "  \n\n");
    ws = dir.path / "repo/app";
    options.globalDir = (dir.path / "home/.gemini").string();
  }
};

}  // namespace

TEST_CASE("context files come global first, then from the project root down, then below in breadth-first order") {
  Tree t;
  auto ws = workspaceAt(t.ws);
  auto files = discoverContextFiles(ws, t.options, CancelToken());
  CHECK(pathsOf(files, t.dir.path) == std::vector<std::string>{"home/.gemini/GEMINI.md", "repo/GEMINI.md",
                                                              "repo/app/GEMINI.md", "repo/app/a/GEMINI.md",
                                                              "repo/app/b/GEMINI.md", "repo/app/a/deep/GEMINI.md"});
  REQUIRE(files.size() == 6);
  CHECK(files[0].tier == ContextFile::Tier::global);
  CHECK(files[0].content == "GLOBAL");
  CHECK(files[1].tier == ContextFile::Tier::project);
}

TEST_CASE("without a .git above, only the workspace folder itself is looked at upward") {
  TempDir dir;
  dir.write("GEMINI.md", "PARENT");
  dir.write("ws/GEMINI.md", "WS");
  auto ws = workspaceAt(dir.path / "ws");
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  CHECK(pathsOf(files, dir.path) == std::vector<std::string>{"ws/GEMINI.md"});
}

TEST_CASE("context.fileName names the files looked for, in order") {
  Tree t;
  t.dir.write("repo/app/AGENTS.md", "AGENTS");
  t.dir.write("home/.gemini/AGENTS.md", "GLOBAL AGENTS");
  t.options.fileNames = {"AGENTS.md", "GEMINI.md"};
  auto ws = workspaceAt(t.ws);
  auto files = discoverContextFiles(ws, t.options, CancelToken());
  auto paths = pathsOf(files, t.dir.path);
  REQUIRE(paths.size() >= 4);
  CHECK(paths[0] == "home/.gemini/AGENTS.md");
  CHECK(paths[1] == "home/.gemini/GEMINI.md");
  CHECK(paths[2] == "repo/GEMINI.md");
  CHECK(paths[3] == "repo/app/AGENTS.md");
  t.options.fileNames = {"AGENTS.md"};
  CHECK(pathsOf(discoverContextFiles(ws, t.options, CancelToken()), t.dir.path) ==
        std::vector<std::string>{"home/.gemini/AGENTS.md", "repo/app/AGENTS.md"});
}

TEST_CASE("the scan below is bounded and honours .gitignore and .geminiignore") {
  Tree t;
  t.dir.write("repo/app/.gitignore", "b/\n");
  t.dir.write("repo/app/.geminiignore", "deep\n");
  auto ws = workspaceAt(t.ws);
  CHECK(pathsOf(discoverContextFiles(ws, t.options, CancelToken()), t.dir.path) ==
        std::vector<std::string>{"home/.gemini/GEMINI.md", "repo/GEMINI.md", "repo/app/GEMINI.md", "repo/app/a/GEMINI.md"});
  // Three folders read: the root, a/, b/ (a/deep is fourth in line).
  fs::remove(t.dir.path / "repo/app/.gitignore");
  fs::remove(t.dir.path / "repo/app/.geminiignore");
  t.options.maxScanDirs = 3;
  CHECK(pathsOf(discoverContextFiles(ws, t.options, CancelToken()), t.dir.path) ==
        std::vector<std::string>{"home/.gemini/GEMINI.md", "repo/GEMINI.md", "repo/app/GEMINI.md",
                                 "repo/app/a/GEMINI.md", "repo/app/b/GEMINI.md"});
}

TEST_CASE("imports resolve relative to the importing file, nest, and are marked") {
  TempDir dir;
  dir.write("GEMINI.md", "Intro @docs/style.md and `@not/code.md`\n```\n@fenced.md\n```\nend");
  dir.write("docs/style.md", "STYLE @./parts/tabs.md");
  dir.write("docs/parts/tabs.md", "TABS");
  auto ws = workspaceAt(dir.path);
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  REQUIRE(files.size() == 1);
  CHECK(files[0].content ==
        "Intro <!-- Imported from: docs/style.md -->\n"
        "STYLE <!-- Imported from: ./parts/tabs.md -->\nTABS\n<!-- End of import from: ./parts/tabs.md -->\n"
        "<!-- End of import from: docs/style.md --> and `@not/code.md`\n```\n@fenced.md\n```\nend");
}

TEST_CASE("cyclic imports end with a marker") {
  TempDir dir;
  dir.write("GEMINI.md", "ROOT @a.md");
  dir.write("a.md", "A @b.md");
  dir.write("b.md", "B @a.md @GEMINI.md");
  auto ws = workspaceAt(dir.path);
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  REQUIRE(files.size() == 1);
  const std::string& text = files[0].content;
  CHECK(text.find("B <!-- File already processed: a.md --> <!-- File already processed: GEMINI.md -->") != std::string::npos);
}

TEST_CASE("imports that leave the workspace, are missing, are URLs or nest too deep are refused") {
  TempDir dir;
  dir.write("secret.txt", "SECRET");
  dir.write("ws/GEMINI.md", "x @../secret.txt @/etc/passwd @missing.md @https://example.com/a.md @l1.md");
  fs::create_symlink(dir.path / "secret.txt", dir.path / "ws/link.md");
  dir.write("ws/more.md", "@link.md");
  for (int i = 1; i <= 6; ++i) dir.write("ws/l" + std::to_string(i) + ".md", "L" + std::to_string(i) + " @l" + std::to_string(i + 1) + ".md");
  dir.write("ws/l7.md", "L7");
  auto ws = workspaceAt(dir.path / "ws");
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  REQUIRE(files.size() == 1);
  const std::string& text = files[0].content;
  CHECK(text.find("SECRET") == std::string::npos);
  CHECK(text.find("root:") == std::string::npos);
  CHECK(text.find("<!-- Import failed: ../secret.txt - outside the folders imports may come from -->") != std::string::npos);
  CHECK(text.find("<!-- Import failed: /etc/passwd - outside") != std::string::npos);
  CHECK(text.find("<!-- Import failed: missing.md - no such file -->") != std::string::npos);
  CHECK(text.find("<!-- Import failed: https://example.com/a.md - URLs cannot be imported -->") != std::string::npos);
  CHECK(text.find("L5") != std::string::npos);
  CHECK(text.find("L6") == std::string::npos);
  CHECK(text.find("<!-- Import failed: l6.md - imports nest deeper than 5 -->") != std::string::npos);
  // A link inside the workspace that leads out is refused too.
  std::set<std::string> seen;
  std::string linked = expandImports("@link.md", (dir.path / "ws/more.md").string(), ImportOptions{{ws.cwd()}}, seen);
  CHECK(linked.find("SECRET") == std::string::npos);
  CHECK(linked.find("Import failed: link.md - outside") != std::string::npos);
}

TEST_CASE("the global file imports only from the global folder") {
  TempDir dir;
  dir.write("home/.gemini/GEMINI.md", "G @extra.md @../../ws/GEMINI.md");
  dir.write("home/.gemini/extra.md", "EXTRA");
  dir.write("ws/GEMINI.md", "WS");
  auto ws = workspaceAt(dir.path / "ws");
  ContextFileOptions options;
  options.globalDir = (dir.path / "home/.gemini").string();
  auto files = discoverContextFiles(ws, options, CancelToken());
  REQUIRE(files.size() == 2);
  CHECK(files[0].content.find("EXTRA") != std::string::npos);
  CHECK(files[0].content.find("Import failed: ../../ws/GEMINI.md - outside") != std::string::npos);
}

TEST_CASE("just in time: the files along a path not known yet, each once") {
  Tree t;
  t.dir.write("repo/app/a/deep/src/x.txt", "x");
  auto ws = workspaceAt(t.ws);
  std::set<std::string> known;
  for (const auto& file : discoverContextFiles(ws, t.options, CancelToken())) {
    if (file.path.find("/deep/") == std::string::npos) known.insert(file.path);
  }
  auto found = contextFilesAlong(ws, (t.ws / "a/deep/src/x.txt").string(), t.options, known);
  CHECK(pathsOf(found, t.dir.path) == std::vector<std::string>{"repo/app/a/deep/GEMINI.md"});
  CHECK(contextFilesAlong(ws, (t.ws / "a/deep").string(), t.options, known).empty());
  CHECK(contextFilesAlong(ws, (t.dir.path / "repo/GEMINI.md").string(), t.options, known).empty());  // outside
}

TEST_CASE("just in time honours .geminiignore") {
  TempDir dir;
  dir.write(".geminiignore", "vendor/\n");
  dir.write("vendor/lib/GEMINI.md", "VENDOR");
  dir.write("vendor/lib/a.c", "");
  auto ws = workspaceAt(dir.path);
  std::set<std::string> known;
  CHECK(contextFilesAlong(ws, (dir.path / "vendor/lib/a.c").string(), ContextFileOptions{}, known).empty());
}

TEST_CASE("a context file that is a link leading out of the workspace is not read") {
  TempDir dir;
  dir.write("secret/key", "PRIVATE KEY");
  dir.write("ws/docs/real.md", "REAL");
  fs::create_directories(dir.path / "ws/sub");
  fs::create_symlink(dir.path / "secret/key", dir.path / "ws/GEMINI.md");
  fs::create_symlink(dir.path / "ws/docs/real.md", dir.path / "ws/sub/GEMINI.md");  // inside: fine
  auto ws = workspaceAt(dir.path / "ws");
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  REQUIRE(files.size() == 1);
  CHECK(files[0].content == "REAL");
  std::set<std::string> known;
  CHECK(contextFilesAlong(ws, (dir.path / "ws").string(), ContextFileOptions{}, known).empty());
}

TEST_CASE("the global file may be a link to the person's dotfiles") {
  TempDir dir;
  dir.write("dotfiles/GEMINI.md", "DOTFILES");
  fs::create_directories(dir.path / "home/.gemini");
  fs::create_directories(dir.path / "ws");
  fs::create_symlink(dir.path / "dotfiles/GEMINI.md", dir.path / "home/.gemini/GEMINI.md");
  ContextFileOptions options;
  options.globalDir = (dir.path / "home/.gemini").string();
  auto files = discoverContextFiles(workspaceAt(dir.path / "ws"), options, CancelToken());
  REQUIRE(files.size() == 1);
  CHECK(files[0].content == "DOTFILES");
}

TEST_CASE("a project's context file never imports what the person keeps from the model") {
  TempDir dir;
  dir.write(".gitignore", "local/\n");
  dir.write(".env", "TOKEN=sk-123");
  dir.write("local/notes.md", "PRIVATE");
  dir.write("docs.md", "DOCS");
  dir.write("GEMINI.md", "x @.env @local/notes.md @docs.md");
  auto ws = workspaceAt(dir.path);
  auto files = discoverContextFiles(ws, ContextFileOptions{}, CancelToken());
  REQUIRE(files.size() == 1);
  const std::string& text = files[0].content;
  CHECK(text.find("sk-123") == std::string::npos);
  CHECK(text.find("PRIVATE") == std::string::npos);
  CHECK(text.find("DOCS") != std::string::npos);
  CHECK(text.find("<!-- Import failed: .env - kept from the model (an environment file (.env)) -->") != std::string::npos);
  CHECK(text.find("<!-- Import failed: local/notes.md - kept from the model (ignored by .gitignore) -->") !=
        std::string::npos);
}
