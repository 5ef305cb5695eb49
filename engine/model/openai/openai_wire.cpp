// OpenAI Chat Completions mapping.
#include "engine/model/openai/openai_wire.h"

#include <algorithm>
#include <atomic>

#include "protocol/base/enum_names.h"

namespace lathe::engine::openai {
namespace {

// What each finish_reason means for the turn (a reason not listed is `other`).
constexpr EnumName<FinishReason> kFinishReasons[] = {
    {FinishReason::stop, "stop"},
    {FinishReason::stop, "tool_calls"},
    {FinishReason::stop, "function_call"},
    {FinishReason::max_tokens, "length"},
    {FinishReason::safety, "content_filter"},
};

FinishReason finishReasonFrom(std::string_view reason) {
  return valueOf(kFinishReasons, reason).value_or(FinishReason::other);
}

// Ids must be unique within a conversation; servers that send none get ours.
std::string syntheticCallId() {
  static std::atomic<uint64_t> next{0};
  return "call_lathe_" + std::to_string(++next);
}

// What a function response says, as the string a tool message carries.
std::string toolMessageText(const json::Raw& response) {
  auto doc = json::parse(response.text);
  if (!doc || !doc->IsObject()) return response.text;
  for (const char* field : {"output", "error"}) {
    if (const json::Value* v = json::find(*doc, field)) {
      std::string text = v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : json::stringify(*v);
      return std::string(field) == "error" ? "Error: " + text : text;
    }
  }
  return response.text;
}

// JSON Schema as most OpenAI-compatible servers accept it: no $schema.
void writeParameters(json::Writer& w, const std::string& schema) {
  auto doc = json::parse(schema);
  if (!doc || !doc->IsObject()) return json::put(w, "parameters", json::Raw{R"({"type":"object"})"});
  doc->RemoveMember("$schema");
  json::put(w, "parameters", json::Raw{json::stringify(*doc)});
}

void writeTools(json::Writer& w, const std::vector<tools::ToolDeclaration>& tools, bool required) {
  json::array(w, "tools", [&] {
    for (const auto& tool : tools) {
      json::object(w, [&] {
        json::put(w, "type", "function");
        json::object(w, "function", [&] {
          json::put(w, "name", tool.name);
          json::put(w, "description", tool.description);
          writeParameters(w, tool.parametersSchema);
        });
      });
    }
  });
  json::put(w, "tool_choice", required ? "required" : "auto");
  json::put(w, "parallel_tool_calls", true);
}

// One element of a user message's content array.
void writeUserPart(json::Writer& w, const Part& p) {
  if (p.text) {
    json::put(w, "type", "text");
    json::put(w, "text", *p.text);
  } else if (p.inlineData->mimeType.rfind("image/", 0) != 0) {
    // Chat Completions takes images as image_url only; sending audio or a
    // document there as one would be refused or misread, so say in text
    // what was left out.
    json::put(w, "type", "text");
    json::put(w, "text",
              "[" + p.inlineData->mimeType + " data of about " + std::to_string(p.inlineData->data.size() / 4 * 3) +
                  " bytes, not sent: this model API takes only images inline]");
  } else {
    json::put(w, "type", "image_url");
    json::object(w, "image_url",
                 [&] { json::put(w, "url", "data:" + p.inlineData->mimeType + ";base64," + p.inlineData->data); });
  }
}

// A user message from text and inline parts: a plain string when it is only
// text; images as image_url, other inline data described in text.
void writeUserMessage(json::Writer& w, const std::vector<const Part*>& parts) {
  bool onlyText = std::all_of(parts.begin(), parts.end(), [](const Part* p) { return p->text.has_value(); });
  json::object(w, [&] {
    json::put(w, "role", "user");
    if (onlyText) {
      std::string text;
      for (const Part* p : parts) text += (text.empty() ? "" : "\n") + *p->text;
      json::put(w, "content", text);
      return;
    }
    json::array(w, "content", [&] {
      for (const Part* p : parts) json::object(w, [&] { writeUserPart(w, *p); });
    });
  });
}

// A user content: tool messages answer the calls first, then the rest.
void writeUserContent(json::Writer& w, const Content& content) {
  std::vector<const Part*> rest;
  for (const Part& part : content.parts) {
    if (part.functionResponse) {
      json::object(w, [&] {
        json::put(w, "role", "tool");
        json::put(w, "tool_call_id", part.functionResponse->id);
        json::put(w, "content", toolMessageText(part.functionResponse->response));
      });
    } else if (part.text || part.inlineData) {
      rest.push_back(&part);
    }
  }
  if (!rest.empty()) writeUserMessage(w, rest);
}

void writeModelContent(json::Writer& w, const Content& content) {
  std::string text;
  std::vector<const FunctionCall*> calls;
  for (const Part& part : content.parts) {
    if (part.functionCall) calls.push_back(&*part.functionCall);
    else if (part.text && !part.thought) text += *part.text;
  }
  json::object(w, [&] {
    json::put(w, "role", "assistant");
    json::key(w, "content");
    if (text.empty() && !calls.empty()) {
      w.Null();
    } else {
      json::str(w, text);
    }
    if (calls.empty()) return;
    json::array(w, "tool_calls", [&] {
      for (const FunctionCall* call : calls) {
        json::object(w, [&] {
          json::put(w, "id", call->id);
          json::put(w, "type", "function");
          json::object(w, "function", [&] {
            json::put(w, "name", call->name);
            json::put(w, "arguments", call->args.empty() ? std::string("{}") : call->args.text);
          });
        });
      }
    });
  });
}

std::optional<Usage> readUsage(const json::Value& root) {
  const json::Value* usage = json::find(root, "usage");
  if (!usage || !usage->IsObject()) return std::nullopt;
  Usage u;
  u.promptTokens = json::getInt(*usage, "prompt_tokens").value_or(0);
  u.candidatesTokens = json::getInt(*usage, "completion_tokens").value_or(0);
  u.totalTokens = json::getInt(*usage, "total_tokens").value_or(u.promptTokens + u.candidatesTokens);
  // Reasoning is part of the completion here; Usage keeps it apart, as Gemini reports it.
  if (const json::Value* details = json::find(*usage, "completion_tokens_details"); details && details->IsObject()) {
    u.thoughtsTokens = std::clamp<int64_t>(json::getInt(*details, "reasoning_tokens").value_or(0), 0, u.candidatesTokens);
    u.candidatesTokens -= u.thoughtsTokens;
  }
  if (const json::Value* details = json::find(*usage, "prompt_tokens_details"); details && details->IsObject()) {
    u.cachedTokens = json::getInt(*details, "cached_tokens").value_or(0);
  }
  return u;
}

const json::Value* firstChoice(const json::Value& root) {
  const json::Value* choices = json::find(root, "choices");
  if (!choices || !choices->IsArray() || choices->Empty()) return nullptr;
  return &(*choices)[0];
}

std::optional<std::string> apiErrorMessage(const json::Value& root) {
  const json::Value* error = json::find(root, "error");
  if (!error) return std::nullopt;
  if (error->IsString()) return std::string(error->GetString(), error->GetStringLength());
  if (!error->IsObject()) return "unknown error";
  std::string message = json::getStr(*error, "message").value_or("unknown error");
  std::string code = json::getStr(*error, "code").value_or(json::getStr(*error, "type").value_or(""));
  return code.empty() ? message : "(" + code + ") " + message;
}

Part textPart(std::string text, bool thought) {
  Part part = Part::makeText(std::move(text));
  part.thought = thought;
  return part;
}

}  // namespace

std::string buildRequestBody(const ModelRequest& request, RequestOptions options) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "model", request.model);
    json::put(w, "stream", options.stream);
    if (options.stream) json::put(w, "stream_options", json::Raw{R"({"include_usage":true})"});
    json::array(w, "messages", [&] {
      if (!request.systemInstruction.empty()) {
        json::object(w, [&] {
          json::put(w, "role", "system");
          json::put(w, "content", request.systemInstruction);
        });
      }
      if (!request.contents) return;
      for (const Content& content : *request.contents) {
        if (content.role == Role::user) writeUserContent(w, content);
        else writeModelContent(w, content);
      }
    });
    if (request.tools && !request.tools->empty()) writeTools(w, *request.tools, request.requireToolCall);
    const GenerationConfig& config = request.config;
    if (config.temperature) {
      json::key(w, "temperature");
      w.Double(*config.temperature);
    }
    if (config.topP) {
      json::key(w, "top_p");
      w.Double(*config.topP);
    }
    if (config.maxOutputTokens) json::put(w, "max_tokens", *config.maxOutputTokens);
    if (config.reasoningEffort) json::put(w, "reasoning_effort", *config.reasoningEffort);
  });
}

void StreamAssembler::addToolCallDelta(const json::Value& delta) {
  int64_t index = json::getInt(delta, "index").value_or(0);
  std::string id = json::getStr(delta, "id").value_or("");
  PendingCall* call = nullptr;
  for (auto it = calls_.rbegin(); it != calls_.rend(); ++it) {
    if (it->index == index) {
      call = &*it;
      break;
    }
  }
  if (!call || (!id.empty() && !call->id.empty() && call->id != id)) {
    calls_.push_back(PendingCall{index, id, {}, {}});
    call = &calls_.back();
  }
  if (call->id.empty()) call->id = id;
  if (const json::Value* fn = json::find(delta, "function"); fn && fn->IsObject()) {
    if (auto name = json::getStr(*fn, "name")) call->name += *name;
    if (const json::Value* args = json::find(*fn, "arguments")) {
      // Strings in pieces; some servers send the whole object instead.
      call->arguments += args->IsString() ? std::string(args->GetString(), args->GetStringLength()) : json::stringify(*args);
    }
  }
}

Result<ModelChunk> StreamAssembler::feed(std::string_view data) {
  ModelChunk shown;
  std::string_view trimmed = data;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n')) trimmed.remove_suffix(1);
  if (trimmed == "[DONE]") {
    done_ = true;
    return shown;
  }
  auto doc = json::parse(data);
  if (!doc) return makeError(Errc::model, "The OpenAI-compatible API sent a chunk that is not JSON: " + doc.error().message);
  if (auto error = apiErrorMessage(*doc)) return makeError(Errc::model, "OpenAI-compatible API error " + *error);
  if (auto usage = readUsage(*doc)) usage_ = usage;
  const json::Value* choice = firstChoice(*doc);
  if (!choice) return shown;  // the usage chunk has no choices
  if (auto reason = json::getStr(*choice, "finish_reason")) finishReason_ = finishReasonFrom(*reason);
  const json::Value* delta = json::find(*choice, "delta");
  if (!delta || !delta->IsObject()) return shown;
  for (const char* field : {"reasoning_content", "reasoning"}) {
    if (auto text = json::getStr(*delta, field); text && !text->empty()) shown.parts.push_back(textPart(*text, true));
  }
  if (auto text = json::getStr(*delta, "content"); text && !text->empty()) shown.parts.push_back(textPart(*text, false));
  if (const json::Value* calls = json::find(*delta, "tool_calls"); calls && calls->IsArray()) {
    for (const json::Value& call : calls->GetArray()) {
      if (call.IsObject()) addToolCallDelta(call);
    }
  }
  return shown;
}

ModelChunk StreamAssembler::finish() {
  ModelChunk last;
  for (PendingCall& call : calls_) {
    Part part;
    std::string args = call.arguments.empty() ? "{}" : std::move(call.arguments);
    part.functionCall = FunctionCall{call.id.empty() ? syntheticCallId() : call.id, call.name, json::Raw{std::move(args)}};
    last.parts.push_back(std::move(part));
  }
  calls_.clear();
  // Any tool call makes a tool turn, whatever finish_reason said.
  last.finishReason = finishReason_.value_or(FinishReason::stop);
  last.usage = usage_;
  return last;
}

Result<ModelReply> parseCompletion(std::string_view body) {
  auto doc = json::parse(body);
  if (!doc) return makeError(Errc::model, "The OpenAI-compatible API sent a reply that is not JSON: " + doc.error().message);
  if (auto error = apiErrorMessage(*doc)) return makeError(Errc::model, "OpenAI-compatible API error " + *error);
  const json::Value* choice = firstChoice(*doc);
  const json::Value* message = choice ? json::find(*choice, "message") : nullptr;
  if (!message || !message->IsObject()) return makeError(Errc::model, "The OpenAI-compatible API sent a reply without a message.");
  // The whole message is one delta with everything in it.
  StreamAssembler assembler;
  std::string asChunk = json::buildObject([&](json::Writer& w) {
    json::array(w, "choices", [&] {
      json::object(w, [&] {
        json::key(w, "delta");
        message->Accept(w);
        if (auto reason = json::getStr(*choice, "finish_reason")) json::put(w, "finish_reason", *reason);
      });
    });
    if (const json::Value* usage = json::find(*doc, "usage")) {
      json::key(w, "usage");
      usage->Accept(w);
    }
  });
  auto shown = assembler.feed(asChunk);
  if (!shown) return shown.error();
  ReplyAccumulator reply;
  reply.add(*shown);
  reply.add(assembler.finish());
  return reply.take();
}

std::string describeHttpError(int status, std::string_view body) {
  std::string out = "OpenAI-compatible API error " + std::to_string(status);
  auto doc = json::parse(body);
  if (doc) {
    if (auto error = apiErrorMessage(*doc)) return out + " " + *error;
  }
  std::string text(body.substr(0, 300));
  return text.empty() ? out : out + ": " + text;
}

}  // namespace lathe::engine::openai
