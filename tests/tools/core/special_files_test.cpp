// Files that are not files: FIFOs, sockets and device nodes inside the
// workspace are refused with a clear error by every tool that reads or
// writes, at once (a FIFO must not hang the turn, a device must not be read
// until memory runs out); searches skip them.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <functional>

#include "tests/tools/core/tool_fixture.h"
#include "tools/files/file_tools.h"
#include "tools/search/search_tools.h"
#include "tools/syntax/syntax_tools.h"
#include "tools/core/hard_links.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::llmText;
using lathe::testing::ToolFixture;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

std::string arg(const char* key, const std::string& value) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, key, value);
    w.EndObject();
  });
}

struct SpecialFiles : ToolFixture {
  std::vector<std::pair<std::string, std::string>> nodes;  // name, what the error says
  int socketFd = -1;
  SpecialFiles() {
    context.files = makeDiskFileStore();
    root.write("plain.txt", "findme in a plain file\n");
    REQUIRE(::mkfifo((root.path / "fifo").c_str(), 0644) == 0);
    nodes.emplace_back("fifo", "FIFO");
    socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::string path = (root.path / "sock").string();
    if (path.size() < sizeof addr.sun_path) {
      std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
      if (::bind(socketFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) nodes.emplace_back("sock", "socket");
    }
    // A character device like /dev/zero (needs CAP_MKNOD; skipped without it).
    if (::mknod((root.path / "zero").c_str(), S_IFCHR | 0644, makedev(1, 5)) == 0) {
      nodes.emplace_back("zero", "character device");
    }
  }
  ~SpecialFiles() { ::close(socketFd); }
};

}  // namespace

TEST_CASE("special files: read_file, read_outline, write_file and replace refuse them at once") {
  SpecialFiles f;
  auto read = makeReadFileTool(f.context);
  auto outline = makeOutlineTool(f.context);
  auto write = makeWriteFileTool(f.context);
  auto replace = makeReplaceTool(f.context);
  for (const auto& [name, kind] : f.nodes) {
    INFO("node: " << name);
    auto start = Clock::now();
    auto r = f.run(*read, arg("file_path", name));
    REQUIRE(r.error);
    CHECK(r.error->message.find(kind) != std::string::npos);
    CHECK(r.error->message.find("not a regular file") != std::string::npos);

    auto o = f.run(*outline, arg("path", name));
    REQUIRE(o.error);

    auto w = f.run(*write, R"({"file_path": ")" + name + R"(", "content": "x"})");
    REQUIRE(w.error);
    CHECK(w.error->message.find("not a regular file") != std::string::npos);

    auto p = f.run(*replace, R"({"file_path": ")" + name +
                                 R"(", "instruction": "i", "old_string": "a", "new_string": "b"})");
    REQUIRE(p.error);
    CHECK(Clock::now() - start < 5s);
  }
  struct stat st {};
  REQUIRE(::stat((f.root.path / "fifo").c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));  // still a FIFO: nothing replaced it
}

TEST_CASE("special files: grep, glob and read_many_files pass them by without hanging") {
  SpecialFiles f;
  auto start = Clock::now();
  auto grep = makeGrepSearchTool(f.context);
  auto found = f.run(*grep, arg("pattern", "findme"));
  REQUIRE_FALSE(found.error);
  CHECK(llmText(found).find("plain.txt") != std::string::npos);

  auto many = makeReadManyFilesTool(f.context);
  auto read = f.run(*many, R"({"include": ["*"]})");
  REQUIRE_FALSE(read.error);
  CHECK(llmText(read).find("findme in a plain file") != std::string::npos);
  auto named = f.run(*many, R"({"include": ["fifo"]})");
  REQUIRE_FALSE(named.error);
  CHECK(llmText(named).find("findme") == std::string::npos);
  CHECK(Clock::now() - start < 10s);
}

TEST_CASE("special files: a symlink swapped in while the edit question is open is not written through") {
  ToolFixture f;
  f.context.files = makeDiskFileStore();
  f.root.write("a.txt", "hello\n");
  auto outsideFile = f.outside.write("target.txt", "hello\n");
  auto replace = makeReplaceTool(f.context);
  auto built = replace->build(json::parse(R"({"file_path": "a.txt", "instruction": "i", "old_string": "hello",
                                              "new_string": "pwned"})").value());
  REQUIRE(built.invocation);
  auto details = built.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details);
  REQUIRE(details->has_value());
  // While the person looks at the diff, a.txt becomes a link to a file outside.
  std::filesystem::remove(f.root.path / "a.txt");
  std::filesystem::create_symlink(outsideFile, f.root.path / "a.txt");
  built.invocation->setApproval(Approval::person);
  auto result = built.invocation->execute(CancelToken(), [](const std::string&) {});
  REQUIRE(result.error);
  CHECK(result.error->message.find("nothing was written") != std::string::npos);
  CHECK(lathe::testing::readFile(outsideFile) == "hello\n");

  // Another file put in its place (same text) is refused too.
  f.root.write("b.txt", "hello\n");
  auto again = replace->build(json::parse(R"({"file_path": "b.txt", "instruction": "i", "old_string": "hello",
                                             "new_string": "bye"})").value());
  REQUIRE(again.invocation);
  REQUIRE(again.invocation->shouldConfirmExecute(CancelToken()));
  f.root.write("other.txt", "hello\n");
  std::filesystem::rename(f.root.path / "other.txt", f.root.path / "b.txt");
  auto swapped = again.invocation->execute(CancelToken(), [](const std::string&) {});
  REQUIRE(swapped.error);
  CHECK(lathe::testing::readFile(f.root.path / "b.txt") == "hello\n");
}

TEST_CASE("special files: a hard link to a file outside the workspace is not written") {
  ToolFixture f;
  f.context.files = makeDiskFileStore();
  auto outsideFile = f.outside.write("shared.txt", "original\n");
  if (::link(outsideFile.c_str(), (f.root.path / "linked.txt").c_str()) != 0) {
    WARN("hard links across these folders are not possible here");
    return;
  }
  auto write = makeWriteFileTool(f.context);
  auto result = f.run(*write, R"({"file_path": "linked.txt", "content": "changed\n"})");
  REQUIRE(result.error);
  CHECK(result.error->message.find("hard links") != std::string::npos);
  CHECK(lathe::testing::readFile(outsideFile) == "original\n");
}

// The rule (tools/core/hard_links.h): a file with several hard links is read
// or edited only when all of them are inside the workspace.
TEST_CASE("hard links: a file linked to one outside is not read, searched, outlined or edited") {
  ToolFixture f;
  f.context.files = makeDiskFileStore();
  auto outsideFile = f.outside.write("secret.py", "def secret_hl(): pass  # outside-secret-hl\n");
  if (::link(outsideFile.c_str(), (f.root.path / "linked.py").c_str()) != 0) {
    WARN("hard links across these folders are not possible here");
    return;
  }
  f.root.write("plain.py", "def plain(): pass\n");

  auto read = f.run(*makeReadFileTool(f.context), R"({"file_path": "linked.py"})");
  REQUIRE(read.error);
  CHECK(read.error->message.find("hard links") != std::string::npos);
  CHECK(llmText(read).find("outside-secret-hl") == std::string::npos);

  auto outline = f.run(*makeOutlineTool(f.context), arg("path", (f.root.path / "linked.py").string()));
  REQUIRE(outline.error);
  CHECK(llmText(outline).find("secret_hl") == std::string::npos);

  auto many = f.run(*makeReadManyFilesTool(f.context), R"({"include": ["linked.py", "plain.py"]})");
  CHECK(llmText(many).find("outside-secret-hl") == std::string::npos);

  auto grep = f.run(*makeGrepSearchTool(f.context), R"({"pattern": "outside-secret-hl"})");
  CHECK(llmText(grep).find("No matches found") == 0);  // the pattern is echoed; no line is
  CHECK(llmText(grep).find("1 file was not searched") != std::string::npos);
  auto grepOne = f.run(*makeGrepSearchTool(f.context), R"({"pattern": "secret", "dir_path": "linked.py"})");
  CHECK(llmText(grepOne).find("outside-secret-hl") == std::string::npos);
  CHECK(llmText(grepOne).find("L1:") == std::string::npos);

  auto edit = f.run(*makeReplaceTool(f.context),
                    R"({"file_path": "linked.py", "old_string": "pass", "new_string": "return 1", "instruction": "x"})");
  REQUIRE(edit.error);
  CHECK(lathe::testing::readFile(outsideFile) == "def secret_hl(): pass  # outside-secret-hl\n");
}

TEST_CASE("hard links: links that all stay inside the workspace are read and edited") {
  ToolFixture f;
  f.context.files = makeDiskFileStore();
  auto a = f.root.write("a.txt", "shared inside\n");
  std::filesystem::create_directories(f.root.path / "sub");
  REQUIRE(::link(a.c_str(), (f.root.path / "sub/b.txt").c_str()) == 0);
  CHECK(llmText(f.run(*makeReadFileTool(f.context), R"({"file_path": "sub/b.txt"})")) == "shared inside\n");
  auto grep = f.run(*makeGrepSearchTool(f.context), R"({"pattern": "shared", "names_only": true})");
  CHECK(llmText(grep).find("a.txt") != std::string::npos);
  CHECK(llmText(grep).find("sub/b.txt") != std::string::npos);
  auto edit = f.run(*makeReplaceTool(f.context),
                    R"({"file_path": "a.txt", "old_string": "inside", "new_string": "edited", "instruction": "x"})");
  CHECK_FALSE(edit.error);
  CHECK(lathe::testing::readFile(a) == "shared edited\n");

  // When the search cannot finish it cannot tell: refused.
  std::filesystem::create_directories(f.root.path / "sub2");
  REQUIRE(::link((f.root.path / "sub/b.txt").c_str(), (f.root.path / "sub2/c.txt").c_str()) == 0);
  struct stat st {};
  REQUIRE(::stat((f.root.path / "sub2/c.txt").c_str(), &st) == 0);
  CHECK(outsideHardLinks(*f.context.workspace, (f.root.path / "sub2/c.txt").string(), st).has_value() == false);
  auto bounded = outsideHardLinks(*f.context.workspace, (f.root.path / "sub2/c.txt").string(), st, 2);
  REQUIRE(bounded);
  CHECK(bounded->find("too large") != std::string::npos);
}

namespace {

// The disk, with something done to the workspace in the instant between the
// edit's last check and its write (the window a swap would use).
class SwapBeforeWrite final : public FileStore {
 public:
  explicit SwapBeforeWrite(std::function<void()> swap) : swap_(std::move(swap)) {}
  Result<std::string> readText(const std::string& path, const CancelToken& cancel) override {
    return disk_->readText(path, cancel);
  }
  Status writeText(const std::string& path, const std::string& content, const CancelToken& cancel) override {
    swap_();
    return disk_->writeText(path, content, cancel);
  }
  Status writeTextExact(const std::string& path, const std::string& content, const CancelToken& cancel) override {
    swap_();
    return disk_->writeTextExact(path, content, cancel);
  }

 private:
  std::function<void()> swap_;
  std::shared_ptr<FileStore> disk_ = makeDiskFileStore();
};

ToolResult approvedReplace(ToolFixture& f, const std::string& file) {
  auto replace = makeReplaceTool(f.context);
  auto built = replace->build(json::parse(R"({"file_path": ")" + file +
                                          R"(", "instruction": "i", "old_string": "hello", "new_string": "pwned"})")
                                  .value());
  REQUIRE(built.invocation);
  auto details = built.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details);
  REQUIRE(details->has_value());
  built.invocation->setApproval(Approval::person);
  return built.invocation->execute(CancelToken(), [](const std::string&) {});
}

}  // namespace

TEST_CASE("edits write without following links: a file swapped for a link after the last check is not written through") {
  ToolFixture f;
  f.root.write("a.txt", "hello\n");
  auto outsideFile = f.outside.write("target.txt", "hello\n");
  f.context.files = std::make_shared<SwapBeforeWrite>([&] {
    std::filesystem::remove(f.root.path / "a.txt");
    std::filesystem::create_symlink(outsideFile, f.root.path / "a.txt");
  });
  auto result = approvedReplace(f, "a.txt");
  REQUIRE(result.error);
  CHECK(result.error->message.find("symbolic link") != std::string::npos);
  CHECK(lathe::testing::readFile(outsideFile) == "hello\n");
  CHECK(std::filesystem::is_symlink(f.root.path / "a.txt"));
}

TEST_CASE("edits write without following links: a folder swapped for a link after the last check is not written into") {
  ToolFixture f;
  f.root.write("sub/a.txt", "hello\n");
  auto outsideFile = f.outside.write("a.txt", "hello\n");
  f.context.files = std::make_shared<SwapBeforeWrite>([&] {
    std::filesystem::rename(f.root.path / "sub", f.root.path / "sub.old");
    std::filesystem::create_directory_symlink(f.outside.path, f.root.path / "sub");
  });
  auto result = approvedReplace(f, "sub/a.txt");
  REQUIRE(result.error);
  CHECK(result.error->message.find("nothing was written") != std::string::npos);
  CHECK(lathe::testing::readFile(outsideFile) == "hello\n");
  CHECK(f.outside.entries() == std::vector<std::string>{"a.txt"});  // no temporary left there either
}

TEST_CASE("edits write without following links: the store's exact write refuses links, the plain one follows a final link") {
  ToolFixture f;
  auto store = makeDiskFileStore();
  auto target = f.root.write("real.txt", "old\n");
  std::filesystem::create_symlink(target, f.root.path / "link.txt");
  auto exact = store->writeTextExact((f.root.path / "link.txt").string(), "new\n", CancelToken());
  REQUIRE_FALSE(exact.ok());
  CHECK(lathe::testing::readFile(target) == "old\n");
  REQUIRE(store->writeTextExact(target.string(), "new\n", CancelToken()).ok());
  CHECK(lathe::testing::readFile(target) == "new\n");
  // Missing folders are created, one at a time, without following links.
  REQUIRE(store->writeTextExact((f.root.path / "x/y/new.txt").string(), "fresh\n", CancelToken()).ok());
  CHECK(lathe::testing::readFile(f.root.path / "x/y/new.txt") == "fresh\n");
  REQUIRE(store->writeText((f.root.path / "link.txt").string(), "via link\n", CancelToken()).ok());
  CHECK(lathe::testing::readFile(target) == "via link\n");
}
