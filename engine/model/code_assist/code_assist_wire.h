// The Code Assist API's wire (what Log in with Google talks to, as Gemini CLI
// 0.61 does): a Gemini request wrapped with the model, the Cloud project and
// prompt and session ids; replies wrapped as {"response": ..., "traceId"};
// the setup calls loadCodeAssist and onboardUser that find (or make) the
// person's project. Pure functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/model_provider.h"
#include "protocol/base/result.h"

namespace lathe::engine::code_assist {

struct RequestIds {
  std::string project;
  std::string userPromptId;
  std::string sessionId;
};

// {"model", "project", "user_prompt_id", "request": {contents..., "session_id"}}.
std::string buildGenerateRequest(const ModelRequest& request, const RequestIds& ids);
// {"request": {"model": "models/<m>", "contents": [...]}}.
std::string buildCountTokensRequest(const ModelRequest& request);
// One reply (an SSE payload or a whole body): the Gemini response inside;
// rawJson is that inner response (recordings stay Gemini CLI's format).
Result<ModelChunk> parseResponse(std::string_view body);

// The client metadata both setup calls carry.
std::string buildLoadRequest(const std::string& project);
std::string buildOnboardRequest(const std::string& tierId, const std::string& project);

struct Tier {
  std::string id;  // free-tier, legacy-tier, standard-tier
  std::string name;
  bool isDefault = false;
};
struct IneligibleTier {
  std::string reasonCode;
  std::string reasonMessage;
  std::string validationUrl;
};
struct LoadResponse {
  std::optional<Tier> currentTier;
  std::optional<Tier> paidTier;
  std::vector<Tier> allowedTiers;
  std::vector<IneligibleTier> ineligibleTiers;
  std::string project;  // cloudaicompanionProject
};
Result<LoadResponse> parseLoadResponse(std::string_view body);

// A long-running operation: its name to poll, done, and the project it made.
struct Operation {
  std::string name;
  bool done = false;
  std::string project;  // response.cloudaicompanionProject.id
};
Result<Operation> parseOperation(std::string_view body);

}  // namespace lathe::engine::code_assist
