// The decoder of session/fork.
#include "protocol/acp/session_fork.h"

namespace lathe::acp {

Result<ForkSessionRequest> ForkSessionRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  ForkSessionRequest req;
  req.sessionId = r.str("sessionId");
  req.cwd = r.str("cwd");
  req.additionalDirectories = r.optStrings("additionalDirectories").value_or(std::vector<std::string>{});
  auto servers = decodeMcpServers(r);
  if (!servers) return servers.error();
  req.mcpServers = std::move(servers).value();
  return finish(r, std::move(req));
}

}  // namespace lathe::acp
