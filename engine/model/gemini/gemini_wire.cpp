// Mapping between the history model and Gemini's JSON: requests written with a
// RapidJSON writer, responses read leniently (unknown fields and shapes are
// skipped). Pure functions; any thread.
#include "engine/model/gemini/gemini_wire.h"

#include <algorithm>
#include <cstdlib>

#include "protocol/base/enum_names.h"
#include "protocol/base/json.h"
#include "protocol/base/text.h"

namespace lathe::engine::gemini {
namespace {

// Splices a JSON object, or writes {} when absent.
void objectOrEmpty(json::Writer& w, const json::Raw& raw) {
  if (raw.empty()) {
    json::object(w, [] {});
  } else {
    json::raw(w, raw);
  }
}

bool hasPayload(const Part& part) {
  return part.text || part.functionCall || part.functionResponse || part.inlineData;
}

void writePart(json::Writer& w, const Part& part) {
  json::object(w, [&] {
    if (part.text) json::put(w, "text", *part.text);
    if (part.thought) json::put(w, "thought", true);
    if (part.functionCall) {
      const FunctionCall& call = *part.functionCall;
      json::object(w, "functionCall", [&] {
        if (!call.id.empty()) json::put(w, "id", call.id);
        json::put(w, "name", call.name);
        json::key(w, "args");
        objectOrEmpty(w, call.args);
      });
    }
    if (part.functionResponse) {
      const FunctionResponse& response = *part.functionResponse;
      json::object(w, "functionResponse", [&] {
        if (!response.id.empty()) json::put(w, "id", response.id);
        json::put(w, "name", response.name);
        json::key(w, "response");
        objectOrEmpty(w, response.response);
      });
    }
    if (part.inlineData) {
      json::object(w, "inlineData", [&] {
        json::put(w, "mimeType", part.inlineData->mimeType);
        json::put(w, "data", part.inlineData->data);
      });
    }
    if (!part.thoughtSignature.empty()) json::put(w, "thoughtSignature", part.thoughtSignature);
  });
}

// Writes the parts that carry something; returns how many.
size_t writeParts(json::Writer& w, const std::vector<Part>& parts) {
  size_t written = 0;
  json::array(w, [&] {
    for (const Part& part : parts) {
      if (!hasPayload(part)) continue;
      writePart(w, part);
      ++written;
    }
  });
  return written;
}

// Gemini spells finish and block reasons in capitals; the engine needs only
// what each means for the turn (a reason not listed is `other`).
constexpr EnumName<FinishReason> kFinishReasons[] = {
    {FinishReason::unspecified, "FINISH_REASON_UNSPECIFIED"},
    {FinishReason::unspecified, ""},
    {FinishReason::stop, "STOP"},
    {FinishReason::max_tokens, "MAX_TOKENS"},
    {FinishReason::safety, "SAFETY"},
    {FinishReason::safety, "RECITATION"},
    {FinishReason::safety, "BLOCKLIST"},
    {FinishReason::safety, "PROHIBITED_CONTENT"},
    {FinishReason::safety, "SPII"},
    {FinishReason::safety, "IMAGE_SAFETY"},
    {FinishReason::other, "OTHER"},
};

FinishReason finishReasonFrom(std::string_view reason) {
  return valueOf(kFinishReasons, reason).value_or(FinishReason::other);
}

const char* geminiSpelling(FinishReason reason) { return nameOf(kFinishReasons, reason); }

void writeDeclarations(json::Writer& w, const std::vector<tools::ToolDeclaration>& declarations) {
  json::array(w, [&] {
    for (const auto& d : declarations) {
      json::object(w, [&] {
        json::put(w, "name", d.name);
        json::put(w, "description", d.description);
        json::put(w, "parametersJsonSchema", json::Raw{d.parametersSchema});
      });
    }
  });
}

std::string stringOf(const json::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

std::optional<Part> readPart(const json::Value& v) {
  if (!v.IsObject()) return std::nullopt;
  Part part;
  if (auto text = json::getStr(v, "text")) part.text = std::move(*text);
  if (auto thought = json::getBool(v, "thought")) part.thought = *thought;
  if (auto signature = json::getStr(v, "thoughtSignature")) part.thoughtSignature = std::move(*signature);
  if (const json::Value* call = json::find(v, "functionCall"); call && call->IsObject()) {
    FunctionCall fc;
    fc.name = json::getStr(*call, "name").value_or("");
    fc.id = json::getStr(*call, "id").value_or("");
    const json::Value* args = json::find(*call, "args");
    fc.args.text = args && !args->IsNull() ? json::stringify(*args) : "{}";
    part.functionCall = std::move(fc);
  }
  if (const json::Value* resp = json::find(v, "functionResponse"); resp && resp->IsObject()) {
    FunctionResponse fr;
    fr.name = json::getStr(*resp, "name").value_or("");
    fr.id = json::getStr(*resp, "id").value_or("");
    const json::Value* body = json::find(*resp, "response");
    fr.response.text = body && !body->IsNull() ? json::stringify(*body) : "{}";
    part.functionResponse = std::move(fr);
  }
  if (const json::Value* data = json::find(v, "inlineData"); data && data->IsObject()) {
    part.inlineData = InlineData{json::getStr(*data, "mimeType").value_or(""), json::getStr(*data, "data").value_or("")};
  }
  if (!hasPayload(part)) {
    // A signature may arrive on a part of its own; keep it as empty text so
    // it goes back to the API in a part the API accepts.
    if (part.thoughtSignature.empty()) return std::nullopt;
    part.text = std::string();
  }
  return part;
}

std::optional<std::chrono::milliseconds> parseDuration(std::string_view text) {
  // google.protobuf.Duration in JSON: "34s", "0.5s".
  if (!text.ends_with('s')) return std::nullopt;
  std::string number(text.substr(0, text.size() - 1));
  char* end = nullptr;
  double seconds = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !(seconds >= 0) || seconds > 1e9) return std::nullopt;
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000.0 + 0.5));
}

ApiError readApiError(const json::Value& error) {
  ApiError out;
  if (error.IsString()) {
    out.message = stringOf(error);
    return out;
  }
  out.code = static_cast<int>(json::getInt(error, "code").value_or(0));
  out.status = json::getStr(error, "status").value_or("");
  out.message = std::string(text::trim(json::getStr(error, "message").value_or("")));
  if (const json::Value* details = json::find(error, "details"); details && details->IsArray()) {
    for (const json::Value& detail : details->GetArray()) {
      std::string type = json::getStr(detail, "@type").value_or("");
      if (type.ends_with("google.rpc.ErrorInfo") && out.reason.empty()) {
        out.reason = json::getStr(detail, "reason").value_or("");
      } else if (type.ends_with("google.rpc.RetryInfo")) {
        if (auto delay = json::getStr(detail, "retryDelay")) out.retryDelay = parseDuration(*delay);
      }
    }
  }
  return out;
}

const json::Value* errorMember(const json::Value& root) {
  const json::Value* object = &root;
  if (root.IsArray()) {
    if (root.Empty()) return nullptr;
    object = &root[0];
  }
  const json::Value* error = json::find(*object, "error");
  if (!error || !(error->IsObject() || error->IsString())) return nullptr;
  return error;
}

}  // namespace

void writeContentsMember(json::Writer& w, const std::vector<Content>* contents) {
  json::array(w, "contents", [&] {
    if (!contents) return;
    for (const Content& content : *contents) {
      bool any = false;
      for (const Part& part : content.parts) any = any || hasPayload(part);
      if (!any) continue;
      json::object(w, [&] {
        json::put(w, "role", content.role == Role::model ? "model" : "user");
        json::key(w, "parts");
        writeParts(w, content.parts);
      });
    }
  });
}

namespace {

// groundingMetadata: the web sources (groundingChunks[].web) and which byte
// ranges of the text rest on which of them (groundingSupports[]).
tools::Grounding readGrounding(const json::Value& metadata) {
  tools::Grounding out;
  if (const json::Value* chunks = json::find(metadata, "groundingChunks"); chunks && chunks->IsArray()) {
    for (const json::Value& chunk : chunks->GetArray()) {
      tools::GroundingSource source;
      if (const json::Value* web = chunk.IsObject() ? json::find(chunk, "web") : nullptr; web && web->IsObject()) {
        source.title = json::getStr(*web, "title").value_or("");
        source.uri = json::getStr(*web, "uri").value_or("");
      }
      out.sources.push_back(std::move(source));
    }
  }
  if (const json::Value* supports = json::find(metadata, "groundingSupports"); supports && supports->IsArray()) {
    for (const json::Value& support : supports->GetArray()) {
      if (!support.IsObject()) continue;
      const json::Value* segment = json::find(support, "segment");
      const json::Value* indices = json::find(support, "groundingChunkIndices");
      if (!segment || !segment->IsObject() || !indices || !indices->IsArray()) continue;
      auto end = json::getInt(*segment, "endIndex");
      if (!end || *end < 0) continue;
      tools::GroundingSupport entry;
      entry.endByte = static_cast<size_t>(*end);
      for (const json::Value& index : indices->GetArray()) {
        if (index.IsInt() && index.GetInt() >= 0) entry.sourceIndices.push_back(index.GetInt());
      }
      out.supports.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

std::string buildCountTokensBody(const ModelRequest& request) {
  return json::buildObject([&](json::Writer& w) { writeContentsMember(w, request.contents); });
}

Result<int64_t> parseCountTokens(std::string_view body) {
  auto doc = json::parse(body);
  if (!doc) return makeError(Errc::model, "The Gemini API's token count is not JSON: " + doc.error().message);
  const json::Value* total = doc->IsObject() ? json::find(*doc, "totalTokens") : nullptr;
  if (!total || !total->IsInt64() || total->GetInt64() < 0) {
    return makeError(Errc::model, "The Gemini API's token count has no totalTokens number.");
  }
  return total->GetInt64();
}

std::string buildRequestBody(const ModelRequest& request) {
  return json::buildObject([&](json::Writer& w) { writeRequestMembers(w, request); });
}

void writeRequestMembers(json::Writer& w, const ModelRequest& request) {
  writeContentsMember(w, request.contents);

  if (!request.systemInstruction.empty()) {
    json::object(w, "systemInstruction", [&] {
      json::array(w, "parts", [&] { json::object(w, [&] { json::put(w, "text", request.systemInstruction); }); });
    });
  }

  bool declarations = request.tools && !request.tools->empty();
  if (declarations || request.webSearch) {
    json::array(w, "tools", [&] {
      if (declarations) {
        json::object(w, [&] {
          json::key(w, "functionDeclarations");
          writeDeclarations(w, *request.tools);
        });
      }
      if (request.webSearch) json::object(w, [&] { json::object(w, "googleSearch", [] {}); });
    });
  }
  if (declarations && request.requireToolCall) {
    json::object(w, "toolConfig", [&] { json::object(w, "functionCallingConfig", [&] { json::put(w, "mode", "ANY"); }); });
  }

  const GenerationConfig& config = request.config;
  const bool thinking = config.includeThoughts || config.thinkingBudget || config.thinkingLevel;
  if (config.temperature || config.topP || config.topK || config.maxOutputTokens || config.responseJsonSchema || thinking) {
    json::object(w, "generationConfig", [&] {
      if (config.temperature) {
        json::key(w, "temperature");
        w.Double(*config.temperature);
      }
      if (config.topP) {
        json::key(w, "topP");
        w.Double(*config.topP);
      }
      if (config.topK) json::put(w, "topK", *config.topK);
      if (config.maxOutputTokens) json::put(w, "maxOutputTokens", *config.maxOutputTokens);
      if (config.responseJsonSchema) {
        json::put(w, "responseMimeType", "application/json");
        json::key(w, "responseJsonSchema");
        w.bulkValue(*config.responseJsonSchema, rapidjson::kObjectType);
      }
      if (thinking) {
        json::object(w, "thinkingConfig", [&] {
          if (config.includeThoughts) json::put(w, "includeThoughts", true);
          if (config.thinkingBudget) json::put(w, "thinkingBudget", *config.thinkingBudget);
          if (config.thinkingLevel) json::put(w, "thinkingLevel", *config.thinkingLevel);
        });
      }
    });
  }
}

Result<ModelChunk> parseResponseChunk(std::string_view text) {
  auto doc = json::parse(text);
  if (!doc) return makeError(Errc::model, "The Gemini API sent a reply that is not valid JSON: " + doc.error().message);
  return readResponseChunk(*doc, std::string(text));
}

Result<ModelChunk> readResponseChunk(const json::Value& root, std::string raw) {
  if (const json::Value* error = errorMember(root)) return makeError(Errc::model, describeApiError(readApiError(*error)));
  if (!root.IsObject()) return makeError(Errc::model, "The Gemini API sent a reply that is not a JSON object");

  ModelChunk chunk;
  chunk.rawJson = std::move(raw);
  const json::Value* candidates = json::find(root, "candidates");
  if (candidates && candidates->IsArray() && !candidates->Empty()) {
    const json::Value& candidate = (*candidates)[0];
    if (const json::Value* content = json::find(candidate, "content")) {
      if (const json::Value* parts = json::find(*content, "parts"); parts && parts->IsArray()) {
        for (const json::Value& v : parts->GetArray()) {
          if (auto part = readPart(v)) chunk.parts.push_back(std::move(*part));
        }
      }
    }
    if (auto reason = json::getStr(candidate, "finishReason")) chunk.finishReason = finishReasonFrom(*reason);
    if (const json::Value* grounding = json::find(candidate, "groundingMetadata"); grounding && grounding->IsObject()) {
      chunk.grounding = readGrounding(*grounding);
    }
  }
  if (!chunk.finishReason) {
    if (const json::Value* feedback = json::find(root, "promptFeedback")) {
      // A blocked prompt: every block reason is a refusal.
      if (json::getStr(*feedback, "blockReason")) chunk.finishReason = FinishReason::safety;
    }
  }
  if (const json::Value* usage = json::find(root, "usageMetadata"); usage && usage->IsObject()) {
    Usage u;
    u.promptTokens = json::getInt(*usage, "promptTokenCount").value_or(0);
    u.candidatesTokens = json::getInt(*usage, "candidatesTokenCount").value_or(0);
    u.thoughtsTokens = json::getInt(*usage, "thoughtsTokenCount").value_or(0);
    u.cachedTokens = json::getInt(*usage, "cachedContentTokenCount").value_or(0);
    u.totalTokens = json::getInt(*usage, "totalTokenCount").value_or(0);
    chunk.usage = u;
  }
  return chunk;
}

std::string buildResponseChunk(const ModelChunk& chunk) {
  return json::buildObject([&](json::Writer& w) {
    if (!chunk.parts.empty() || chunk.finishReason) {
      json::array(w, "candidates", [&] {
        json::object(w, [&] {
          json::object(w, "content", [&] {
            json::put(w, "role", "model");
            json::key(w, "parts");
            writeParts(w, chunk.parts);
          });
          if (chunk.finishReason) json::put(w, "finishReason", geminiSpelling(*chunk.finishReason));
          json::put(w, "index", 0);
        });
      });
    }
    if (chunk.usage) {
      json::object(w, "usageMetadata", [&] {
        json::put(w, "promptTokenCount", chunk.usage->promptTokens);
        json::put(w, "candidatesTokenCount", chunk.usage->candidatesTokens);
        if (chunk.usage->thoughtsTokens) json::put(w, "thoughtsTokenCount", chunk.usage->thoughtsTokens);
        if (chunk.usage->cachedTokens) json::put(w, "cachedContentTokenCount", chunk.usage->cachedTokens);
        json::put(w, "totalTokenCount", chunk.usage->totalTokens);
      });
    }
  });
}

std::optional<ApiError> parseApiError(std::string_view body) {
  auto doc = json::parse(body);
  if (!doc) return std::nullopt;
  const json::Value* error = errorMember(*doc);
  if (!error) return std::nullopt;
  return readApiError(*error);
}

std::string describeApiError(const ApiError& error) {
  std::string out = "Gemini API error";
  if (error.code != 0) out.append(" ").append(std::to_string(error.code));
  if (!error.status.empty()) out.append(" (").append(error.status).append(")");
  if (!error.message.empty()) out.append(": ").append(error.message);
  return out;
}

std::string describeHttpError(int httpStatus, std::string_view body) {
  if (auto error = parseApiError(body)) {
    if (error->code == 0) error->code = httpStatus;
    return describeApiError(*error);
  }
  std::string out = "Gemini API error " + std::to_string(httpStatus);
  std::string_view text = text::trim(body);
  if (text.empty()) return out + " (the reply had no details)";
  size_t cut = std::min<size_t>(text.size(), 300);
  while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8
  std::string shown;
  for (char c : text.substr(0, cut)) shown += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (cut < text.size()) shown += "...";
  return out + ": " + shown;
}

}  // namespace lathe::engine::gemini
