// invoke_agent.
#include "engine/subagents/invoke_agent.h"

#include "engine/subagents/child_run.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "agent_name": {"type": "string", "description": "The name of the sub-agent to start."},
    "prompt": {"type": "string", "description": "The whole task for the sub-agent: the goal, the context and background it needs, the questions to answer and the form of the report you want. It sees nothing of this conversation but this text, and cannot ask back."}
  },
  "required": ["agent_name", "prompt"]
})";

class InvokeAgentInvocation final : public tools::ToolInvocation {
 public:
  InvokeAgentInvocation(std::shared_ptr<SubagentHost> host, ChildTask task)
      : host_(std::move(host)), task_(std::move(task)) {}

  std::string description() const override { return task_.agent->name + ": " + text::firstLine(task_.prompt, 80); }
  void setCallId(const std::string& id) override { task_.parentCallId = id; }
  tools::ToolResult execute(const CancelToken& cancel, const tools::OutputSink& progress) override {
    return runChild(*host_, task_, cancel, progress);
  }

 private:
  std::shared_ptr<SubagentHost> host_;
  ChildTask task_;
};

class InvokeAgentTool final : public tools::Tool {
 public:
  explicit InvokeAgentTool(std::shared_ptr<SubagentHost> host)
      : Tool(tools::ToolInfo{.name = "invoke_agent",
                             .displayName = "Invoke Subagent",
                             .description = "Starts a sub-agent on a task and returns its report. The sub-agents "
                                            "and what each is for are listed in your instructions.",
                             .kind = tools::Kind::agent,
                             .parametersSchema = kSchema,
                             .isOutputMarkdown = true,
                             .canUpdateOutput = true}),
        host_(std::move(host)) {}

 protected:
  tools::BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string name = r.str("agent_name");
    std::string prompt = r.str("prompt");
    if (!r.ok()) return tools::invalidParams(r.error().message);
    auto agent = host_->catalog->find(name);
    if (!agent) {
      std::vector<std::string> names;
      for (const auto& known : host_->catalog->available()) names.push_back(known->name);
      return tools::invalidParams("Subagent '" + name + "' not found. Available sub-agents: " +
                                  (names.empty() ? "none" : text::join(names, ", ")) + ".");
    }
    if (prompt.find_first_not_of(" \t\r\n") == std::string::npos) {
      return tools::invalidParams("params.prompt: give the sub-agent its whole task; the prompt is empty.");
    }
    return {std::make_unique<InvokeAgentInvocation>(host_, ChildTask{std::move(agent), std::move(prompt), ""}),
            std::nullopt};
  }

 private:
  std::shared_ptr<SubagentHost> host_;
};

}  // namespace

std::unique_ptr<tools::Tool> makeInvokeAgentTool(std::shared_ptr<SubagentHost> host) {
  return std::make_unique<InvokeAgentTool>(std::move(host));
}

}  // namespace lathe::engine
