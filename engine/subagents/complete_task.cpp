// complete_task.
#include "engine/subagents/complete_task.h"

#include <rapidjson/prettywriter.h>

namespace lathe::engine {
namespace {

std::string indented(const json::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string schemaOf(const AgentReport& report) {
  return "{\"type\":\"object\",\"properties\":{" + json::build([&](json::Writer& w) { json::str(w, report.name); }) +
         ":" + report.schema + "},\"required\":[" +
         json::build([&](json::Writer& w) { json::str(w, report.name); }) + "]}";
}

class CompleteTaskInvocation final : public tools::ToolInvocation {
 public:
  CompleteTaskInvocation(std::string report, std::function<void(std::string)> onComplete)
      : report_(std::move(report)), onComplete_(std::move(onComplete)) {}
  std::string description() const override { return "Completing the task and handing back the report"; }
  tools::ToolResult execute(const CancelToken&, const tools::OutputSink&) override {
    onComplete_(report_);
    return tools::ToolResult::text("Report submitted; the task is complete.", "Report submitted.");
  }

 private:
  std::string report_;
  std::function<void(std::string)> onComplete_;
};

class CompleteTaskTool final : public tools::Tool {
 public:
  CompleteTaskTool(const AgentReport& report, std::function<void(std::string)> onComplete)
      : Tool(tools::ToolInfo{
            .name = "complete_task",
            .displayName = "Complete Task",
            .description = "Hands your final report to the agent that started you and ends your task. This is the "
                           "only way to finish: call it once, alone, when your work is done. " + report.description,
            // It changes nothing outside the conversation, so it runs in plan mode and read-only agents too.
            .kind = tools::Kind::think,
            .parametersSchema = schemaOf(report)}),
        name_(report.name),
        onComplete_(std::move(onComplete)) {}

 protected:
  tools::BuildResult createInvocation(const json::Value& params) const override {
    const json::Value& value = params[name_.c_str()];
    std::string text = value.IsString() ? std::string(value.GetString(), value.GetStringLength()) : indented(value);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      return tools::invalidParams("params." + name_ + ": your report is empty; put your findings in it.");
    }
    return {std::make_unique<CompleteTaskInvocation>(std::move(text), onComplete_), std::nullopt};
  }

 private:
  std::string name_;
  std::function<void(std::string)> onComplete_;
};

}  // namespace

std::unique_ptr<tools::Tool> makeCompleteTaskTool(const AgentReport& report,
                                                  std::function<void(std::string report)> onComplete) {
  return std::make_unique<CompleteTaskTool>(report, std::move(onComplete));
}

}  // namespace lathe::engine
