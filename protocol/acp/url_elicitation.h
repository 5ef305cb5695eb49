// ACP's URL elicitation tied to a request (stable v1, elicitation/create with
// mode "url" and a requestId; elicitation/complete): while a request such as
// authenticate is under way, the agent asks the client to send the person to
// a page (a login), and says when that is done. Pure.
#pragma once

#include <string>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct UrlElicitationRequest {
  std::string elicitationId;
  std::string url;
  std::string message;  // what the page is for, in words for the person
  json::Raw requestId;  // the request it belongs to, exactly as it came
  json::Raw toJson() const;
};

// accept (the person is going there), decline, cancel, or another action.
struct UrlElicitationResponse {
  std::string action;
  bool accepted() const { return action == "accept"; }
  static Result<UrlElicitationResponse> fromJson(const json::Value& result);
};

struct CompleteElicitationNotification {
  std::string elicitationId;
  json::Raw toJson() const;
};

}  // namespace lathe::acp
