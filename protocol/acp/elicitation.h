// ACP elicitation: the agent asks the person for structured input through the
// editor (elicitation/create: a form built from a schema, or a URL to open),
// and says when a URL flow has ended (elicitation/complete). Pure.
#pragma once

#include <string>

#include "protocol/acp/common.h"

namespace lathe::acp {

// elicitation/create, tied to a session and, when it is asked during one, a
// tool call; or, with requestId, to a request still under way (a login page
// while `authenticate` waits: no session yet).
struct ElicitationRequest {
  enum class Mode { form, url } mode = Mode::form;
  std::string sessionId;
  json::Raw requestId;  // the request's id exactly as it came; replaces sessionId
  std::string toolCallId;  // empty: the session as a whole
  std::string message;
  json::Raw requestedSchema;  // form: an ElicitationSchema object
  std::string elicitationId;  // url
  std::string url;            // url
  void writeJson(json::Writer& w) const;
};

struct ElicitationResponse {
  enum class Action { accept, decline, cancel } action = Action::cancel;
  json::Raw content;  // accept: the answers, by property name (an object; may be empty)
  static Result<ElicitationResponse> fromJson(const json::Value& result);
};
const char* toString(ElicitationResponse::Action action);

// elicitation/complete: the URL elicitation of this id has ended.
json::Raw elicitationCompleteParams(const std::string& elicitationId);

}  // namespace lathe::acp
