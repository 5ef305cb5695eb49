// MCP elicitation forwarded to the editor: what a server asks for during one
// of its tool calls (elicitation/create: a form, or a URL to open) becomes
// an ACP elicitation of the session tied to that call, and the person's
// answer goes back to the server as MCP words it (accept with the content,
// decline, cancel). Pure.
#pragma once

#include <string>

#include "protocol/acp/elicitation.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::tools::mcp {

struct ElicitationModes {
  bool form = false;
  bool url = false;
};

// The client capability Lathe advertises to servers for these modes.
json::Raw elicitationCapability(ElicitationModes modes);

// A server's elicitation/create params as the editor is to be asked (session
// and tool call left for the caller); an error naming the bad field, or a
// mode the editor cannot show.
Result<acp::ElicitationRequest> elicitationFromMcp(const json::Value& params, ElicitationModes modes);

// The person's answer as the MCP result the server reads.
json::Raw elicitationResultForMcp(const acp::ElicitationResponse& answer);

}  // namespace lathe::tools::mcp
