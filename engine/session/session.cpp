// The ReAct loop of one session.
#include "engine/session/session.h"

#include <algorithm>

#include "engine/session/editor_file_store.h"
#include "engine/session/system_prompt.h"
#include "tools/shell/background_processes.h"
#include "tools/builtin/builtin_tools.h"

namespace lathe::engine {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Built-ins, filtered by settings tools.core (only these) and tools.exclude.
tools::ToolRegistry makeRegistry(const tools::ToolContext& context, const AgentConfig& config) {
  std::vector<std::unique_ptr<tools::Tool>> builtins;
  builtins.push_back(tools::makeReadFileTool(context));
  builtins.push_back(tools::makeListDirectoryTool(context));
  builtins.push_back(tools::makeWriteFileTool(context));
  builtins.push_back(tools::makeReplaceTool(context));
  builtins.push_back(tools::makeGlobTool(context));
  builtins.push_back(tools::makeGrepSearchTool(context));
  builtins.push_back(tools::makeReadManyFilesTool(context));
  builtins.push_back(tools::makeOutlineTool(context));
  builtins.push_back(tools::makeRunShellCommandTool(context));
  builtins.push_back(tools::makeListBackgroundProcessesTool(context));
  builtins.push_back(tools::makeReadBackgroundOutputTool(context));
  tools::ToolRegistry registry;
  for (auto& tool : builtins) {
    if (!config.coreTools.empty() && !contains(config.coreTools, tool->name())) continue;
    if (contains(config.excludeTools, tool->name())) continue;
    (void)registry.add(std::move(tool));  // built-in names are unique
  }
  (void)registry.addAlias("search_file_content", "grep_search");  // Gemini CLI's older name
  return registry;
}

// What the session's tools share: its workspace, files, limits, shell options,
// data directory and background commands (ended when the session goes).
tools::ToolContext makeToolContext(const std::string& id, std::shared_ptr<const tools::Workspace> workspace,
                                   const AgentConfig& config, EditorClient& editor) {
  tools::ToolContext context;
  context.workspace = std::move(workspace);
  context.files = makeEditorFileStore(editor, id);
  context.limits = config.toolLimits;
  context.shell = config.shell;
  if (!config.dataDir.empty()) context.sessionDataDir = config.dataDir + "/" + id;
  context.background = std::make_shared<tools::shell::BackgroundProcesses>();
  return context;
}

std::vector<Part> partsFromPrompt(const std::vector<acp::ContentBlock>& blocks) {
  std::vector<Part> parts;
  for (const auto& block : blocks) {
    if (auto* text = std::get_if<acp::TextBlock>(&block)) {
      parts.push_back(Part::makeText(text->text));
    } else if (auto* link = std::get_if<acp::ResourceLinkBlock>(&block)) {
      parts.push_back(Part::makeText("[Referenced: " + link->uri + (link->name.empty() ? "" : " (" + link->name + ")") +
                                     "; read it with the tools if needed]"));
    } else if (auto* resource = std::get_if<acp::ResourceBlock>(&block)) {
      if (resource->text) {
        parts.push_back(Part::makeText("--- Content of " + resource->uri + " ---\n" + *resource->text +
                                       "\n--- End of " + resource->uri + " ---"));
      } else if (!resource->blob.empty()) {
        Part part;
        part.inlineData = InlineData{resource->mimeType, resource->blob};
        parts.push_back(std::move(part));
      }
    } else if (auto* media = std::get_if<acp::MediaBlock>(&block)) {
      Part part;
      part.inlineData = InlineData{media->mimeType, media->data};
      parts.push_back(std::move(part));
    }
  }
  return parts;
}

acp::StopReason stopReasonFor(const std::string& finishReason) {
  if (finishReason == "MAX_TOKENS") return acp::StopReason::max_tokens;
  if (finishReason == "SAFETY" || finishReason == "RECITATION" || finishReason == "BLOCKLIST" ||
      finishReason == "PROHIBITED_CONTENT" || finishReason == "SPII" || finishReason == "IMAGE_SAFETY") {
    return acp::StopReason::refusal;
  }
  return acp::StopReason::end_turn;
}

}  // namespace

Session::Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, const AgentConfig& config,
                 EditorClient& editor)
    : id_(std::move(id)),
      workspace_(std::move(workspace)),
      config_(config),
      editor_(editor),
      mode_(config.approvalMode),
      registry_(makeRegistry(makeToolContext(id_, workspace_, config, editor), config)),
      declarations_(registry_.declarations()),
      systemPrompt_(buildSystemPrompt(*workspace_)),
      scheduler_(registry_, editor, id_, mode_, configuredApprovals(config.allowedTools, config.excludeTools)) {}

void Session::appendUser(std::vector<Part> parts) {
  if (parts.empty()) return;
  // Consecutive user contents are merged so roles keep alternating.
  if (!history_.empty() && history_.back().role == Role::user) {
    for (auto& part : parts) history_.back().parts.push_back(std::move(part));
    return;
  }
  history_.push_back(Content{Role::user, std::move(parts)});
}

Result<ModelReply> Session::callModel(const CancelToken& cancel) {
  ModelRequest request;
  request.model = config_.model;
  request.systemInstruction = systemPrompt_;
  request.contents = &history_;
  request.functionDeclarations = declarations_;
  auto onChunk = [&](const ModelChunk& chunk) {
    for (const Part& part : chunk.parts) {
      if (!part.text || part.text->empty() || part.functionCall) continue;
      acp::MessageChunk message;
      message.role = part.thought ? acp::MessageChunk::Role::thought : acp::MessageChunk::Role::agent;
      message.text = *part.text;
      editor_.sendUpdate(id_, message);
    }
  };
  return config_.provider->stream(request, onChunk, cancel);
}

Result<acp::StopReason> Session::prompt(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel) {
  std::vector<Part> userParts = partsFromPrompt(blocks);
  if (userParts.empty()) return makeError(Errc::invalid_params, "params.prompt: the prompt has no usable content");
  const std::vector<Content> before = history_;
  appendUser(std::move(userParts));

  for (int request = 0;; ++request) {
    if (cancel.cancelled()) return acp::StopReason::cancelled;
    if (request >= config_.maxTurnRequests) return acp::StopReason::max_turn_requests;

    auto reply = callModel(cancel);
    if (!reply) {
      if (cancel.cancelled() || reply.error().code == Errc::cancelled) return acp::StopReason::cancelled;
      // Nothing happened yet: forget the prompt so the next one starts clean.
      if (request == 0) history_ = before;
      return reply.error();
    }
    if (reply->usage) {
      editor_.sendUpdate(id_, acp::UsageUpdate{reply->usage->totalTokens, config_.contextWindow});
    }

    Content modelContent{Role::model, {}};
    std::vector<FunctionCall> calls;
    for (Part& part : reply->content.parts) {
      if (part.functionCall) calls.push_back(*part.functionCall);
      // Thought text is shown, not replayed; a part with a signature must go back.
      if (part.thought && part.thoughtSignature.empty()) continue;
      modelContent.parts.push_back(std::move(part));
    }
    if (!modelContent.parts.empty()) history_.push_back(std::move(modelContent));
    if (calls.empty()) return stopReasonFor(reply->finishReason);

    appendUser(scheduler_.run(calls, cancel));
    if (cancel.cancelled()) return acp::StopReason::cancelled;
  }
}

}  // namespace lathe::engine
