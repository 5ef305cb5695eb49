// The engine's only way to reach the editor: a narrow interface that server/
// implements over ACP and headless mode implements for a terminal. All calls
// may come from any thread; the blocking ones block only the calling worker.
#pragma once

#include <string>

#include "engine/scheduler/call_channel.h"
#include "protocol/acp/initialize.h"

namespace lathe::engine {

// Updates and permission questions: CallChannel's.
class EditorClient : public CallChannel {
 public:
  // What the editor can do for us (fs access to its buffers).
  virtual acp::ClientCapabilities capabilities() const = 0;
  virtual Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                           const CancelToken& cancel) = 0;
  virtual Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                               const CancelToken& cancel) = 0;
};

}  // namespace lathe::engine
