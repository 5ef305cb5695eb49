// Running one sub-agent.
#include "engine/subagents/child_run.h"

#include <chrono>
#include <ctime>

#include "engine/subagents/child_clock.h"
#include "engine/subagents/child_editor.h"
#include "engine/subagents/child_instructions.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr std::chrono::seconds kGrace{60};  // the one request after a limit
constexpr size_t kTaskChars = 120;

std::string firstLine(const std::string& text) { return text::firstLine(text, kTaskChars); }

std::string today() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d", &local);
  return text;
}

// The model's last words, when the child answered without complete_task.
std::string lastModelText(const History& history) {
  const auto& contents = history.contents();
  if (contents.empty() || contents.back().role != Role::model) return "";
  std::string text;
  for (const Part& part : contents.back().parts) {
    if (part.text && !part.thought && !part.functionCall) text += *part.text;
  }
  return text;
}

enum class End { goal, maxTurns, maxTokens, timeout, stopped, cancelled, failed };

struct Ending {
  End end = End::failed;
  std::string report;  // goal: what it handed back
  std::string why;     // failed: the error
};

bool isLimit(End end) { return end == End::maxTurns || end == End::maxTokens || end == End::timeout; }

// Gemini CLI's names for how an agent ended (its terminate reasons).
const char* terminateReason(End end) {
  switch (end) {
    case End::goal: return "GOAL";
    case End::maxTurns: return "MAX_TURNS";
    case End::maxTokens: return "MAX_TOKENS";
    case End::timeout: return "TIMEOUT";
    case End::stopped:
    case End::cancelled: return "ABORTED";
    case End::failed: return "ERROR";
  }
  return "ERROR";
}

std::string limitWords(End end, const AgentDefinition& agent) {
  switch (end) {
    case End::maxTurns: return "its limit of " + std::to_string(agent.maxTurns) + " model requests";
    case End::maxTokens: return "its limit of " + std::to_string(agent.maxTokens) + " tokens";
    case End::timeout: return "its time limit of " + std::to_string(agent.maxTimeMinutes) + " minutes";
    default: return "";
  }
}

Ending endingOf(const Result<acp::StopReason>& result, const ChildLimits& limits, const ChildClock& clock,
                const CancelToken& own, const Session& child) {
  if (auto report = limits.report()) return {End::goal, std::move(*report), ""};
  const bool timedOut = clock.expired() && !own.cancelled();
  if (!result) {
    if (timedOut) return {End::timeout, "", ""};
    if (own.cancelled()) return {End::stopped, "", ""};
    return {End::failed, "", result.error().message};
  }
  switch (*result) {
    case acp::StopReason::end_turn: {
      std::string text = lastModelText(child.history());
      if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        return {End::failed, "", "it ended without a report (no complete_task call and no answer)"};
      }
      return {End::goal, std::move(text), ""};
    }
    case acp::StopReason::max_turn_requests: return {End::maxTurns, "", ""};
    case acp::StopReason::max_tokens:
      if (limits.tokensSpent()) return {End::maxTokens, "", ""};
      return {End::failed, "", "the model's reply was cut off at its output limit"};
    case acp::StopReason::cancelled: return {timedOut ? End::timeout : End::stopped, "", ""};
    case acp::StopReason::refusal: return {End::failed, "", "the model refused to go on"};
  }
  return {End::failed, "", "it ended unexpectedly"};
}

std::string graceMessage(End end, const AgentDefinition& agent) {
  return "You have reached " + limitWords(end, agent) +
         ". Call complete_task now, with your best report of what you found so far, and say that your work was cut "
         "short. Do not call any other tool.";
}

acp::SubagentState idleState(const Ending& ending, const std::string& failure) {
  acp::SubagentState state;
  state.kind = acp::SubagentState::Kind::idle;
  switch (ending.end) {
    case End::goal: state.stopReason = acp::StopReason::end_turn; break;
    case End::maxTurns: state.stopReason = acp::StopReason::max_turn_requests; break;
    case End::maxTokens: state.stopReason = acp::StopReason::max_tokens; break;
    case End::stopped:
    case End::cancelled: state.stopReason = acp::StopReason::cancelled; break;
    case End::timeout:
    case End::failed: state.error = failure; break;
  }
  return state;
}

// The function response and what the person sees on the parent's call.
tools::ToolResult resultFor(const Ending& ending, const AgentDefinition& agent, const std::string& lastMessage,
                            size_t steps) {
  const std::string name = "Subagent '" + agent.name + "'";
  if (ending.end == End::goal) {
    std::string forModel = name + " finished.\nTermination Reason: GOAL\nResult:\n" + ending.report;
    std::string shown = "**" + agent.displayName + "** finished after " + std::to_string(steps) +
                        (steps == 1 ? " step.\n\n" : " steps.\n\n") + reportMarkdown(ending.report);
    return tools::ToolResult::text(std::move(forModel), std::move(shown));
  }
  if (ending.end == End::cancelled) {
    return tools::ToolResult::failure(tools::ErrorType::cancelled, "Cancelled: the user stopped the turn.");
  }
  std::string why = ending.end == End::stopped  ? "the user stopped it before it finished"
                    : ending.end == End::failed ? "it failed: " + ending.why
                                                : "it reached " + limitWords(ending.end, agent) + " before it finished";
  std::string message = name + " did not finish: " + why + " (" + terminateReason(ending.end) + ").";
  if (!lastMessage.empty()) message += "\nIts last message:\n" + lastMessage;
  return tools::ToolResult::failure(tools::ErrorType::execution_failed, std::move(message));
}

// Removes the child from the running ones however the run ends.
struct Registered {
  ChildSessions& running;
  std::string id;
  Registered(ChildSessions& r, std::string childId, CancelToken token) : running(r), id(std::move(childId)) {
    running.add(id, std::move(token));
  }
  ~Registered() { running.remove(id); }
};

// The child follows its parent's mode while it runs.
struct Following {
  ChildModes& modes;
  Session* child;
  Following(ChildModes& m, Session* c) : modes(m), child(c) { modes.add(child); }
  ~Following() { modes.remove(child); }
};

}  // namespace

tools::ToolResult runChild(SubagentHost& host, const ChildTask& task, const CancelToken& cancel,
                           const tools::OutputSink& progress) {
  const AgentDefinition& agent = *task.agent;
  Session& parent = host.parent;
  const std::string id = parent.id() + "." + (task.parentCallId.empty() ? agent.name : task.parentCallId);
  const std::string model = agent.model.value_or(parent.model());
  AgentInputs inputs{{agent.inputName, task.prompt}, {"today", today()}, {"activeModel", model}};
  auto query = fillPlaceholders(agent.query, inputs);
  Status usable = query ? Status{} : Status(query.error());
  if (auto system = fillPlaceholders(agent.systemPrompt, inputs); usable && !system) usable = system.error();
  if (!usable) {
    return tools::ToolResult::failure(tools::ErrorType::execution_failed,
                                      "Subagent '" + agent.name + "' (" + originOf(agent) + ") cannot start: " +
                                          usable.error().message);
  }

  CancelToken own = cancel.child();  // the child alone, when an editor stops it
  Registered registered(*host.running, id, own);
  ChildClock clock(own, std::chrono::minutes(agent.maxTimeMinutes));
  const bool exposed = host.editor.capabilities().subagents;
  auto toParent = [&parent](const acp::SessionUpdate& update) { parent.sendUpdate(update); };
  ChildEditor editor({id, parent.id(), task.parentCallId, agent.displayName, firstLine(task.prompt), exposed,
                      &host.editor, toParent, host.record, progress, &clock});
  auto limits = std::make_shared<ChildLimits>(agent.maxTokens);
  ChildSpec spec{id, task.agent, model, &editor,
                 [agent = task.agent, inputs](const PromptFeatures& features) {
                   return childInstructions(*agent, inputs, features);
                 },
                 limits};
  std::shared_ptr<Session> child = host.makeChild(spec);
  Following following(*host.modes, child.get());
  child->setMode(parent.mode());  // a change since its config was taken holds too

  if (exposed) {
    acp::SubagentUpdate announce;
    announce.sessionId = id;
    announce.title = agent.displayName;
    announce.description = firstLine(task.prompt);
    announce.cancellable = true;
    announce.state = acp::SubagentState{};
    announce.cwd = parent.workspace().cwd();
    announce.toolCallId = task.parentCallId;
    toParent(announce);
    // The task, as a message from the parent on the child's stream.
    const std::string messageId = "task_" + id;
    editor.sendUpdate(id, acp::SessionMessage{messageId, parent.id(), id});
    editor.sendUpdate(id, acp::SessionMessageChunk{messageId, task.prompt});
  }

  auto result = child->prompt({acp::TextBlock{*query}}, clock.token());
  Ending ending = endingOf(result, *limits, clock, own, *child);
  if (isLimit(ending.end) && !cancel.cancelled()) {
    limits->beginGrace();
    ChildClock grace(own, kGrace);
    (void)child->prompt({acp::TextBlock{graceMessage(ending.end, agent)}}, grace.token());
    if (auto report = limits->report()) ending = {End::goal, std::move(*report), ""};
  }
  if (cancel.cancelled() && ending.end != End::goal) ending = {End::cancelled, "", ""};

  tools::ToolResult outcome = resultFor(ending, agent, editor.lastMessage(), editor.steps());
  if (exposed) {
    acp::SubagentUpdate done;
    done.sessionId = id;
    done.state = idleState(ending, outcome.error ? outcome.error->message : "");
    toParent(done);
  }
  child->close();
  return outcome;
}

std::string reportMarkdown(const std::string& report) {
  auto doc = json::parse(report);
  if (!doc || !doc->IsObject()) return report;
  if (auto response = json::getStr(*doc, "response"); response && doc->MemberCount() == 1) return *response;
  auto summary = json::getStr(*doc, "SummaryOfFindings");
  if (!summary) return report;
  std::string out = *summary + "\n";
  const json::Value* locations = json::find(*doc, "RelevantLocations");
  if (locations && locations->IsArray() && !locations->Empty()) {
    out += "\n**Key files**\n";
    for (const auto& location : locations->GetArray()) {
      out += "\n- `" + json::getStr(location, "FilePath").value_or("?") + "`: " +
             json::getStr(location, "Reasoning").value_or("");
      const json::Value* symbols = json::find(location, "KeySymbols");
      if (!symbols || !symbols->IsArray() || symbols->Empty()) continue;
      out += " (";
      bool first = true;
      for (const auto& symbol : symbols->GetArray()) {
        if (!symbol.IsString()) continue;
        out += std::string(first ? "" : ", ") + "`" + symbol.GetString() + "`";
        first = false;
      }
      out += ")";
    }
    out += "\n";
  }
  return out;
}

}  // namespace lathe::engine
