// Gemini CLI's "auto" models: once per prompt, one cheap classifier call (a
// flash-lite model asked for a JSON verdict on the request and a few turns
// before it) judges whether the request is simple or complex, and that
// prompt's whole turn goes to the family's flash or pro model. When the
// classifier cannot say (an error, a reply that is not the verdict), the pro
// model answers. Pure apart from routePrompt's one request; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/model_provider.h"

namespace lathe::engine {

struct AutoModel {
  std::string_view name;         // as settings and the picker name it
  std::string_view displayName;  // for the picker
  std::string_view pro;
  std::string_view flash;
};

// The auto model of that name (auto, auto-gemini-3, auto-gemini-2.5), or null.
const AutoModel* findAutoModel(std::string_view name);
// The model a request to `name` goes to when no prompt routed it (an auto
// model's pro model; any other name as it is).
std::string concreteModel(std::string_view name);

inline constexpr std::string_view kClassifierModel = "gemini-2.5-flash-lite";

// The classifier's request for the prompt that ends `contents` (up to four
// earlier turns without tool calls go along); `storage` holds its contents.
ModelRequest classifierRequest(const std::vector<Content>& contents, std::vector<Content>& storage);
// The verdict in a classifier's reply text: "flash", "pro", or "" when there is none.
std::string verdictOf(std::string_view replyText);

// The model for the prompt that ends `contents`.
std::string routePrompt(ModelProvider& provider, const AutoModel& model, const std::vector<Content>& contents,
                        const CancelToken& cancel);

}  // namespace lathe::engine
