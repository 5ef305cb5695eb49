// A session's MCP servers.
#include "tools/mcp/session_servers.h"

#include <algorithm>

#include "protocol/base/cancel.h"
#include "protocol/base/enum_names.h"
#include "protocol/base/log.h"
#include "tools/mcp/mcp_server.h"
#include "tools/mcp/resource_tools.h"

namespace lathe::tools::mcp {

SessionServers::SessionServers(ToolRegistry& registry, std::vector<std::string> rootDirs)
    : registry_(registry), rootDirs_(std::move(rootDirs)), directory_(std::make_shared<ServerDirectory>()) {}

SessionServers::~SessionServers() { shutdown(); }

void SessionServers::notice(std::string text) {
  log(LogLevel::warn, text);
  std::lock_guard lock(mutex_);
  notices_.push_back(std::move(text));
}

void SessionServers::start(std::vector<ServerConfig> configs) {
  for (auto& config : configs) {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    bool duplicate = std::any_of(servers_.begin(), servers_.end(),
                                 [&](const auto& server) { return server->config().name == config.name; });
    if (duplicate || config.name.empty()) {
      std::string text = "MCP server \"" + config.name + "\" was not started: " +
                         (duplicate ? "another server of this session has that name" : "it has no name");
      log(LogLevel::warn, text);
      notices_.push_back(std::move(text));
      continue;
    }
    ServerEnvironment env{&registry_, &registryMutex_, [dirs = rootDirs_] { return dirs; }, promptsListener_, asker_, notify_};
    auto server = std::make_shared<McpServer>(std::move(config), env);
    servers_.push_back(server);
    ++starting_;
    starters_.post([this, server](const CancelToken&) { run(server); });
  }
}

void SessionServers::run(std::shared_ptr<McpServer> server) {
  const std::string& name = server->config().name;
  auto started = server->start(CancelToken::create());
  if (started) {
    directory_->add(server);
    if (server->hasResources()) addResourceTools();
    std::lock_guard lock(mutex_);
    connected_.push_back(name);
  } else if (started.error().code != Errc::cancelled) {
    {
      std::lock_guard lock(mutex_);
      failures_[name] = started.error().message;
    }
    notice("MCP server \"" + name + "\" failed to start, so its tools are not available: " + started.error().message);
  }
  std::lock_guard lock(mutex_);
  --starting_;
  changed_.notify_all();
}

void SessionServers::addResourceTools() {
  std::lock_guard lock(registryMutex_);
  if (resourceToolsAdded_) return;
  resourceToolsAdded_ = true;
  for (auto* make : {&makeListResourcesTool, &makeReadResourceTool}) {
    if (auto added = registry_.add(make(directory_)); !added) log(LogLevel::warn, added.error().message);
  }
}

void SessionServers::waitForStarts(std::chrono::milliseconds bound) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, bound, [this] { return starting_ == 0; });
}

std::vector<std::string> SessionServers::takeNotices() {
  std::lock_guard lock(mutex_);
  return std::exchange(notices_, {});
}

std::vector<std::string> SessionServers::connected() {
  std::lock_guard lock(mutex_);
  return connected_;
}

namespace {

// How /mcp shows each state.
constexpr EnumName<ServerStatus::State> kStates[] = {
    {ServerStatus::State::starting, "starting"},
    {ServerStatus::State::connected, "connected"},
    {ServerStatus::State::stopped, "stopped (it starts again at its next call)"},
    {ServerStatus::State::failed, "failed to start"},
};

}  // namespace

const char* toString(ServerStatus::State state) { return nameOf(kStates, state); }

void SessionServers::setPromptsListener(std::function<void()> listener) {
  std::lock_guard lock(mutex_);
  promptsListener_ = std::move(listener);
}

std::vector<ServerStatus> SessionServers::status() {
  std::vector<std::shared_ptr<McpServer>> servers;
  std::vector<std::string> connected;
  std::map<std::string, std::string> failures;
  {
    std::lock_guard lock(mutex_);
    servers = servers_;
    connected = connected_;
    failures = failures_;
  }
  std::vector<ServerStatus> out;
  for (const auto& server : servers) {
    ServerStatus status;
    status.name = server->config().name;
    if (auto failed = failures.find(status.name); failed != failures.end()) {
      status.state = ServerStatus::State::failed;
      status.detail = failed->second;
    } else if (std::find(connected.begin(), connected.end(), status.name) == connected.end()) {
      status.state = ServerStatus::State::starting;
    } else {
      status.state = server->connectedNow() ? ServerStatus::State::connected : ServerStatus::State::stopped;
    }
    status.prompts = server->prompts();
    out.push_back(std::move(status));
  }
  return out;
}

Result<std::vector<PromptContent>> SessionServers::getPrompt(const std::string& server, const std::string& prompt,
                                                             const std::string& argumentsJson,
                                                             const CancelToken& cancel) {
  std::shared_ptr<McpServer> found;
  {
    std::lock_guard lock(mutex_);
    for (const auto& s : servers_) {
      if (s->config().name == server) found = s;
    }
  }
  if (!found) return makeError(Errc::not_found, "MCP server " + server + " is not part of this session");
  return found->getPrompt(prompt, argumentsJson, cancel);
}

void SessionServers::shutdown() {
  std::vector<std::shared_ptr<McpServer>> servers;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    servers.swap(servers_);
  }
  // Every server at once: each waits a moment for its child to exit.
  exec::TaskGroup enders;
  for (auto& server : servers) enders.post([server](const CancelToken&) { server->shutdown(); });
  enders.join();
  starters_.join();
}

}  // namespace lathe::tools::mcp
