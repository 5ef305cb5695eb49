// Commands run in the editor's own terminal (ACP terminal/*), for editors that
// offer them: created, waited for, read, killed and released. Blocking calls
// on the tool's worker; any thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "protocol/acp/terminals.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools {

class TerminalHost {
 public:
  virtual ~TerminalHost() = default;
  // Starts the command (the request's sessionId is filled in); its terminal id.
  virtual Result<std::string> create(acp::CreateTerminalRequest request, const CancelToken& cancel) = 0;
  // How the command ended, or nullopt when `timeout` passed first;
  // Errc::cancelled when `cancel` fired (the question is withdrawn).
  virtual Result<std::optional<acp::TerminalExitStatus>> waitForExit(const std::string& terminalId,
                                                                     std::chrono::milliseconds timeout,
                                                                     const CancelToken& cancel) = 0;
  virtual Result<acp::TerminalOutput> output(const std::string& terminalId) = 0;
  virtual Status kill(const std::string& terminalId) = 0;
  // The editor may let go of it (what the call's content embeds stays shown).
  virtual Status release(const std::string& terminalId) = 0;
};

}  // namespace lathe::tools
