// One sub-agent's run, from invoke_agent's call to its function response: the
// child session is assembled and shown (announced to an editor that shows
// child sessions, with the task as a message from the parent), runs its
// task under its limits (model requests, time, tokens) with one grace
// request after a limit, and ends with its report, or a clear error when it
// hit a limit, failed or was stopped. Cancelling the parent's turn cancels it;
// an editor that shows child sessions can also stop it alone. Runs on the
// call's worker.
#pragma once

#include <memory>
#include <string>

#include "engine/subagents/subagent_host.h"
#include "tools/core/tool.h"

namespace lathe::engine {

struct ChildTask {
  std::shared_ptr<const AgentDefinition> agent;
  std::string prompt;        // invoke_agent's
  std::string parentCallId;  // the call that started it
};

tools::ToolResult runChild(SubagentHost& host, const ChildTask& task, const CancelToken& cancel,
                           const tools::OutputSink& progress);

// A report as the person reads it: the investigator's object laid out, the
// generalist's response as it is, anything else as written.
std::string reportMarkdown(const std::string& report);

}  // namespace lathe::engine
