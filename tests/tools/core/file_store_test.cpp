// The disk FileStore: atomic writes that keep the mode, leave no temporary
// behind (killed writers' included), survive a failure half-way and many
// writers at once; whole-file reads with clear errors.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"
#include "tools/core/file_store.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;
using lathe::testing::readFile;
using lathe::testing::TempDir;

namespace {

unsigned modeOf(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("edit: disk store writes atomically, keeps the mode and leaves no temporary files") {
  TempDir dir;
  auto store = makeDiskFileStore();
  fs::path script = dir.write("run.sh", "#!/bin/sh\necho old\n");
  REQUIRE(::chmod(script.c_str(), 0755) == 0);
  REQUIRE(store->writeText(script.string(), "#!/bin/sh\necho new\n", CancelToken()).ok());
  CHECK(readFile(script) == "#!/bin/sh\necho new\n");
  CHECK(modeOf(script) == 0755);
  fs::path secret = dir.write("secret.txt", "s");
  REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  REQUIRE(store->writeText(secret.string(), "t", CancelToken()).ok());
  CHECK(modeOf(secret) == 0600);
  CHECK(dir.entries() == std::vector<std::string>{"run.sh", "secret.txt"});

  // A new file gets 0644 minus the umask, and its missing parents are created.
  mode_t mask = ::umask(027);
  ::umask(mask);
  fs::path fresh = dir.path / "a/b/new.txt";
  REQUIRE(store->writeText(fresh.string(), "hello", CancelToken()).ok());
  CHECK(readFile(fresh) == "hello");
  CHECK(modeOf(fresh) == (0644u & ~static_cast<unsigned>(mask)));
  CHECK(store->readText(fresh.string(), CancelToken()).value() == "hello");
  CHECK(dir.entries() == std::vector<std::string>{"a", "a/b", "a/b/new.txt", "run.sh", "secret.txt"});

  // Writing through a symlink replaces the file it names and keeps the link.
  fs::create_symlink("run.sh", dir.path / "link.sh");
  REQUIRE(store->writeText((dir.path / "link.sh").string(), "via link\n", CancelToken()).ok());
  CHECK(fs::is_symlink(dir.path / "link.sh"));
  CHECK(readFile(script) == "via link\n");
  CHECK(modeOf(script) == 0755);
}

TEST_CASE("edit: a temporary left by a writer that was killed is removed by the next write of that file") {
  TempDir dir;
  auto store = makeDiskFileStore();
  fs::path target = dir.write("notes.txt", "old");
  // A pid that exists no more: a child that has already been reaped.
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  REQUIRE(gone > 0);
  ::waitpid(gone, nullptr, 0);
  fs::path stale = dir.write(".notes.txt.lathe-" + std::to_string(gone) + "-0badf00d.tmp", "torn");
  fs::path ours = dir.write(".notes.txt.lathe-" + std::to_string(::getpid()) + "-0000beef.tmp", "in use");
  fs::path other = dir.write(".other.txt.lathe-" + std::to_string(gone) + "-0badf00d.tmp", "someone else's");
  REQUIRE(store->writeText(target.string(), "new", CancelToken()).ok());
  CHECK(readFile(target) == "new");
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(ours));   // a live writer's is left alone
  CHECK(fs::exists(other));  // and so are other files' temporaries
}

TEST_CASE("edit: disk store reads whole files and reports missing files and directories clearly") {
  TempDir dir;
  auto store = makeDiskFileStore();
  std::string big(300 * 1024, 'x');
  dir.write("big.txt", big);
  CHECK(store->readText((dir.path / "big.txt").string(), CancelToken()).value() == big);
  CHECK(store->readText((dir.path / "empty.txt").string(), CancelToken()).error().code == Errc::not_found);
  fs::create_directory(dir.path / "sub");
  auto readDir = store->readText((dir.path / "sub").string(), CancelToken());
  REQUIRE_FALSE(readDir.ok());
  CHECK(readDir.error().code != Errc::not_found);
  CHECK_THAT(readDir.error().message, Catch::Contains("is a directory"));
  auto writeDir = store->writeText((dir.path / "sub").string(), "x", CancelToken());
  REQUIRE_FALSE(writeDir.ok());
  CHECK_THAT(writeDir.error().message, Catch::Contains("is a directory"));
  CHECK(fs::is_directory(dir.path / "sub"));
  CHECK(store->writeText("relative.txt", "x", CancelToken()).error().code == Errc::invalid_params);
  auto cancel = CancelToken::create();
  cancel.cancel();
  CHECK(store->writeText((dir.path / "c.txt").string(), "x", cancel).error().code == Errc::cancelled);
  CHECK_FALSE(fs::exists(dir.path / "c.txt"));
}

TEST_CASE("edit: a write that fails half-way leaves the original intact and no temporary file") {
  TempDir dir;
  auto store = makeDiskFileStore();
  fs::path target = dir.write("data.txt", "original\n");

  // The file size limit fails the write with EFBIG even for root.
  struct rlimit saved {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  auto oldHandler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  Status status = store->writeText(target.string(), std::string(64 * 1024, 'y'), CancelToken());
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, oldHandler);

  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("cannot write"));
  CHECK(readFile(target) == "original\n");
  CHECK(dir.entries() == std::vector<std::string>{"data.txt"});

  if (::geteuid() != 0) {  // root ignores directory permissions
    fs::permissions(dir.path, fs::perms::owner_write, fs::perm_options::remove);
    CHECK_FALSE(store->writeText(target.string(), "changed\n", CancelToken()).ok());
    fs::permissions(dir.path, fs::perms::owner_write, fs::perm_options::add);
    CHECK(readFile(target) == "original\n");
    CHECK(dir.entries() == std::vector<std::string>{"data.txt"});
  }
}

TEST_CASE("edit: disk store writes from many threads at once stay whole") {
  TempDir dir;
  auto store = makeDiskFileStore();
  const std::string target = (dir.path / "shared.txt").string();
  std::vector<std::string> contents;
  for (int t = 0; t < 6; ++t) contents.push_back(std::string(50000 + t, static_cast<char>('a' + t)));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 15; ++i) {
        if (!store->writeText(target, contents[t], CancelToken()).ok()) ++failures;
        if (!store->writeText((dir.path / ("own" + std::to_string(t))).string(), contents[t], CancelToken()).ok()) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
  std::string final = readFile(target);
  CHECK(std::find(contents.begin(), contents.end(), final) != contents.end());
  CHECK(dir.entries().size() == 7);  // no temporary file left behind
}

// ---------------------------------------------------------------- replace
