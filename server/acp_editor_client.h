// The engine's EditorClient over ACP: session updates become session/update
// notifications; permission and fs calls become requests to the client.
// Any thread; the blocking calls block only their caller.
#pragma once

#include <atomic>
#include <memory>

#include "engine/session/editor_client.h"
#include "protocol/jsonrpc/peer.h"

namespace lathe::server {

class AcpEditorClient final : public engine::EditorClient {
 public:
  explicit AcpEditorClient(std::shared_ptr<rpc::Peer> peer) : peer_(std::move(peer)) {}

  void setCapabilities(const acp::ClientCapabilities& capabilities);

  void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) override;
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                           const CancelToken& cancel) override;
  acp::ClientCapabilities capabilities() const override;
  Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                   const CancelToken& cancel) override;
  Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                       const CancelToken& cancel) override;

 private:
  std::shared_ptr<rpc::Peer> peer_;
  std::atomic<bool> readTextFile_{false};
  std::atomic<bool> writeTextFile_{false};
  std::atomic<bool> elicitationUrl_{false};
};

}  // namespace lathe::server
