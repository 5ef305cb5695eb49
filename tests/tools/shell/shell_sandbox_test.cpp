// Shell lines under bubblewrap: the explicit sandbox (--sandbox) and the
// sealed run of lines nobody approved, and what a line that only reads may
// see without asking.
// commands and the bubblewrap sandbox. Spawns real bash processes.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tools/shell/shell_tools.h"
#include "tools/shell/background_processes.h"
#include "tools/process/process_runner.h"
#include "tools/shell/sandbox.h"
#include "tools/shell/sealed_run.h"
#include "tools/core/untrusted_text.h"
#include "tools/core/workspace.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"
#include "tests/tools/shell/shell_fixture.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

using namespace lathe::testing::shell_fixture;

// --- sandbox -------------------------------------------------------------

namespace {

// A TCP listener on 127.0.0.1 (connections complete from the backlog).
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd, 16);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~Listener() { ::close(fd); }
};

}  // namespace

TEST_CASE("sandbox: bubblewrap works here (setup installs it)") {
  auto probe = shell::probeSandboxNow();
  INFO((probe ? std::string("ok") : probe.error().message));
  REQUIRE(probe.ok());
  CHECK(shell::probeSandbox().ok());
}

TEST_CASE("sandbox: a clear error when bubblewrap cannot be found") {
  TempDir empty;
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", empty.path.c_str(), 1);
  auto probe = shell::probeSandboxNow();
  ::setenv("PATH", path.c_str(), 1);
  REQUIRE_FALSE(probe.ok());
  CHECK(probe.error().message.find("bubblewrap (bwrap), which is not installed") != std::string::npos);
}

TEST_CASE("sandbox: the workspace is writable, the rest is not") {
  REQUIRE(shell::probeSandbox().ok());
  Fixture f;
  TempDir outside("/var/tmp");  // not under /tmp, which the sandbox replaces with its own
  f.shell.options.sandbox = true;

  auto inside = f.run("echo hi > inside.txt && echo wrote-inside");
  CHECK(llmText(inside).find("Output: wrote-inside") != std::string::npos);
  CHECK(readFile(f.root.path / "inside.txt") == "hi\n");

  fs::path target = outside.path / "escape.txt";
  auto escape = f.run("echo hi > " + target.string() + " && echo wrote-outside");
  std::string llm = llmText(escape);
  CHECK(llm.find("Output: wrote-outside") == std::string::npos);
  CHECK(llm.find("Read-only file system") != std::string::npos);
  CHECK_FALSE(fs::exists(target));

  auto home = f.run("touch /etc/lathe-sandbox-test 2>&1; echo code=$?");
  CHECK(llmText(home).find("code=1") != std::string::npos);
  CHECK_FALSE(fs::exists("/etc/lathe-sandbox-test"));

  // Its own pid namespace: what the shell leaves behind dies with it.
  auto left = f.run("sleep 100 & echo started");
  INFO(llmText(left));
  CHECK(llmText(left).find("Background PIDs") == std::string::npos);
}

TEST_CASE("sandbox: no network unless allowed") {
  REQUIRE(shell::probeSandbox().ok());
  Fixture f;
  Listener listener;
  REQUIRE(listener.port > 0);
  std::string connect = "exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port) + " && echo connected";

  // Outside the sandbox the listener is reachable (the check itself works).
  auto plain = f.run(connect);
  CHECK(llmText(plain).find("Output: connected") != std::string::npos);

  f.shell.options.sandbox = true;
  auto blocked = f.run(connect);
  CHECK(llmText(blocked).find("Output: connected") == std::string::npos);
  CHECK(llmText(blocked).find("Exit Code: 0") == std::string::npos);

  f.shell.options.sandboxNetwork = true;
  auto allowed = f.run(connect);
  CHECK(llmText(allowed).find("Output: connected") != std::string::npos);
}

TEST_CASE("sandbox: cancel ends a sandboxed tree") {
  REQUIRE(shell::probeSandbox().ok());
  Fixture f;
  f.shell.options.sandbox = true;
  CancelToken cancel = CancelToken::create();
  ToolResult result;
  // A sleep length no other test uses, to find its processes from outside
  // (inside the sandbox they have other pids).
  std::thread runner([&] { result = f.run("echo up; sleep 4242.5 & sleep 4242.5 & wait", cancel); });
  REQUIRE(pollUntil([] { return processesRunning("4242.5") == 2; }, 10s));
  auto start = Clock::now();
  cancel.cancel();
  runner.join();
  CHECK(Clock::now() - start < 5s);
  CHECK(pollUntil([] { return processesRunning("4242.5") == 0; }, 5s));
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::cancelled);
}

// ---------------------------------------------------------------- sealed run
// A line nobody approved (judged read-only) runs in the read-only sandbox.

namespace {

// Whether a connection reached the listener (non-blocking accept).
bool accepted(const Listener& listener) {
  pollfd pending{listener.fd, POLLIN, 0};
  if (::poll(&pending, 1, 0) <= 0) return false;
  int fd = ::accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace

TEST_CASE("sealed: the read-only sandbox works here") {
  auto probe = shell::probeSealedNow();
  INFO((probe ? std::string("ok") : probe.error().message));
  REQUIRE(probe.ok());
}

TEST_CASE("sealed: a read-only line works and reads the workspace") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  f.approval = Approval::judged;
  f.root.write("src/a.txt", "workspace text\n");
  auto result = f.run("cat src/a.txt && ls src && pwd");
  std::string llm = llmText(result);
  CHECK(llm.find("workspace text") != std::string::npos);
  CHECK(llm.find("a.txt") != std::string::npos);
  CHECK(llm.find(f.root.path.string()) != std::string::npos);
  CHECK(llm.find("Exit Code: 0") != std::string::npos);
  CHECK(llm.find("Sandbox: this line ran without the person's approval") != std::string::npos);
  CHECK(llm.find(std::string(kUntrustedOutputNote) + "\nOutput: workspace text") != std::string::npos);
  CHECK(llm.find(shell::kSealedFailurePrefix) == std::string::npos);
  CHECK(displayText(result).find(shell::kSealedDisplay) != std::string::npos);
}

TEST_CASE("sealed: writes in the workspace and in HOME fail, and say so") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  f.approval = Approval::judged;
  auto inside = f.run("echo x > pwned.txt && echo wrote");
  std::string llm = llmText(inside);
  CHECK_FALSE(fs::exists(f.root.path / "pwned.txt"));
  CHECK(llm.find("Output: wrote") == std::string::npos);
  CHECK(llm.find("Read-only file system") != std::string::npos);
  CHECK(llm.find(std::string(shell::kSealedFailurePrefix) + "the command failed") != std::string::npos);

  const char* home = std::getenv("HOME");
  REQUIRE(home);
  fs::path marker = fs::path(home) / ("lathe-sealed-test-" + std::to_string(::getpid()));
  auto inHome = f.run("echo x > \"$HOME/" + marker.filename().string() + "\"");
  CHECK_FALSE(fs::exists(marker));
  CHECK(llmText(inHome).find("Read-only file system") != std::string::npos);
  auto homeList = f.run("ls -A \"$HOME\" | wc -l");
  CHECK(llmText(homeList).find("Output: 0") != std::string::npos);  // an empty HOME

  // Temporary files are private and gone afterwards.
  auto tmp = f.run("echo x > /tmp/lathe-sealed-tmp && cat /tmp/lathe-sealed-tmp");
  CHECK(llmText(tmp).find("Output: x") != std::string::npos);
  CHECK_FALSE(fs::exists("/tmp/lathe-sealed-tmp"));
}

TEST_CASE("sealed: files outside the workspace and secrets are not visible") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  f.approval = Approval::judged;
  TempDir outside("/var/tmp");
  outside.write("secret.txt", "outside secret\n");
  auto result = f.run("cat " + (outside.path / "secret.txt").string());
  CHECK(llmText(result).find("outside secret") == std::string::npos);
  CHECK(llmText(result).find("No such file or directory") != std::string::npos);

  auto shadow = f.run("cat /etc/shadow 2>/dev/null | wc -c; ls /etc/ssh 2>/dev/null | wc -l");
  CHECK(llmText(shadow).find("Output: 0\n0") != std::string::npos);
}

TEST_CASE("sealed: no network connection gets out") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  f.approval = Approval::judged;
  Listener listener;
  REQUIRE(listener.port > 0);
  auto result = f.run("exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port) + " && echo connected");
  CHECK(llmText(result).find("Output: connected") == std::string::npos);
  CHECK_FALSE(accepted(listener));
  CHECK(llmText(result).find(shell::kSealedFailurePrefix) != std::string::npos);
}

TEST_CASE("sealed: approved lines, yolo and the explicit sandbox keep today's behaviour") {
  Fixture f;
  f.approval = Approval::person;
  auto approved = f.run("echo x > approved.txt && echo wrote");
  CHECK(readFile(f.root.path / "approved.txt") == "x\n");
  CHECK(llmText(approved).find("Sandbox:") == std::string::npos);

  f.shell.options.sandbox = true;  // the explicit sandbox keeps the workspace writable
  f.run("echo y > explicit.txt");
  CHECK(readFile(f.root.path / "explicit.txt") == "y\n");
}

TEST_CASE("sealed: a line that failed sealed is asked about next time") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  f.approval = Approval::judged;
  auto tool = makeRunShellCommandTool(f.context, f.shell);
  auto confirmOf = [&](const std::string& command) {
    auto built = tool->build(json::parse("{\"command\": " + json::build([&](json::Writer& w) { json::str(w, command); }) + "}").value());
    REQUIRE(built.invocation);
    auto details = built.invocation->shouldConfirmExecute(CancelToken());
    REQUIRE(details);
    REQUIRE(details->has_value());
    return std::get<ExecConfirmation>(**details);
  };
  const std::string line = "ls missing-dir";
  CHECK(confirmOf(line).readOnly);
  auto built = tool->build(json::parse(R"({"command": "ls missing-dir"})").value());
  REQUIRE(built.invocation);
  built.invocation->setApproval(Approval::judged);
  auto result = built.invocation->execute(CancelToken(), [](const std::string&) {});
  CHECK(llmText(result).find(shell::kSealedFailurePrefix) != std::string::npos);
  ExecConfirmation again = confirmOf(line);
  CHECK_FALSE(again.readOnly);
  CHECK(again.note.find("failed in the read-only sandbox") != std::string::npos);
  CHECK(confirmOf("ls").readOnly);  // other lines are not affected
}

TEST_CASE("sealed: an invocation nobody told about approval runs sealed") {
  REQUIRE(shell::probeSealed().ok());
  Fixture f;
  auto tool = makeRunShellCommandTool(f.context, f.shell);
  auto built = tool->build(json::parse(R"({"command": "touch default.txt"})").value());
  REQUIRE(built.invocation);
  built.invocation->execute(CancelToken(), [](const std::string&) {});  // no setApproval: fail closed
  CHECK_FALSE(fs::exists(f.root.path / "default.txt"));
}

TEST_CASE("sealed: a workspace inside HOME is visible, the rest of HOME is not") {
  REQUIRE(shell::probeSealed().ok());
  TempDir home;
  home.write(".secret-config", "home secret\n");
  home.write("proj/a.txt", "project text\n");
  const char* oldHome = std::getenv("HOME");
  std::string saved = oldHome ? oldHome : "";
  ::setenv("HOME", home.str().c_str(), 1);
  Fixture f;
  f.context.workspace = std::make_shared<const Workspace>(Workspace::create((home.path / "proj").string()).value());
  f.approval = Approval::judged;
  auto result = f.run("cat a.txt; cat \"$HOME/.secret-config\"; ls -A \"$HOME\"; touch \"$HOME/new\"");
  ::setenv("HOME", saved.c_str(), 1);
  std::string llm = llmText(result);
  INFO(llm);
  CHECK(llm.find("project text") != std::string::npos);
  CHECK(llm.find("home secret") == std::string::npos);
  CHECK_FALSE(fs::exists(home.path / "new"));
  CHECK_FALSE(fs::exists(home.path / "proj/new"));
}

TEST_CASE("shell: a read-only line that names a file kept from the model is asked about, saying which") {
  Fixture f;
  std::ofstream(f.root.path / ".env") << "TOKEN=x\n";
  std::ofstream(f.root.path / ".gitignore") << "private/\n";
  fs::create_directories(f.root.path / "private");
  std::ofstream(f.root.path / "private" / "notes.txt") << "mine\n";
  std::ofstream(f.root.path / "README") << "hello\n";
  auto confirmation = [&](const std::string& command) {
    auto built = f.build(json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, "command", command);
      w.EndObject();
    }));
    REQUIRE(built.invocation);
    auto details = built.invocation->shouldConfirmExecute(CancelToken());
    REQUIRE(details);
    REQUIRE(details->has_value());
    return std::get<ExecConfirmation>(**details);
  };
  CHECK(confirmation("cat README").readOnly);
  fs::create_directories(f.root.path / ".git");
  for (const char* command : {"cat .env", "grep TOKEN .env README", "cat private/notes.txt", "ls private", "ls .git"}) {
    INFO(command);
    auto asked = confirmation(command);
    CHECK_FALSE(asked.readOnly);
    CHECK(asked.note.find("It reads ") != std::string::npos);
  }
  CHECK(confirmation("cat .env").note.find("an environment file (.env)") != std::string::npos);
}
