// Code Assist requests around the Gemini wire (gemini_wire.h).
#include "engine/model/code_assist/code_assist_wire.h"

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/base/json.h"

namespace lathe::engine::code_assist {
namespace {

std::string bareModel(std::string_view model) {
  if (model.starts_with("models/")) model.remove_prefix(7);
  return std::string(model);
}

void writeMetadata(json::Writer& w, const std::string& project) {
  json::object(w, "metadata", [&] {
    json::put(w, "ideType", "IDE_UNSPECIFIED");
    json::put(w, "platform", "PLATFORM_UNSPECIFIED");
    json::put(w, "pluginType", "GEMINI");
    if (!project.empty()) json::put(w, "duetProject", project);
  });
}

Tier readTier(const json::Value& v) {
  return {json::getStr(v, "id").value_or(""), json::getStr(v, "name").value_or(""),
          json::find(v, "isDefault") && json::find(v, "isDefault")->IsTrue()};
}

Result<json::Document> parseObject(std::string_view body, const char* what) {
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return makeError(Errc::model, std::string("The Code Assist API's answer to ") + what + " is not a JSON object");
  return std::move(doc).value();
}

}  // namespace

std::string buildGenerateRequest(const ModelRequest& request, const RequestIds& ids) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "model", bareModel(request.model));
    if (!ids.project.empty()) json::put(w, "project", ids.project);
    json::put(w, "user_prompt_id", ids.userPromptId);
    json::object(w, "request", [&] {
      gemini::writeRequestMembers(w, request);
      json::put(w, "session_id", ids.sessionId);
    });
  });
}

std::string buildCountTokensRequest(const ModelRequest& request) {
  return json::buildObject([&](json::Writer& w) {
    json::object(w, "request", [&] {
      json::put(w, "model", "models/" + bareModel(request.model));
      gemini::writeContentsMember(w, request.contents);
    });
  });
}

Result<ModelChunk> parseResponse(std::string_view body) {
  auto doc = json::parse(body);
  if (!doc) return makeError(Errc::model, "The Code Assist API sent a reply that is not valid JSON: " + doc.error().message);
  const json::Value* inner = doc->IsObject() ? json::find(*doc, "response") : nullptr;
  if (!inner) return gemini::readResponseChunk(*doc, std::string(body));  // an error, or a reply without candidates
  return gemini::readResponseChunk(*inner, json::stringify(*inner));
}

std::string buildLoadRequest(const std::string& project) {
  return json::buildObject([&](json::Writer& w) {
    if (!project.empty()) json::put(w, "cloudaicompanionProject", project);
    writeMetadata(w, project);
  });
}

std::string buildOnboardRequest(const std::string& tierId, const std::string& project) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "tierId", tierId);
    // The free tier's project is Google's own: naming one is refused.
    const std::string named = tierId == "free-tier" ? std::string() : project;
    if (!named.empty()) json::put(w, "cloudaicompanionProject", named);
    writeMetadata(w, named);
  });
}

Result<LoadResponse> parseLoadResponse(std::string_view body) {
  auto doc = parseObject(body, "loadCodeAssist");
  if (!doc) return doc.error();
  LoadResponse out;
  if (const json::Value* tier = json::find(*doc, "currentTier"); tier && tier->IsObject()) out.currentTier = readTier(*tier);
  if (const json::Value* tier = json::find(*doc, "paidTier"); tier && tier->IsObject()) out.paidTier = readTier(*tier);
  if (const json::Value* tiers = json::find(*doc, "allowedTiers"); tiers && tiers->IsArray()) {
    for (const auto& tier : tiers->GetArray()) {
      if (tier.IsObject()) out.allowedTiers.push_back(readTier(tier));
    }
  }
  if (const json::Value* tiers = json::find(*doc, "ineligibleTiers"); tiers && tiers->IsArray()) {
    for (const auto& tier : tiers->GetArray()) {
      if (!tier.IsObject()) continue;
      out.ineligibleTiers.push_back({json::getStr(tier, "reasonCode").value_or(""),
                                     json::getStr(tier, "reasonMessage").value_or(""),
                                     json::getStr(tier, "validationUrl").value_or("")});
    }
  }
  out.project = json::getStr(*doc, "cloudaicompanionProject").value_or("");
  return out;
}

Result<Operation> parseOperation(std::string_view body) {
  auto doc = parseObject(body, "onboardUser");
  if (!doc) return doc.error();
  Operation out;
  out.name = json::getStr(*doc, "name").value_or("");
  out.done = json::find(*doc, "done") && json::find(*doc, "done")->IsTrue();
  if (const json::Value* response = json::find(*doc, "response"); response && response->IsObject()) {
    if (const json::Value* project = json::find(*response, "cloudaicompanionProject"); project && project->IsObject()) {
      out.project = json::getStr(*project, "id").value_or("");
    }
  }
  return out;
}

}  // namespace lathe::engine::code_assist
