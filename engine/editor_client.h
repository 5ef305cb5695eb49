// The engine's only way to reach the editor: a narrow interface that server/
// implements over ACP and headless mode implements for a terminal.
// sendUpdate may be called from any thread and must keep per-session order.
#pragma once

#include <string>

#include "protocol/acp.h"

namespace lathe::engine {

class EditorClient {
 public:
  virtual ~EditorClient() = default;
  virtual void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) = 0;
};

}  // namespace lathe::engine
