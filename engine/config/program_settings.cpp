// Decoding of mcpServers and the discovery commands.
#include "engine/config/program_settings_decode.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace lathe::engine {
namespace {

using tools::mcp::HttpTransport;
using tools::mcp::NameValue;
using tools::mcp::ServerConfig;
using tools::mcp::StdioTransport;

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// An object of string values ({"NAME": "value"}), each expanded.
std::vector<NameValue> stringMap(json::Reader& server, const char* field, const EnvLookup& env) {
  std::vector<NameValue> out;
  auto object = server.optObject(field);
  if (!object || !object->expectObject()) return out;
  for (const auto& member : object->value()->GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    if (!member.value.IsString()) {
      object->fail(object->path() + "." + name, "expected a string");
      continue;
    }
    out.emplace_back(name, expandEnv({member.value.GetString(), member.value.GetStringLength()}, env));
  }
  return out;
}

// The transport, chosen as Gemini CLI does: httpUrl, then url (with type),
// then command.
void decodeTransport(json::Reader& server, const EnvLookup& env, ServerConfig& config) {
  auto httpUrl = server.optStr("httpUrl");
  auto url = server.optStr("url");
  auto type = server.optStr("type");
  auto command = server.optStr("command");
  if (type && *type != "http" && *type != "sse") {
    server.fail(server.path() + ".type", "must be \"http\" or \"sse\", not \"" + *type + "\"");
    return;
  }
  if (httpUrl || url) {
    HttpTransport http;
    http.url = httpUrl ? *httpUrl : *url;
    if (httpUrl || type == "http") {
      http.kind = HttpTransport::Kind::streamable;
    } else {
      http.kind = type == "sse" ? HttpTransport::Kind::sse : HttpTransport::Kind::automatic;
    }
    http.headers = stringMap(server, "headers", env);
    config.transport = std::move(http);
    return;
  }
  if (!command) {
    server.fail(server.path(), "needs \"command\" (a local server), \"url\" or \"httpUrl\" (a remote one)");
    return;
  }
  if (command->empty()) server.fail(server.path() + ".command", "must not be empty");
  StdioTransport stdio;
  stdio.command = *command;
  stdio.args = server.optStrings("args").value_or(std::vector<std::string>{});
  stdio.env = stringMap(server, "env", env);
  stdio.cwd = server.optStr("cwd");
  config.transport = std::move(stdio);
}

ServerConfig decodeServer(json::Reader& server, const std::string& name, ServerConfig::Origin origin,
                          const EnvLookup& env) {
  ServerConfig config;
  config.origin = origin;
  config.name = name;
  if (!server.expectObject()) return config;
  decodeTransport(server, env, config);
  if (auto timeout = server.optInt64("timeout")) {
    if (*timeout <= 0) server.fail(server.path() + ".timeout", "must be a positive number of milliseconds");
    config.timeoutMs = *timeout;
  }
  config.trust = server.optBool("trust").value_or(false);
  config.includeTools = server.optStrings("includeTools").value_or(std::vector<std::string>{});
  config.excludeTools = server.optStrings("excludeTools").value_or(std::vector<std::string>{});
  return config;
}

}  // namespace

EnvLookup processEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

std::string expandEnv(std::string_view text, const EnvLookup& lookup) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    size_t start = i + 1;
    size_t end = start;
    bool braced = text[start] == '{';
    if (braced) {
      end = text.find('}', start + 1);
      if (end == std::string_view::npos || end == start + 1) {
        out += text[i];
        continue;
      }
      std::string name(text.substr(start + 1, end - start - 1));
      out += lookup(name).value_or("");
      i = end;
      continue;
    }
    while (end < text.size() && nameChar(text[end])) ++end;
    if (end == start || std::isdigit(static_cast<unsigned char>(text[start]))) {
      out += text[i];
      continue;
    }
    out += lookup(std::string(text.substr(start, end - start))).value_or("");
    i = end - 1;
  }
  return out;
}

void decodeProgramSettings(json::Reader& root, ServerConfig::Origin origin, const EnvLookup& env,
                           ProgramSettings& out) {
  if (auto servers = root.optObject("mcpServers"); servers && servers->expectObject()) {
    for (const auto& member : servers->value()->GetObject()) {
      std::string name(member.name.GetString(), member.name.GetStringLength());
      if (name.empty()) {
        servers->fail(servers->path(), "a server needs a name");
        continue;
      }
      json::Reader server = servers->object(name.c_str());  // shares the file's error slot
      ServerConfig config = decodeServer(server, name, origin, env);
      auto same = std::find_if(out.mcpServers.begin(), out.mcpServers.end(),
                               [&](const ServerConfig& s) { return s.name == name; });
      if (same != out.mcpServers.end()) {
        *same = std::move(config);
      } else {
        out.mcpServers.push_back(std::move(config));
      }
    }
  }
  if (auto tools = root.optObject("tools")) {
    if (auto discovery = tools->optStr("discoveryCommand")) out.discoveryCommand = discovery;
    if (auto call = tools->optStr("callCommand")) out.callCommand = call;
  }
}

std::string programSettingsText(const json::Value& root) {
  if (!root.IsObject()) return {};
  const json::Value* servers = json::find(root, "mcpServers");
  const json::Value* tools = json::find(root, "tools");
  const json::Value* discovery = tools && tools->IsObject() ? json::find(*tools, "discoveryCommand") : nullptr;
  const json::Value* call = tools && tools->IsObject() ? json::find(*tools, "callCommand") : nullptr;
  bool anyServer = servers && servers->IsObject() && servers->MemberCount() > 0;
  if (!anyServer && !discovery && !call) return {};
  std::string text = "{\"mcpServers\":" + (servers ? json::stringify(*servers) : std::string("null"));
  text += ",\"discoveryCommand\":" + (discovery ? json::stringify(*discovery) : std::string("null"));
  text += ",\"callCommand\":" + (call ? json::stringify(*call) : std::string("null")) + "}";
  return text;
}

bool mcpServerPermitted(const std::string& name, const std::optional<std::vector<std::string>>& allowed,
                        const std::vector<std::string>& excluded) {
  auto listed = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  return !listed(excluded) && (!allowed || listed(*allowed));
}

std::vector<ServerConfig> mcpServersFromSettings(const ProgramSettings& user, const ProgramSettings* workspace,
                                                 const std::optional<std::vector<std::string>>& allowed,
                                                 const std::vector<std::string>& excluded, bool keepWorkspaceTrust) {
  std::vector<ServerConfig> merged = user.mcpServers;
  if (workspace) {
    for (ServerConfig server : workspace->mcpServers) {
      if (!keepWorkspaceTrust) server.trust = false;
      auto same = std::find_if(merged.begin(), merged.end(), [&](const ServerConfig& s) { return s.name == server.name; });
      if (same != merged.end()) {
        *same = std::move(server);
      } else {
        merged.push_back(std::move(server));
      }
    }
  }
  std::erase_if(merged, [&](const ServerConfig& s) { return !mcpServerPermitted(s.name, allowed, excluded); });
  return merged;
}

std::vector<std::string> unaskedMcpServers(const ProgramSettings& user,
                                           const std::optional<std::vector<std::string>>& allowed) {
  std::vector<std::string> names = allowed.value_or(std::vector<std::string>{});
  for (const auto& server : user.mcpServers) {
    if (server.trust) names.push_back(server.name);
  }
  return names;
}

}  // namespace lathe::engine
