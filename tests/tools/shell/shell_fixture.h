// The run_shell_command fixture the shell tests share: a workspace, a data
// directory, background processes, and calls built and run the way the
// scheduler runs them. Test-only.
#pragma once

#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "tools/shell/shell_tools.h"
#include "tools/shell/background_processes.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

namespace lathe::testing::shell_fixture {

using namespace lathe::tools;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

using lathe::testing::TempDir;
using lathe::testing::readFile;



// Live processes whose command line holds `token`.
inline int processesRunning(const std::string& token) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = readFile(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.rfind("sleep " + token, 0) == 0 && lathe::testing::processAlive(static_cast<pid_t>(std::stol(name)))) ++count;
  }
  return count;
}

// What these tests wait for cannot notify them: pid files the shells write,
// processes in /proc, output the background reader gathers. So they poll.
using lathe::testing::pollUntil;
using lathe::testing::waitUntilBlocked;

inline std::vector<pid_t> readPids(const fs::path& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (long pid; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  return pids;
}

inline std::string llmText(const ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

inline std::string displayText(const ToolResult& result) {
  auto* text = std::get_if<std::string>(&result.returnDisplay);
  return text ? *text : std::string();
}

struct Fixture {
  TempDir root;
  TempDir data;
  ToolContext context;
  ShellSetup shell;
  Fixture() {
    context.workspace = std::make_shared<const Workspace>(Workspace::create(root.path.string()).value());
    context.sessionDataDir = (data.path / "session").string();
    shell.background = std::make_shared<shell::BackgroundProcesses>();
    shell.options.inactivitySeconds = 60;
  }

  // How the scheduler approved the calls: these tests run approved lines
  // unless they test the sealed run.
  Approval approval = Approval::person;

  BuildResult build(const std::string& args) const {
    auto tool = makeRunShellCommandTool(context, shell);
    return tool->build(json::parse(args).value());
  }

  ToolResult run(const std::string& command, const CancelToken& cancel = CancelToken(),
                 const OutputSink& sink = [](const std::string&) {}) const {
    std::string args = json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, "command", command);
      w.EndObject();
    });
    return runArgs(args, cancel, sink);
  }

  ToolResult runArgs(const std::string& args, const CancelToken& cancel = CancelToken(),
                     const OutputSink& sink = [](const std::string&) {}) const {
    auto built = build(args);
    if (!built.invocation) return ToolResult::failure(built.error->type, built.error->message);
    built.invocation->setApproval(approval);
    return built.invocation->execute(cancel, sink);
  }

  ToolResult runTool(std::unique_ptr<Tool> tool, const std::string& args) const {
    auto built = tool->build(json::parse(args).value());
    if (!built.invocation) return ToolResult::failure(built.error->type, built.error->message);
    built.invocation->setApproval(approval);
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }
};

}  // namespace lathe::testing::shell_fixture
