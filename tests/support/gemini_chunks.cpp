// GenerateContentResponse builders for the fake Gemini server. Pure; any thread.
#include "tests/support/gemini_chunks.h"

#include "protocol/base/json.h"

namespace lathe::testing {
namespace {

// {"candidates":[{"content":{"role":"model","parts":[<part>]},"index":0}]}
template <class PartFn>
std::string modelChunk(PartFn&& writePart) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::key(w, "candidates");
    w.StartArray();
    w.StartObject();
    json::key(w, "content");
    w.StartObject();
    json::put(w, "role", "model");
    json::key(w, "parts");
    w.StartArray();
    w.StartObject();
    writePart(w);
    w.EndObject();
    w.EndArray();
    w.EndObject();
    json::put(w, "index", 0);
    w.EndObject();
    w.EndArray();
    w.EndObject();
  });
}

}  // namespace

std::string textChunk(std::string_view text) {
  return modelChunk([&](json::Writer& w) { json::put(w, "text", text); });
}

std::string thoughtChunk(std::string_view text) {
  return modelChunk([&](json::Writer& w) {
    json::put(w, "text", text);
    json::put(w, "thought", true);
  });
}

std::string functionCallChunk(std::string_view name, std::string_view argsJson, std::string_view id) {
  return modelChunk([&](json::Writer& w) {
    json::key(w, "functionCall");
    w.StartObject();
    json::put(w, "name", name);
    json::key(w, "args");
    std::string_view args = argsJson.empty() ? std::string_view("{}") : argsJson;
    w.RawValue(args.data(), args.size(), rapidjson::kObjectType);
    if (!id.empty()) json::put(w, "id", id);
    w.EndObject();
  });
}

std::string finishChunk(std::string_view finishReason, UsageCounts usage) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::key(w, "candidates");
    w.StartArray();
    w.StartObject();
    json::key(w, "content");
    w.StartObject();
    json::put(w, "role", "model");
    json::key(w, "parts");
    w.StartArray();
    w.EndArray();
    w.EndObject();
    json::put(w, "finishReason", finishReason);
    json::put(w, "index", 0);
    w.EndObject();
    w.EndArray();
    json::key(w, "usageMetadata");
    w.StartObject();
    json::put(w, "promptTokenCount", usage.promptTokens);
    json::put(w, "candidatesTokenCount", usage.candidatesTokens);
    if (usage.thoughtsTokens > 0) json::put(w, "thoughtsTokenCount", usage.thoughtsTokens);
    json::put(w, "totalTokenCount", usage.promptTokens + usage.candidatesTokens + usage.thoughtsTokens);
    w.EndObject();
    w.EndObject();
  });
}

}  // namespace lathe::testing
