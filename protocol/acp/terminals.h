// ACP terminal/*: commands the client runs in a terminal of its own
// (clientCapabilities.terminal), created, read, waited for, killed and
// released by the agent. Pure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct CreateTerminalRequest {
  std::string sessionId;
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string cwd;  // absolute
  std::optional<int64_t> outputByteLimit;
  json::Raw toJson() const;
};
Result<std::string> createTerminalResult(const json::Value& result);  // the terminalId

// terminal/output, wait_for_exit, kill and release name one terminal.
struct TerminalRef {
  std::string sessionId;
  std::string terminalId;
  json::Raw toJson() const;
};

struct TerminalExitStatus {
  std::optional<int64_t> exitCode;
  std::optional<std::string> signal;
};
Result<TerminalExitStatus> terminalExitResult(const json::Value& result);  // wait_for_exit

struct TerminalOutput {
  std::string output;
  bool truncated = false;
  std::optional<TerminalExitStatus> exitStatus;  // once the command ended
};
Result<TerminalOutput> terminalOutputResult(const json::Value& result);

}  // namespace lathe::acp
