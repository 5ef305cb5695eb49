// Gemini CLI's stable hook view of model requests and replies (its
// hookTranslator): a request is {model, messages: [{role, content}],
// config: {temperature, maxOutputTokens, topP, topK}} with only the text of
// each content (calls, responses and data are left out of the view and kept
// in the request); a reply or chunk is {text, candidates: [{content: {role,
// parts: [text...]}, finishReason, index}], usageMetadata}. And back: a
// hook's request changes the texts in place (contents without text, and the
// other parts, stay as they were; messages beyond the contents are added),
// the model and the generation settings it names; a hook's reply is text.
// Pure; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/model/model_provider.h"
#include "protocol/base/json.h"

namespace lathe::engine {

// Writes the request as hooks see it (the value of llm_request).
void writeHookRequest(json::Writer& w, const ModelRequest& request);
// Writes a reply or chunk as hooks see it (the value of llm_response).
void writeHookResponse(json::Writer& w, const std::vector<Part>& parts, std::optional<FinishReason> finish,
                       const std::optional<Usage>& usage);

// Applies a hook's llm_request to the request about to be sent; revised
// contents go to `contents`, which the request then points at.
void applyHookRequest(const json::Value& hookRequest, ModelRequest& request, std::vector<Content>& contents);

// The text parts of a hook's llm_response (its first candidate); nullopt
// when it gives none.
std::optional<std::vector<Part>> hookResponseParts(const json::Value& hookResponse);
FinishReason hookFinishReason(const json::Value& hookResponse);

}  // namespace lathe::engine
