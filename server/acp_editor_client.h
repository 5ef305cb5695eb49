// The engine's EditorClient over ACP: session updates become session/update
// notifications. Any thread.
#pragma once

#include <memory>

#include "engine/editor_client.h"
#include "server/peer.h"

namespace lathe::server {

class AcpEditorClient final : public engine::EditorClient {
 public:
  explicit AcpEditorClient(std::shared_ptr<Peer> peer) : peer_(std::move(peer)) {}
  void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) override {
    peer_->notify("session/update", acp::sessionNotification(sessionId, update));
  }

 private:
  std::shared_ptr<Peer> peer_;
};

}  // namespace lathe::server
