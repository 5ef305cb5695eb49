// What the scheduler needs of the editor: show the calls' updates and ask the
// person. The engine's EditorClient (engine/session/editor_client.h) extends
// it, so the scheduler stays below the turn core. Any thread.
#pragma once

#include <string>

#include "protocol/acp/client_calls.h"
#include "protocol/acp/updates.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine {

class CallChannel {
 public:
  virtual ~CallChannel() = default;

  // Must keep per-session order.
  virtual void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) = 0;

  // Asks the person. Any error (timeout, closed connection, cancellation)
  // must be treated by the caller as a rejection.
  virtual Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                                   const CancelToken& cancel) = 0;
};

}  // namespace lathe::engine
