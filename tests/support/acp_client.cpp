// The ACP test client. The reader thread decodes frames from the agent's
// stdout, records them, and answers agent requests; test threads send
// requests and wait on the condition variable for responses.
#include "tests/support/acp_client.h"

#include <fstream>
#include <sstream>

namespace lathe::testing {
namespace {

constexpr auto kReadSlice = std::chrono::milliseconds(100);

std::optional<std::string> readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Lines [line, line + limit) of text, 1-based, as fs/read_text_file specifies.
std::string sliceLines(const std::string& text, std::optional<int64_t> line, std::optional<int64_t> limit) {
  if (!line && !limit) return text;
  int64_t first = std::max<int64_t>(1, line.value_or(1));
  size_t begin = 0;
  for (int64_t n = 1; n < first && begin < text.size(); ++n) {
    size_t nl = text.find('\n', begin);
    begin = nl == std::string::npos ? text.size() : nl + 1;
  }
  if (!limit) return text.substr(begin);
  size_t end = begin;
  for (int64_t n = 0; n < *limit && end < text.size(); ++n) {
    size_t nl = text.find('\n', end);
    end = nl == std::string::npos ? text.size() : nl + 1;
  }
  return text.substr(begin, end - begin);
}

std::string methodOf(const json::Value& message) { return json::getStr(message, "method").value_or(""); }

const json::Value* paramsOf(const json::Value& message) {
  const json::Value* params = json::find(message, "params");
  return params && params->IsObject() ? params : nullptr;
}

}  // namespace

AcpTestClient::AcpTestClient(Subprocess& agent, AcpClientOptions options)
    : agent_(agent), options_(std::move(options)) {
  reader_ = std::thread([this] { readerLoop(); });
}

AcpTestClient::~AcpTestClient() {
  stopping_ = true;
  if (reader_.joinable()) reader_.join();
}

std::chrono::milliseconds AcpTestClient::orDefault(std::optional<std::chrono::milliseconds> timeout) const {
  return timeout.value_or(options_.timeout);
}

void AcpTestClient::readerLoop() {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  while (!stopping_) {
    auto bytes = agent_.readSome(kReadSlice);
    if (bytes) {
      decoder.feed(*bytes, frames);
    } else if (agent_.stdoutEnded()) {
      decoder.finish(frames);
    }
    for (auto& frame : frames) {
      if (frame.error) {
        std::lock_guard lock(mutex_);
        unparsed_.push_back("<" + *frame.error + ">");
      } else {
        dispatch(std::move(frame.body));
      }
    }
    frames.clear();
    if (!bytes && agent_.stdoutEnded()) break;
  }
  std::lock_guard lock(mutex_);
  closed_ = true;
  received_.notify_all();
}

void AcpTestClient::dispatch(std::string text) {
  auto parsed = json::parseShared(text);
  if (!parsed || !(*parsed)->IsObject()) {
    std::lock_guard lock(mutex_);
    unparsed_.push_back(std::move(text));
    received_.notify_all();
    return;
  }
  Message message = std::move(parsed).value();
  bool isRequest = json::find(*message, "method") && json::find(*message, "id");
  {
    std::lock_guard lock(mutex_);
    transcript_.emplace_back("agent", text);
    messages_.push_back(message);
    if (!json::find(*message, "method")) {
      if (auto id = json::getInt(*message, "id")) responseIndex_[*id] = messages_.size() - 1;
    }
  }
  received_.notify_all();
  if (isRequest) answerRequest(*message);
}

void AcpTestClient::answerRequest(const json::Value& message) {
  std::string method = methodOf(message);
  RequestHandler handler;
  {
    std::lock_guard lock(mutex_);
    if (auto it = handlers_.find(method); it != handlers_.end()) handler = it->second;
  }
  HandlerReply reply;
  if (handler) {
    reply = handler(method, message);
  } else if (method == "session/request_permission") {
    reply = defaultPermission(message);
  } else if (method == "fs/read_text_file") {
    reply = defaultRead(message);
  } else if (method == "fs/write_text_file") {
    reply = defaultWrite(message);
  } else {
    reply = HandlerReply::error(-32601, "Method not found: " + method);
  }
  const json::Value* id = json::find(message, "id");
  if (reply.kind == HandlerReply::Kind::result) respond(*id, reply.resultJson);
  if (reply.kind == HandlerReply::Kind::error) respondError(*id, reply.errorCode, reply.errorMessage);
}

HandlerReply AcpTestClient::defaultPermission(const json::Value& request) {
  std::string kind;
  {
    std::lock_guard lock(mutex_);
    kind = options_.permissionKind;
  }
  const json::Value* params = paramsOf(request);
  const json::Value* options = params ? json::find(*params, "options") : nullptr;
  if (kind != "cancel" && options && options->IsArray()) {
    for (const auto& option : options->GetArray()) {
      std::string optionId = json::getStr(option, "optionId").value_or("");
      if (json::getStr(option, "kind").value_or("") != kind && optionId != kind) continue;
      return HandlerReply::result(json::build([&](json::Writer& w) {
        w.StartObject();
        json::key(w, "outcome");
        w.StartObject();
        json::put(w, "outcome", "selected");
        json::put(w, "optionId", optionId);
        w.EndObject();
        w.EndObject();
      }));
    }
  }
  return HandlerReply::result(R"({"outcome":{"outcome":"cancelled"}})");
}

HandlerReply AcpTestClient::defaultRead(const json::Value& request) {
  const json::Value* params = paramsOf(request);
  std::string path = params ? json::getStr(*params, "path").value_or("") : "";
  if (path.empty()) return HandlerReply::error(-32602, "fs/read_text_file needs a path");
  std::optional<std::string> content;
  {
    std::lock_guard lock(mutex_);
    if (auto it = buffers_.find(path); it != buffers_.end()) content = it->second;
  }
  if (!content && options_.readFallsBackToDisk) content = readWholeFile(path);
  if (!content) return HandlerReply::error(-32002, "Resource not found: " + path);
  std::string text = sliceLines(*content, json::getInt(*params, "line"), json::getInt(*params, "limit"));
  return HandlerReply::result(json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "content", text);
    w.EndObject();
  }));
}

HandlerReply AcpTestClient::defaultWrite(const json::Value& request) {
  const json::Value* params = paramsOf(request);
  auto path = params ? json::getStr(*params, "path") : std::nullopt;
  auto content = params ? json::getStr(*params, "content") : std::nullopt;
  if (!path || !content) return HandlerReply::error(-32602, "fs/write_text_file needs path and content");
  if (options_.writesToDisk) {
    std::ofstream out(*path, std::ios::binary | std::ios::trunc);
    if (!out || !(out << *content)) return HandlerReply::error(-32603, "cannot write " + *path);
  }
  std::lock_guard lock(mutex_);
  writes_.push_back(FileWrite{*path, *content});
  buffers_[*path] = *content;
  return HandlerReply::result("{}");
}

int64_t AcpTestClient::request(std::string_view method, std::string_view paramsJson) {
  int64_t id = nextId_++;
  std::string text = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", id);
    json::put(w, "method", method);
    json::key(w, "params");
    w.RawValue(paramsJson.data(), paramsJson.size(), rapidjson::kObjectType);
    w.EndObject();
  });
  sendRaw(text);
  return id;
}

void AcpTestClient::notify(std::string_view method, std::string_view paramsJson) {
  sendRaw(json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "method", method);
    json::key(w, "params");
    w.RawValue(paramsJson.data(), paramsJson.size(), rapidjson::kObjectType);
    w.EndObject();
  }));
}

bool AcpTestClient::sendRaw(std::string_view text) {
  {
    std::lock_guard lock(mutex_);
    if (json::parse(text).ok()) transcript_.emplace_back("client", std::string(text));
  }
  return agent_.writeStdin(encodeFrame(text, options_.framing));
}

std::string AcpTestClient::transcriptJsonl() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [from, text] : transcript_) {
    out += "{\"from\":\"" + std::string(from) + "\",\"message\":" + text + "}\n";
  }
  return out;
}

void AcpTestClient::respond(const json::Value& id, std::string_view resultJson) {
  sendRaw(json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::key(w, "id");
    id.Accept(w);
    json::key(w, "result");
    w.RawValue(resultJson.data(), resultJson.size(), rapidjson::kObjectType);
    w.EndObject();
  }));
}

void AcpTestClient::respondError(const json::Value& id, int code, std::string_view message) {
  sendRaw(json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::key(w, "id");
    id.Accept(w);
    json::key(w, "error");
    w.StartObject();
    json::put(w, "code", code);
    json::put(w, "message", message);
    w.EndObject();
    w.EndObject();
  }));
}

Message AcpTestClient::waitResponse(int64_t id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  received_.wait_for(lock, orDefault(timeout), [&] { return closed_ || responseIndex_.count(id) > 0; });
  auto it = responseIndex_.find(id);
  return it == responseIndex_.end() ? nullptr : messages_[it->second];
}

Message AcpTestClient::call(std::string_view method, std::string_view paramsJson,
                            std::optional<std::chrono::milliseconds> timeout) {
  return waitResponse(request(method, paramsJson), timeout);
}

std::vector<Message> AcpTestClient::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::vector<Message> AcpTestClient::notifications(std::string_view method) const {
  std::lock_guard lock(mutex_);
  std::vector<Message> out;
  for (const auto& m : messages_) {
    if (!json::find(*m, "id") && methodOf(*m) == method) out.push_back(m);
  }
  return out;
}

Message AcpTestClient::waitFor(const std::function<bool(const json::Value&)>& pred,
                               std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  Message found;
  size_t scanned = 0;
  received_.wait_for(lock, orDefault(timeout), [&] {
    for (; scanned < messages_.size(); ++scanned) {
      if (pred(*messages_[scanned])) {
        found = messages_[scanned];
        return true;
      }
    }
    return closed_;
  });
  return found;
}

bool AcpTestClient::agentClosed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::vector<std::string> AcpTestClient::unparsedFrames() const {
  std::lock_guard lock(mutex_);
  return unparsed_;
}

void AcpTestClient::setHandler(std::string method, RequestHandler handler) {
  std::lock_guard lock(mutex_);
  handlers_[std::move(method)] = std::move(handler);
}

void AcpTestClient::setBuffer(const std::string& path, std::string content) {
  std::lock_guard lock(mutex_);
  buffers_[path] = std::move(content);
}

std::optional<std::string> AcpTestClient::buffer(const std::string& path) const {
  std::lock_guard lock(mutex_);
  auto it = buffers_.find(path);
  if (it == buffers_.end()) return std::nullopt;
  return it->second;
}

std::vector<FileWrite> AcpTestClient::writes() const {
  std::lock_guard lock(mutex_);
  return writes_;
}

void AcpTestClient::setPermissionKind(std::string kind) {
  std::lock_guard lock(mutex_);
  options_.permissionKind = std::move(kind);
}

Message AcpTestClient::initialize() {
  std::string params = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "protocolVersion", 1);
    json::key(w, "clientCapabilities");
    w.StartObject();
    json::key(w, "fs");
    w.StartObject();
    json::put(w, "readTextFile", options_.readTextFile);
    json::put(w, "writeTextFile", options_.writeTextFile);
    w.EndObject();
    json::put(w, "terminal", false);
    if (!options_.moreCapabilities.empty()) {
      auto more = json::parse(options_.moreCapabilities);
      if (more && more->IsObject()) {
        for (const auto& member : more->GetObject()) {
          json::key(w, std::string_view(member.name.GetString(), member.name.GetStringLength()));
          member.value.Accept(w);
        }
      }
    }
    w.EndObject();
    json::key(w, "clientInfo");
    w.StartObject();
    json::put(w, "name", "lathe-test-client");
    json::put(w, "version", "0.1.0");
    w.EndObject();
    w.EndObject();
  });
  return call("initialize", params);
}

std::string AcpTestClient::newSession(const std::string& cwd, std::string_view mcpServersJson) {
  std::string params = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "cwd", cwd);
    json::key(w, "mcpServers");
    w.RawValue(mcpServersJson.data(), mcpServersJson.size(), rapidjson::kArrayType);
    w.EndObject();
  });
  Message response = call("session/new", params);
  const json::Value* result = response ? json::find(*response, "result") : nullptr;
  std::string id = result ? json::getStr(*result, "sessionId").value_or("") : "";
  // The agent announces the session's commands right after the answer: wait
  // for them (bounded), so a prompt's updates never catch them by chance.
  if (!id.empty()) {
    waitFor(
        [&](const json::Value& m) {
          const json::Value* p = json::find(m, "params");
          const json::Value* update = p ? json::find(*p, "update") : nullptr;
          return update && json::getStr(*p, "sessionId").value_or("") == id &&
                 json::getStr(*update, "sessionUpdate").value_or("") == "available_commands_update";
        },
        std::chrono::milliseconds(5000));
  }
  return id;
}

PromptOutcome AcpTestClient::prompt(const std::string& sessionId, std::string_view text,
                                    std::optional<std::chrono::milliseconds> timeout) {
  std::string blocks = json::build([&](json::Writer& w) {
    w.StartArray();
    w.StartObject();
    json::put(w, "type", "text");
    json::put(w, "text", text);
    w.EndObject();
    w.EndArray();
  });
  return promptBlocks(sessionId, blocks, timeout);
}

PromptOutcome AcpTestClient::promptBlocks(const std::string& sessionId, std::string_view blocksJson,
                                          std::optional<std::chrono::milliseconds> timeout) {
  std::string params = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::key(w, "prompt");
    w.RawValue(blocksJson.data(), blocksJson.size(), rapidjson::kArrayType);
    w.EndObject();
  });
  size_t start;
  {
    std::lock_guard lock(mutex_);
    start = messages_.size();
  }
  int64_t id = request("session/prompt", params);
  PromptOutcome outcome;
  outcome.response = waitResponse(id, timeout);

  std::lock_guard lock(mutex_);
  size_t end = messages_.size();
  if (auto it = responseIndex_.find(id); it != responseIndex_.end()) end = it->second;
  for (size_t i = start; i < end; ++i) {
    const json::Value& m = *messages_[i];
    const json::Value* p = paramsOf(m);
    if (methodOf(m) == "session/update" && !json::find(m, "id") && p &&
        json::getStr(*p, "sessionId").value_or("") == sessionId) {
      outcome.updates.push_back(messages_[i]);
    }
  }
  if (!outcome.response) {
    outcome.error = closed_ ? "agent closed its output" : "timeout";
  } else if (const json::Value* error = json::find(*outcome.response, "error")) {
    outcome.error = json::getStr(*error, "message").value_or("error");
  } else if (const json::Value* result = json::find(*outcome.response, "result")) {
    outcome.stopReason = json::getStr(*result, "stopReason").value_or("");
  }
  return outcome;
}

void AcpTestClient::cancel(const std::string& sessionId) {
  notify("session/cancel", json::build([&](json::Writer& w) {
           w.StartObject();
           json::put(w, "sessionId", sessionId);
           w.EndObject();
         }));
}

}  // namespace lathe::testing
