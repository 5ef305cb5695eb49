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

namespace {

// A call that answers with a result object, decoded.
template <class Decode>
auto resultOf(Result<rpc::Response> response, const std::string& method, Decode decode)
    -> decltype(decode(std::declval<const json::Value&>())) {
  if (!response) return response.error();
  if (!response->result) return makeError(Errc::invalid_request, "the client answered " + method + " without a result");
  return decode(*response->result);
}

}  // namespace

Result<std::string> AcpEditorClient::createTerminal(const acp::CreateTerminalRequest& request, const CancelToken& cancel) {
  if (!capabilities().terminal) return noTerminals();
  return resultOf(peer_->call("terminal/create", request.toJson(), kFileTimeout, cancel), "terminal/create",
                  acp::createTerminalResult);
}

Result<acp::TerminalOutput> AcpEditorClient::terminalOutput(const acp::TerminalRef& terminal) {
  return resultOf(peer_->call("terminal/output", terminal.toJson(), kFileTimeout, CancelToken()), "terminal/output",
                  acp::terminalOutputResult);
}

Result<acp::TerminalExitStatus> AcpEditorClient::waitForTerminalExit(const acp::TerminalRef& terminal,
                                                                     std::chrono::milliseconds timeout,
                                                                     const CancelToken& cancel) {
  return resultOf(peer_->call("terminal/wait_for_exit", terminal.toJson(), timeout, cancel), "terminal/wait_for_exit",
                  acp::terminalExitResult);
}

Status AcpEditorClient::endTerminal(const acp::TerminalRef& terminal, bool release) {
  auto response = peer_->call(release ? "terminal/release" : "terminal/kill", terminal.toJson(), kFileTimeout, CancelToken());
  if (!response) return response.error();
  return {};
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
