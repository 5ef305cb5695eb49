// The ACP method table: decodes params, calls the engine, encodes results.
// Handlers run on the reading thread and never block; prompt turns run on
// their own threads and answer through their Responder.
#pragma once

#include <atomic>
#include <memory>

#include "engine/session_manager.h"
#include "server/acp_editor_client.h"
#include "server/peer.h"

namespace lathe::server {

class AcpAgent {
 public:
  AcpAgent(std::shared_ptr<Peer> peer, engine::AgentConfig config);
  ~AcpAgent();

  // Cancels running turns and waits for them (at end of input).
  void shutdown();

 private:
  void registerMethods();

  std::shared_ptr<Peer> peer_;
  AcpEditorClient editor_;
  engine::SessionManager sessions_;
  std::atomic<bool> initialized_{false};
};

}  // namespace lathe::server
