// The engine's only way to reach the editor: a narrow interface that server/
// implements over ACP and headless mode implements for a terminal. All calls
// may come from any thread; the blocking ones block only the calling worker.
#pragma once

#include <string>

#include "engine/scheduler/call_channel.h"
#include "protocol/acp/elicitation.h"
#include "protocol/acp/initialize.h"

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
  virtual Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                           const CancelToken& cancel) = 0;
  virtual Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                               const CancelToken& cancel) = 0;
};

}  // namespace lathe::engine
