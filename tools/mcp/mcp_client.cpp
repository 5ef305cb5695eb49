// MCP client connection over stdio.
#include "tools/mcp/mcp_client.h"

#include <signal.h>

#include <future>
#include <mutex>
#include <thread>

#include "protocol/base/json.h"
#include "protocol/base/log.h"
#include "protocol/exec/executor.h"
#include "tools/mcp/answer_wait.h"
#include "tools/mcp/elicitation.h"
#include "tools/mcp/http_channel.h"
#include "tools/mcp/list_pages.h"
#include "tools/process/child_channel.h"
#include "tools/process/secret_environment.h"


namespace lathe::tools::mcp {
namespace {

using std::chrono::milliseconds;

constexpr const char* kClientName = "lathe";
constexpr const char* kCancelMethod = "notifications/cancelled";  // MCP's, both ways
constexpr const char* kClientVersion = "1";

bool knownVersion(const std::string& version) {
  for (const char* known : kProtocolVersions) {
    if (version == known) return true;
  }
  return false;
}

std::string fileUri(const std::string& path) {
  std::string uri = "file://";
  for (unsigned char c : path) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

process::EnvironmentChanges serverEnvironment(const StdioTransport& stdio) {
  process::EnvironmentChanges changes;
  for (auto& name : process::secretVariableNames()) {
    bool named = false;
    for (const auto& [key, value] : stdio.env) named = named || key == name;
    if (!named) changes.unset.push_back(std::move(name));
  }
  changes.set = stdio.env;
  return changes;
}

ListedTool readTool(const json::Value& tool) {
  ListedTool listed;
  listed.name = json::getStr(tool, "name").value_or("");
  listed.title = json::getStr(tool, "title").value_or("");
  listed.description = json::getStr(tool, "description").value_or("");
  const json::Value* schema = json::find(tool, "inputSchema");
  listed.inputSchema = schema && schema->IsObject() ? json::stringify(*schema) : R"({"type":"object","properties":{}})";
  if (const json::Value* notes = json::find(tool, "annotations"); notes && notes->IsObject()) {
    listed.readOnlyHint = json::getBool(*notes, "readOnlyHint").value_or(false);
    listed.openWorldHint = json::getBool(*notes, "openWorldHint").value_or(false);
    listed.annotations = json::stringify(*notes);
  }
  if (listed.title.empty() && json::find(tool, "annotations")) {
    listed.title = json::getStr(*json::find(tool, "annotations"), "title").value_or("");
  }
  return listed;
}

// The child's pipes for the peer, so that closing its stdin never overlaps a
// write (the reading thread answers the server at any time): writes and the
// close take one lock. A write stuck on a full pipe is ended by killing the
// child when the close cannot get the lock in time.
class StdioGuard final : public rpc::ByteChannel {
 public:
  explicit StdioGuard(rpc::ByteChannel& inner) : inner_(inner) {}
  size_t read(char* buffer, size_t size) override { return inner_.read(buffer, size); }
  bool write(std::string_view bytes) override {
    std::lock_guard lock(mutex_);
    return !closed_ && inner_.write(bytes);
  }
  void closeWrite() override { (void)closeWithin(std::chrono::hours(1)); }
  bool closeWithin(milliseconds wait) {
    // Polls try_lock: a timed mutex's clocklock is invisible to TSan here.
    std::unique_lock lock(mutex_, std::defer_lock);
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (!lock.try_lock()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(milliseconds(5));
    }
    closed_ = true;
    inner_.closeWrite();
    return true;
  }

 private:
  rpc::ByteChannel& inner_;
  std::mutex mutex_;
  bool closed_ = false;
};

}  // namespace


McpClient::McpClient(const ServerConfig& config, ClientHooks hooks) : config_(config), hooks_(std::move(hooks)) {}

Result<std::unique_ptr<McpClient>> McpClient::connect(const ServerConfig& config, ClientHooks hooks,
                                                      milliseconds timeout, const CancelToken& cancel) {
  std::unique_ptr<McpClient> client(new McpClient(config, std::move(hooks)));
  if (auto started = client->start(); !started) return started.error();
  if (auto shaken = client->handshake(timeout, cancel); !shaken) {
    // Over HTTP the error already says what the server answered.
    std::string why = client->alive() || client->http_ ? "" : " (" + client->whyClosed() + ")";
    return makeError(shaken.error().code, shaken.error().message + why);
  }
  return client;
}

Status McpClient::start() {
  if (const auto* http = std::get_if<HttpTransport>(&config_.transport)) {
    http_ = std::make_unique<HttpChannel>(*http);
    peer_ = rpc::Peer::create(*http_, rpc::Peer::Options{.framing = Framing::newline, .cancelMethod = kCancelMethod});
    installHandlers();
    reading_.post([this](const CancelToken&) { readLoop(); });  // ends when the channel closes
    return {};
  }
  const auto& stdio = std::get<StdioTransport>(config_.transport);
  process::ProcessSpec spec;
  spec.argv.push_back(stdio.command);
  spec.argv.insert(spec.argv.end(), stdio.args.begin(), stdio.args.end());
  if (stdio.cwd) spec.cwd = *stdio.cwd;
  spec.env = serverEnvironment(stdio);
  process::ChildChannelOptions options;
  options.onStderrLine = [name = config_.name](std::string_view line) {
    log(LogLevel::info, "MCP server " + name + " (stderr): " + std::string(line));
  };
  auto child = process::ChildChannel::spawn(std::move(spec), std::move(options));
  if (!child) return child.error();
  child_ = std::move(child).value();
  stdio_ = std::make_unique<StdioGuard>(child_->channel());
  peer_ = rpc::Peer::create(*stdio_, rpc::Peer::Options{.framing = Framing::newline, .cancelMethod = kCancelMethod});
  installHandlers();
  // The server's output is read on the executor's reactor, not a thread of its own.
  child_->readOutput([peer = peer_](std::string_view bytes) { peer->receive(bytes); },
                     [this] {
                       peer_->endOfInput();
                       outputEnded();
                     });
  return {};
}

void McpClient::readLoop() {
  peer_->serve();
  outputEnded();
}

void McpClient::outputEnded() {
  closed_ = true;
  peer_->close();  // every pending call fails now
}

void McpClient::installHandlers() {
  peer_->onRequest("ping", [](const rpc::Incoming&, rpc::Responder responder) { responder.reply(json::Raw{"{}"}); });
  peer_->onRequest("roots/list", [this](const rpc::Incoming&, rpc::Responder responder) {
    std::vector<std::string> dirs = hooks_.rootDirs ? hooks_.rootDirs() : std::vector<std::string>{};
    responder.reply(json::Raw{json::build([&](json::Writer& w) {
      w.StartObject();
      json::key(w, "roots");
      w.StartArray();
      for (const auto& dir : dirs) {
        w.StartObject();
        json::put(w, "uri", fileUri(dir));
        json::put(w, "name", baseName(dir));
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    })});
  });
  if (hooks_.asker) {
    peer_->onRequest("elicitation/create",
                     [this](const rpc::Incoming& msg, rpc::Responder responder) { elicit(msg, std::move(responder)); });
    peer_->onNotification("notifications/elicitation/complete", [this](const rpc::Incoming& msg) {
      auto id = msg.params ? json::getStr(*msg.params, "elicitationId") : std::nullopt;
      if (id && hooks_.asker->offersUrl()) hooks_.asker->completed(*id);
    });
  }
  peer_->onNotification("notifications/tools/list_changed", [this](const rpc::Incoming&) {
    if (hooks_.onToolsChanged) hooks_.onToolsChanged(*this);
  });
  peer_->onNotification("notifications/prompts/list_changed", [this](const rpc::Incoming&) {
    if (hooks_.onPromptsChanged) hooks_.onPromptsChanged(*this);
  });
  peer_->onNotification("notifications/message", [this](const rpc::Incoming& msg) {
    if (!msg.params) return;
    std::string level = json::getStr(*msg.params, "level").value_or("info");
    const json::Value* data = json::find(*msg.params, "data");
    std::string text = !data ? "" : data->IsString() ? std::string(data->GetString(), data->GetStringLength())
                                                     : json::stringify(*data);
    LogLevel mapped = level == "debug" ? LogLevel::debug
                      : (level == "info" || level == "notice") ? LogLevel::info
                      : level == "warning" ? LogLevel::warn
                                           : LogLevel::error;
    log(mapped, "MCP server " + config_.name + " says (" + level + "): " + text.substr(0, 2000));
  });
  peer_->onNotification("notifications/progress", [this](const rpc::Incoming& msg) {
    if (!msg.params) return;
    const json::Value* token = json::find(*msg.params, "progressToken");
    if (!token) return;
    std::string key = json::stringify(*token);
    std::function<void(const std::string&)> sink;
    {
      std::lock_guard lock(progressMutex_);
      if (auto it = progress_.find(key); it != progress_.end()) sink = it->second;
    }
    if (!sink) return;  // a late message for a call that ended: ignored
    std::string line;
    if (const json::Value* p = json::find(*msg.params, "progress"); p && p->IsNumber()) {
      line = "Progress " + json::stringify(*p);
      if (const json::Value* t = json::find(*msg.params, "total"); t && t->IsNumber()) line += "/" + json::stringify(*t);
    }
    if (auto message = json::getStr(*msg.params, "message")) line += (line.empty() ? "" : ": ") + *message;
    sink(line);
  });
}

void McpClient::elicit(const rpc::Incoming& msg, rpc::Responder responder) {
  static const json::Value kNone;
  auto request = elicitationFromMcp(msg.params ? *msg.params : kNone,
                                    {hooks_.asker->offersForm(), hooks_.asker->offersUrl()});
  if (!request) return responder.fail(request.error());
  std::optional<CallScope> scope;
  {
    std::lock_guard lock(progressMutex_);
    if (calls_.size() == 1) scope = calls_.begin()->second;
    // Several calls of this server at once: the question is the session's, not one call's.
    if (calls_.size() > 1) scope = CallScope{"", calls_.begin()->second.cancel};
  }
  // Asked only while one of its tools runs: the person sees why it asks.
  if (!scope) {
    return responder.fail(makeError(Errc::invalid_request,
                                    "Lathe forwards a server's elicitation to the person only during one of its tool calls"));
  }
  request->toolCallId = scope->callId;
  // The person must see who asks: a server's words are not Lathe's.
  request->message = "The MCP server \"" + config_.name + "\" asks: " + request->message;
  auto shared = std::make_shared<rpc::Responder>(std::move(responder));
  auto posted = asking_.post([asker = hooks_.asker, ask = std::move(request).value(), scope = *scope,
                              shared](const CancelToken& closing) mutable {
    // Ends when the call ends, the server withdraws it, or the connection goes.
    CancelToken cancel = closing.child();
    CancelToken::Registration byCall = scope.cancel.onCancel([cancel] { cancel.cancel(); });
    CancelToken::Registration byServer = shared->cancelled().onCancel([cancel] { cancel.cancel(); });
    auto answer = asker->ask(std::move(ask), cancel);
    if (!answer && answer.error().code == Errc::cancelled) {
      return shared->fail(makeError(Errc::cancelled, "the elicitation was cancelled"));
    }
    if (!answer) return shared->fail(answer.error());
    shared->reply(elicitationResultForMcp(*answer));
  });
  if (!posted) shared->fail(makeError(Errc::cancelled, "the connection is closing"));
}

Result<rpc::Response> McpClient::await(const std::string& method, const rpc::ParamsWriter& params,
                                       milliseconds timeout, const CancelToken& cancel) {
  if (cancel.cancelled()) return makeError(Errc::cancelled, method + " was cancelled");
  auto promise = std::make_shared<std::promise<Result<rpc::Response>>>();
  auto future = promise->get_future();
  std::string id = peer_->request(method, params, [promise](Result<rpc::Response> r) { promise->set_value(std::move(r)); });
  if (id.empty()) return future.get();
  // The deadline is a timer and the cancel a callback; either gives up on the
  // answer there, and this thread then tells the server (never from the
  // reactor, where a write to a full pipe would hold up every other pipe).
  std::atomic<bool> gaveUp{false};
  auto giveUp = [&](Error error) {
    gaveUp = true;
    peer_->abandon(id, std::move(error));
  };
  {
    CancelToken::Registration stop = cancel.onCancel([&] { giveUp(makeError(Errc::cancelled, method + " was cancelled")); });
    exec::Timer deadline = exec::Executor::shared().after(timeout, [&] {
      giveUp(makeError(Errc::timeout, "no answer to " + method + " within " + std::to_string(timeout.count()) + " ms"));
    });
    future.wait();
  }
  auto result = future.get();
  // Giving up tells the server, except for initialize, which must never be cancelled.
  if (gaveUp && !result && method != "initialize") {
    peer_->notify("notifications/cancelled", json::Raw{json::build([&](json::Writer& w) {
                    w.StartObject();
                    json::put(w, "requestId", json::Raw{id});
                    json::put(w, "reason", result.error().message);
                    w.EndObject();
                  })});
  }
  return result;
}

Status McpClient::handshake(milliseconds timeout, const CancelToken& cancel) {
  auto answer = await(
      "initialize",
      [this](json::Writer& w) {
        w.StartObject();
        json::put(w, "protocolVersion", kProtocolVersions[0]);
        json::key(w, "capabilities");
        w.StartObject();
        json::key(w, "roots");
        w.StartObject();
        json::put(w, "listChanged", true);
        w.EndObject();
        if (hooks_.asker) {
          json::put(w, "elicitation", elicitationCapability({hooks_.asker->offersForm(), hooks_.asker->offersUrl()}));
        }
        w.EndObject();
        json::key(w, "clientInfo");
        w.StartObject();
        json::put(w, "name", kClientName);
        json::put(w, "version", kClientVersion);
        w.EndObject();
        w.EndObject();
      },
      timeout, cancel);
  if (!answer) return makeError(answer.error().code, "initialize failed: " + answer.error().message);
  if (!answer->result || !answer->result->IsObject()) return makeError(Errc::invalid_request, "initialize answered with no result object");
  protocolVersion_ = json::getStr(*answer->result, "protocolVersion").value_or("");
  if (!knownVersion(protocolVersion_)) {
    return makeError(Errc::invalid_request, "the server speaks MCP protocol version \"" + protocolVersion_ +
                                            "\", which Lathe does not (it knows 2025-11-25, 2025-06-18, 2025-03-26 "
                                            "and 2024-11-05)");
  }
  if (http_) http_->setProtocolVersion(protocolVersion_);
  if (const json::Value* caps = json::find(*answer->result, "capabilities"); caps && caps->IsObject()) {
    hasResources_ = json::find(*caps, "resources") != nullptr;
    hasPrompts_ = json::find(*caps, "prompts") != nullptr;
  }
  if (const json::Value* info = json::find(*answer->result, "serverInfo"); info && info->IsObject()) {
    name_ = json::getStr(*info, "name").value_or("");
  }
  peer_->notify("notifications/initialized", json::Raw{"{}"});
  return {};
}

void McpClient::listToolsAsync(std::function<void(Result<std::vector<ListedTool>>)> done) {
  listAllPages<ListedTool>(peer_, "tools/list", "tools", readTool, std::move(done));
}

Result<std::vector<ListedTool>> McpClient::listTools(milliseconds timeout, const CancelToken& cancel) {
  return waitForAnswer<std::vector<ListedTool>>(
      "tools/list", timeout, cancel,
      [this](std::function<void(Result<std::vector<ListedTool>>)> done) { listToolsAsync(std::move(done)); });
}

Result<rpc::Response> McpClient::callTool(const std::string& tool, const std::string& argumentsJson,
                                          milliseconds timeout, const CancelToken& cancel,
                                          std::function<void(const std::string&)> onProgress, const std::string& callId) {
  std::string token = "\"lathe-" + std::to_string(++nextProgress_) + "\"";
  CancelToken during = cancel.child();  // the call's elicitations end with it
  {
    std::lock_guard lock(progressMutex_);
    if (onProgress) progress_[token] = std::move(onProgress);
    calls_[token] = CallScope{callId, during};
  }
  auto result = await(
      "tools/call",
      [&](json::Writer& w) {
        w.StartObject();
        json::put(w, "name", tool);
        json::put(w, "arguments", json::Raw{argumentsJson.empty() ? "{}" : argumentsJson});
        json::key(w, "_meta");
        w.StartObject();
        json::put(w, "progressToken", json::Raw{token});
        w.EndObject();
        w.EndObject();
      },
      timeout, cancel);
  {
    std::lock_guard lock(progressMutex_);
    progress_.erase(token);
    calls_.erase(token);
  }
  during.cancel();
  return result;
}

Result<std::vector<ListedResource>> McpClient::listResources(milliseconds timeout, const CancelToken& cancel) {
  std::vector<ListedResource> all;
  std::string cursor;
  do {
    auto page = await(
        "resources/list",
        [&](json::Writer& w) {
          w.StartObject();
          if (!cursor.empty()) json::put(w, "cursor", cursor);
          w.EndObject();
        },
        timeout, cancel);
    if (!page) return page.error();
    const json::Value* list = page->result ? json::find(*page->result, "resources") : nullptr;
    if (!list || !list->IsArray()) return makeError(Errc::invalid_request, "resources/list answered without a resources array");
    for (const auto& item : list->GetArray()) {
      if (!item.IsObject()) continue;
      ListedResource resource;
      resource.uri = json::getStr(item, "uri").value_or("");
      resource.name = json::getStr(item, "name").value_or(resource.uri);
      resource.description = json::getStr(item, "description").value_or("");
      resource.mimeType = json::getStr(item, "mimeType").value_or("");
      if (!resource.uri.empty()) all.push_back(std::move(resource));
    }
    cursor = json::getStr(*page->result, "nextCursor").value_or("");
    if (all.size() > 100000) return makeError(Errc::invalid_request, "resources/list keeps paging past 100000 resources");
  } while (!cursor.empty());
  return all;
}

Result<rpc::Response> McpClient::readResource(const std::string& uri, milliseconds timeout, const CancelToken& cancel) {
  return await(
      "resources/read",
      [&](json::Writer& w) {
        w.StartObject();
        json::put(w, "uri", uri);
        w.EndObject();
      },
      timeout, cancel);
}

Status McpClient::ping(milliseconds timeout, const CancelToken& cancel) {
  auto answer = await("ping", {}, timeout, cancel);
  if (!answer) return answer.error();
  return {};
}

bool McpClient::alive() const { return !closed_.load() && (!http_ || http_->usable()); }

std::string McpClient::whyClosed() {
  if (http_) return http_->describe();
  // The output ends a moment before the exit can be collected.
  std::optional<process::ExitStatus> status;
  for (int i = 0; i < 50 && !(status = child_->exited()); ++i) std::this_thread::sleep_for(milliseconds(10));
  std::string why = status ? "it exited: " + status->describe() : "it closed its output";
  std::string tail = child_->stderrTail();
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  if (tail.size() > 600) tail = "…" + tail.substr(tail.size() - 600);
  if (!tail.empty()) why += "; its last stderr output: " + tail;
  return why;
}

McpClient::~McpClient() {
  asking_.cancelAll();
  asking_.join();  // their answers go through the peer
  if (child_) {
    // Its stdin closes first (the polite way to stop a stdio server); a
    // write stuck on a full pipe is ended by killing the server's group.
    auto* guard = static_cast<StdioGuard*>(stdio_.get());
    if (!guard->closeWithin(milliseconds(300))) {
      ::kill(-child_->pid(), SIGKILL);
      guard->closeWrite();
    }
    child_->shutdown(milliseconds(300));
    child_->stopReading();  // no callback touches this client after here
  }
  if (http_) http_->closeWrite();
  reading_.join();
  if (peer_) peer_->close();
}

}  // namespace lathe::tools::mcp
