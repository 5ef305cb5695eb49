// The hook view of model requests and replies.
#include "engine/hooks/llm_payloads.h"

#include "protocol/base/enum_names.h"

namespace lathe::engine {
namespace {

constexpr EnumName<FinishReason> kFinishNames[] = {
    {FinishReason::stop, "STOP"},
    {FinishReason::max_tokens, "MAX_TOKENS"},
    {FinishReason::safety, "SAFETY"},
    {FinishReason::other, "OTHER"},
    {FinishReason::unspecified, "FINISH_REASON_UNSPECIFIED"},
};

bool isText(const Part& part) { return part.text && !part.thought && !part.functionCall; }

std::string textOf(const Content& content) {
  std::string text;
  for (const Part& part : content.parts) {
    if (isText(part)) text += *part.text;
  }
  return text;
}

Role roleOf(const json::Value& message) {
  return json::getStr(message, "role").value_or("user") == "model" ? Role::model : Role::user;
}

std::string contentOf(const json::Value& message) {
  const json::Value* content = json::find(message, "content");
  if (!content) return {};
  return content->IsString() ? std::string(content->GetString(), content->GetStringLength()) : json::stringify(*content);
}

// The content with its text replaced by `text` (first), its other parts after.
Content withText(const Content& base, Role role, std::string text) {
  Content out{role, {Part::makeText(std::move(text))}};
  for (const Part& part : base.parts) {
    if (!isText(part)) out.parts.push_back(part);
  }
  return out;
}

}  // namespace

void writeHookRequest(json::Writer& w, const ModelRequest& request) {
  json::object(w, [&] {
    json::put(w, "model", request.model);
    json::array(w, "messages", [&] {
      if (!request.contents) return;
      for (const Content& content : *request.contents) {
        std::string text = textOf(content);
        if (text.empty()) continue;  // only text is in the view
        json::object(w, [&] {
          json::put(w, "role", content.role == Role::model ? "model" : "user");
          json::put(w, "content", text);
        });
      }
    });
    json::object(w, "config", [&] {
      const GenerationConfig& config = request.config;
      if (config.temperature) {
        json::key(w, "temperature");
        w.Double(*config.temperature);
      }
      if (config.maxOutputTokens) json::put(w, "maxOutputTokens", *config.maxOutputTokens);
      if (config.topP) {
        json::key(w, "topP");
        w.Double(*config.topP);
      }
      if (config.topK) json::put(w, "topK", *config.topK);
    });
  });
}

void writeHookResponse(json::Writer& w, const std::vector<Part>& parts, std::optional<FinishReason> finish,
                       const std::optional<Usage>& usage) {
  std::string text;
  for (const Part& part : parts) {
    if (isText(part)) text += *part.text;
  }
  json::object(w, [&] {
    json::put(w, "text", text);
    json::array(w, "candidates", [&] {
      json::object(w, [&] {
        json::object(w, "content", [&] {
          json::put(w, "role", "model");
          json::array(w, "parts", [&] {
            for (const Part& part : parts) {
              if (isText(part)) json::str(w, *part.text);
            }
          });
        });
        if (finish) json::put(w, "finishReason", nameOf(kFinishNames, *finish));
        json::put(w, "index", 0);
      });
    });
    if (usage) {
      json::object(w, "usageMetadata", [&] {
        json::put(w, "promptTokenCount", usage->promptTokens);
        json::put(w, "candidatesTokenCount", usage->candidatesTokens);
        json::put(w, "totalTokenCount", usage->totalTokens);
      });
    }
  });
}

void applyHookRequest(const json::Value& hookRequest, ModelRequest& request, std::vector<Content>& contents) {
  if (!hookRequest.IsObject()) return;
  if (auto model = json::getStr(hookRequest, "model"); model && !model->empty()) request.model = *model;
  if (const json::Value* config = json::find(hookRequest, "config"); config && config->IsObject()) {
    GenerationConfig& into = request.config;
    auto number = [&](const char* key) -> std::optional<double> {
      const json::Value* v = json::find(*config, key);
      return v && v->IsNumber() ? std::optional<double>(v->GetDouble()) : std::nullopt;
    };
    if (auto v = number("temperature")) into.temperature = *v;
    if (auto v = number("topP")) into.topP = *v;
    if (auto v = number("topK")) into.topK = static_cast<int64_t>(*v);
    if (auto v = number("maxOutputTokens")) into.maxOutputTokens = static_cast<int64_t>(*v);
  }
  const json::Value* messages = json::find(hookRequest, "messages");
  if (!messages || !messages->IsArray() || !request.contents) return;
  std::vector<Content> merged;
  rapidjson::SizeType next = 0;
  for (const Content& content : *request.contents) {
    if (textOf(content).empty() || next >= messages->Size()) {
      merged.push_back(content);  // not in the view (or the hook gave fewer): as it was
      continue;
    }
    const json::Value& message = (*messages)[next++];
    merged.push_back(withText(content, roleOf(message), contentOf(message)));
  }
  for (; next < messages->Size(); ++next) {
    const json::Value& message = (*messages)[next];
    merged.push_back(Content{roleOf(message), {Part::makeText(contentOf(message))}});
  }
  contents = std::move(merged);
  request.contents = &contents;
}

std::optional<std::vector<Part>> hookResponseParts(const json::Value& hookResponse) {
  const json::Value* candidates = json::find(hookResponse, "candidates");
  if (!candidates || !candidates->IsArray() || candidates->Empty()) return std::nullopt;
  const json::Value& first = (*candidates)[0];
  const json::Value* content = first.IsObject() ? json::find(first, "content") : nullptr;
  const json::Value* parts = content && content->IsObject() ? json::find(*content, "parts") : nullptr;
  if (!parts || !parts->IsArray() || parts->Empty()) return std::nullopt;
  std::vector<Part> out;
  for (const auto& part : parts->GetArray()) {
    if (part.IsString()) {
      out.push_back(Part::makeText(std::string(part.GetString(), part.GetStringLength())));
    } else if (part.IsObject()) {
      if (auto text = json::getStr(part, "text")) out.push_back(Part::makeText(*text));
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

FinishReason hookFinishReason(const json::Value& hookResponse) {
  const json::Value* candidates = json::find(hookResponse, "candidates");
  if (!candidates || !candidates->IsArray() || candidates->Empty() || !(*candidates)[0].IsObject()) {
    return FinishReason::stop;
  }
  auto name = json::getStr((*candidates)[0], "finishReason");
  auto reason = name ? valueOf(kFinishNames, *name) : std::nullopt;
  return reason.value_or(FinishReason::stop);
}

}  // namespace lathe::engine
