// How a tool asks the person for structured input through the editor (ACP
// elicitation: a form, or a URL to open): what the editor can show, and the
// question itself, which blocks until the person answers, the editor gives
// up, or the call is cancelled. ask_user asks through it; MCP servers' own
// elicitation requests are forwarded through it. Any thread.
#pragma once

#include <string>

#include "protocol/acp/elicitation.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::tools {

class Asker {
 public:
  virtual ~Asker() = default;
  virtual bool offersForm() const = 0;
  virtual bool offersUrl() const = 0;
  // The request's session is filled in; an error when no answer came
  // (cancelled, timed out, the editor refused or is gone).
  virtual Result<acp::ElicitationResponse> ask(acp::ElicitationRequest request, const CancelToken& cancel) = 0;
  // The URL elicitation of this id has ended (its server said so).
  virtual void completed(const std::string& elicitationId) = 0;
};

}  // namespace lathe::tools
