// ACP client calls.
#include "server/acp_editor_client.h"

#include <chrono>

namespace lathe::server {
namespace {
// A person may take a while to decide; a file call should be quick.
constexpr std::chrono::minutes kPermissionTimeout{30};
constexpr std::chrono::seconds kFileTimeout{60};
}  // namespace

void AcpEditorClient::setCapabilities(const acp::ClientCapabilities& capabilities) {
  std::lock_guard lock(mutex_);
  capabilities_ = capabilities;
}

acp::ClientCapabilities AcpEditorClient::capabilities() const {
  std::lock_guard lock(mutex_);
  return capabilities_;
}

void AcpEditorClient::sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) {
  // Written straight into the message: an edit's diff is encoded once.
  peer_->notify("session/update",
                [&](json::Writer& w) { acp::writeSessionNotification(w, sessionId, update); });
}

Result<acp::RequestPermissionResponse> AcpEditorClient::requestPermission(const acp::RequestPermissionRequest& request,
                                                                          const CancelToken& cancel) {
  auto response = peer_->call("session/request_permission", [&](json::Writer& w) { request.writeJson(w); },
                              kPermissionTimeout, cancel);
  if (!response) return response.error();
  if (!response->result) return makeError(Errc::invalid_request, "the client answered without a result");
  return acp::RequestPermissionResponse::fromJson(*response->result);
}

Result<acp::ElicitationResponse> AcpEditorClient::elicit(const acp::ElicitationRequest& request,
                                                        const CancelToken& cancel) {
  if (!capabilities().canElicit()) return makeError(Errc::invalid_request, "the editor did not offer elicitation");
  // As long as a permission question: a person is answering.
  auto response = peer_->call("elicitation/create", [&](json::Writer& w) { request.writeJson(w); }, kPermissionTimeout,
                              cancel);
  if (!response) return response.error();
  if (!response->result) return makeError(Errc::invalid_request, "the client answered elicitation/create without a result");
  return acp::ElicitationResponse::fromJson(*response->result);
}

void AcpEditorClient::elicitationComplete(const std::string& elicitationId) {
  peer_->notify("elicitation/complete", acp::elicitationCompleteParams(elicitationId));
}

Result<std::string> AcpEditorClient::readTextFile(const std::string& sessionId, const std::string& path,
                                                  const CancelToken& cancel) {
  auto response = peer_->call("fs/read_text_file", acp::ReadTextFileRequest{sessionId, path}.toJson(), kFileTimeout, cancel);
  if (!response) return response.error();
  if (!response->result) return makeError(Errc::invalid_request, "the client answered fs/read_text_file without a result");
  return acp::readTextFileResult(*response->result);
}

Status AcpEditorClient::writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                                      const CancelToken& cancel) {
  auto response = peer_->call("fs/write_text_file", acp::WriteTextFileRequest{sessionId, path, content}.toJson(),
                              kFileTimeout, cancel);
  if (!response) return response.error();
  return {};
}

}  // namespace lathe::server
