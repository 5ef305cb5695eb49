// MCP tools and their invocations.
#include "tools/mcp/mcp_tool.h"

#include "tools/mcp/mcp_server.h"

namespace lathe::tools::mcp {
namespace {

Kind kindOf(const ListedTool& listed) {
  if (!listed.readOnlyHint) return Kind::other;
  return listed.openWorldHint ? Kind::fetch : Kind::read;
}

class McpInvocation final : public ToolInvocation {
 public:
  McpInvocation(std::weak_ptr<McpServer> server, std::string serverName, std::string tool, std::string arguments,
                bool trusted)
      : server_(std::move(server)),
        serverName_(std::move(serverName)),
        tool_(std::move(tool)),
        arguments_(std::move(arguments)),
        trusted_(trusted) {}

  // The arguments only: the title the person sees already leads with the
  // display name, which names the tool and its server.
  std::string description() const override {
    return arguments_.size() > 200 ? arguments_.substr(0, 200) + "…" : arguments_;
  }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    if (trusted_) return std::optional<ConfirmationDetails>{};
    return std::optional<ConfirmationDetails>{McpConfirmation{serverName_, tool_}};
  }

  void setCallId(const std::string& id) override { callId_ = id; }

  ToolResult execute(const CancelToken& cancel, const OutputSink& updateOutput) override {
    auto server = server_.lock();
    if (!server) {
      return ToolResult::failure(ErrorType::execution_failed, "the MCP server " + serverName_ + " is no longer running");
    }
    return server->call(tool_, arguments_, cancel, updateOutput, callId_);
  }

 private:
  std::weak_ptr<McpServer> server_;
  std::string serverName_;
  std::string tool_;
  std::string arguments_;
  bool trusted_;
  std::string callId_;
};

class McpTool final : public Tool {
 public:
  McpTool(ToolInfo info, std::weak_ptr<McpServer> server, std::string serverName, std::string tool, bool trusted)
      : Tool(std::move(info)),
        server_(std::move(server)),
        serverName_(std::move(serverName)),
        tool_(std::move(tool)),
        trusted_(trusted) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    return {std::make_unique<McpInvocation>(server_, serverName_, tool_, json::stringify(params), trusted_), {}};
  }

 private:
  std::weak_ptr<McpServer> server_;
  std::string serverName_;
  std::string tool_;
  bool trusted_;
};

}  // namespace

std::unique_ptr<Tool> makeMcpTool(std::string name, const ListedTool& listed, std::weak_ptr<McpServer> server,
                                  const std::string& serverName, bool trusted) {
  ToolInfo info;
  info.name = std::move(name);
  info.displayName = (listed.title.empty() ? listed.name : listed.title) + " (" + serverName + " MCP server)";
  info.description = listed.description.empty() ? "Tool " + listed.name + " of the MCP server " + serverName
                                                 : listed.description;
  info.kind = kindOf(listed);
  info.parametersSchema = listed.inputSchema;
  info.isOutputMarkdown = false;
  info.canUpdateOutput = true;
  return std::make_unique<McpTool>(std::move(info), std::move(server), serverName, listed.name, trusted);
}

}  // namespace lathe::tools::mcp
