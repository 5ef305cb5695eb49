// The engine's only way to reach the editor: a narrow interface that server/
// implements over ACP and headless mode implements for a terminal. All calls
// may come from any thread; the blocking ones block only the calling worker.
#pragma once

#include <chrono>
#include <string>

#include "engine/scheduler/call_channel.h"
#include "protocol/acp/elicitation.h"
#include "protocol/acp/initialize.h"
#include "protocol/acp/terminals.h"

namespace lathe::engine {

// Updates and permission questions: CallChannel's.
class EditorClient : public CallChannel {
 public:
  // What the editor can do for us (fs access to its buffers, forms, notices).
  virtual acp::ClientCapabilities capabilities() const = 0;
  // Asks the person (elicitation/create), for editors whose capabilities
  // offer it; an error when no answer came. Blocks the calling worker.
  virtual Result<acp::ElicitationResponse> elicit(const acp::ElicitationRequest& request, const CancelToken& cancel) {
    (void)request;
    (void)cancel;
    return makeError(Errc::invalid_request, "this editor cannot ask questions");
  }
  // A URL elicitation has ended (elicitation/complete).
  virtual void elicitationComplete(const std::string& elicitationId) { (void)elicitationId; }
  // The editor's terminals (terminal/*), for editors whose capabilities offer
  // them; errors otherwise. wait_for_exit ends with Errc::timeout after
  // `timeout`, Errc::cancelled when `cancel` fires. Block the calling worker.
  virtual Result<std::string> createTerminal(const acp::CreateTerminalRequest& request, const CancelToken& cancel) {
    (void)request;
    (void)cancel;
    return noTerminals();
  }
  virtual Result<acp::TerminalOutput> terminalOutput(const acp::TerminalRef& terminal) {
    (void)terminal;
    return noTerminals();
  }
  virtual Result<acp::TerminalExitStatus> waitForTerminalExit(const acp::TerminalRef& terminal,
                                                              std::chrono::milliseconds timeout,
                                                              const CancelToken& cancel) {
    (void)terminal;
    (void)timeout;
    (void)cancel;
    return noTerminals();
  }
  // terminal/kill and terminal/release.
  virtual Status endTerminal(const acp::TerminalRef& terminal, bool release) {
    (void)terminal;
    (void)release;
    return noTerminals();
  }
  virtual Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                           const CancelToken& cancel) = 0;
  virtual Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                               const CancelToken& cancel) = 0;

 protected:
  static Error noTerminals() { return makeError(Errc::invalid_request, "this editor offers no terminals"); }
};

}  // namespace lathe::engine
