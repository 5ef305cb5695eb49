// The engine's only way to reach the editor: a narrow interface that server/
// implements over ACP and headless mode implements for a terminal. All calls
// may come from any thread; the blocking ones block only the calling worker.
#pragma once

#include <string>

#include "protocol/acp/client_calls.h"
#include "protocol/acp/initialize.h"
#include "protocol/acp/updates.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::engine {

class EditorClient {
 public:
  virtual ~EditorClient() = default;

  // Must keep per-session order.
  virtual void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) = 0;

  // Asks the person. Any error (timeout, closed connection, cancellation)
  // must be treated by the caller as a rejection.
  virtual Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                                   const CancelToken& cancel) = 0;

  // What the editor can do for us (fs access to its buffers).
  virtual acp::ClientCapabilities capabilities() const = 0;
  virtual Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                           const CancelToken& cancel) = 0;
  virtual Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                               const CancelToken& cancel) = 0;
};

}  // namespace lathe::engine
