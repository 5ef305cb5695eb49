// list_mcp_resources and read_mcp_resource.
#include "tools/mcp/resource_tools.h"

#include "tools/mcp/mcp_server.h"

namespace lathe::tools::mcp {
namespace {

using Servers = std::shared_ptr<ServerDirectory>;

class ListInvocation final : public ToolInvocation {
 public:
  ListInvocation(Servers servers, std::string only) : servers_(std::move(servers)), only_(std::move(only)) {}
  std::string description() const override {
    return only_.empty() ? "List the MCP servers' resources" : "List the resources of MCP server " + only_;
  }
  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    std::string lines;
    bool known = only_.empty();
    for (const auto& server : servers_->all()) {
      const std::string& name = server->config().name;
      if (!only_.empty() && name != only_) continue;
      known = true;
      if (!server->hasResources()) continue;
      auto listed = server->listResources(cancel);
      if (!listed) {
        lines += "- (" + name + ": listing failed: " + listed.error().message + ")\n";
        continue;
      }
      for (const auto& r : *listed) {
        lines += "- " + name + ":" + r.uri + " | " + r.name;
        if (!r.description.empty()) lines += " | " + r.description;
        lines += "\n";
      }
    }
    if (!known) return ToolResult::failure(ErrorType::invalid_params, "no MCP server is named \"" + only_ + "\"");
    if (lines.empty()) return ToolResult::text("No MCP resources found.", "No MCP resources found.");
    return ToolResult::text("Available MCP resources (server:uri | name | description):\n" + lines, lines);
  }

 private:
  Servers servers_;
  std::string only_;
};

class ReadInvocation final : public ToolInvocation {
 public:
  ReadInvocation(Servers servers, std::string uri) : servers_(std::move(servers)), uri_(std::move(uri)) {}
  std::string description() const override { return "Read the MCP resource " + uri_; }
  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    auto servers = servers_->all();
    // "server:uri" names the server; the URI's own scheme never matches a server name by accident
    // unless a server is named like it, and then that server is asked.
    for (const auto& server : servers) {
      const std::string prefix = server->config().name + ":";
      if (uri_.rfind(prefix, 0) == 0 && server->hasResources()) return server->readResource(uri_.substr(prefix.size()), cancel);
    }
    for (const auto& server : servers) {
      if (!server->hasResources()) continue;
      auto listed = server->listResources(cancel);
      if (!listed) continue;
      for (const auto& r : *listed) {
        if (r.uri == uri_) return server->readResource(uri_, cancel);
      }
    }
    return ToolResult::failure(ErrorType::file_not_found,
                               "no MCP server lists the resource " + uri_ + " (see list_mcp_resources)");
  }

 private:
  Servers servers_;
  std::string uri_;
};

class ListTool final : public Tool {
 public:
  explicit ListTool(Servers servers)
      : Tool(ToolInfo{
            .name = "list_mcp_resources",
            .displayName = "List MCP resources",
            .description = "Lists the resources that the connected MCP servers expose, as server:uri with a name and "
                           "description. Give serverName to list one server's only.",
            .kind = Kind::read,
            .parametersSchema =
                R"({"type":"object","properties":{"serverName":{"type":"string","description":"Only this server's resources"}}})",
            .isOutputMarkdown = false}),
        servers_(std::move(servers)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    return {std::make_unique<ListInvocation>(servers_, json::getStr(params, "serverName").value_or("")), {}};
  }

 private:
  Servers servers_;
};

class ReadTool final : public Tool {
 public:
  explicit ReadTool(Servers servers)
      : Tool(ToolInfo{
            .name = "read_mcp_resource",
            .displayName = "Read MCP resource",
            .description = "Reads one resource of a connected MCP server, by the uri list_mcp_resources shows "
                           "(server:uri, or the bare uri).",
            .kind = Kind::read,
            .parametersSchema =
                R"({"type":"object","properties":{"uri":{"type":"string","description":"The resource, as server:uri or its uri"}},"required":["uri"]})",
            .isOutputMarkdown = false}),
        servers_(std::move(servers)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    std::string uri = json::getStr(params, "uri").value_or("");
    if (uri.empty()) return invalidParams("params.uri: must not be empty");
    return {std::make_unique<ReadInvocation>(servers_, std::move(uri)), {}};
  }

 private:
  Servers servers_;
};

}  // namespace

void ServerDirectory::add(const std::shared_ptr<McpServer>& server) {
  std::lock_guard lock(mutex_);
  servers_.push_back(server);
}

std::vector<std::shared_ptr<McpServer>> ServerDirectory::all() {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<McpServer>> out;
  for (const auto& weak : servers_) {
    if (auto server = weak.lock()) out.push_back(std::move(server));
  }
  return out;
}

std::unique_ptr<Tool> makeListResourcesTool(std::shared_ptr<ServerDirectory> servers) {
  return std::make_unique<ListTool>(std::move(servers));
}

std::unique_ptr<Tool> makeReadResourceTool(std::shared_ptr<ServerDirectory> servers) {
  return std::make_unique<ReadTool>(std::move(servers));
}

}  // namespace lathe::tools::mcp
