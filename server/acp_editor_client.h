// The engine's EditorClient over ACP: session updates become session/update
// notifications; permission, fs and elicitation calls become requests to the
// client (a call that no longer waits is withdrawn with $/cancel_request, see
// Peer::call). Any thread; the blocking calls block only their caller.
#pragma once

#include <memory>
#include <mutex>

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
  Result<acp::ElicitationResponse> elicit(const acp::ElicitationRequest& request, const CancelToken& cancel) override;
  void elicitationComplete(const std::string& elicitationId) override;

 private:
  std::shared_ptr<rpc::Peer> peer_;
  mutable std::mutex mutex_;
  acp::ClientCapabilities capabilities_;  // from initialize
};

}  // namespace lathe::server
