// The ReAct loop of one session.
#include "engine/session/session.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <span>

#include "engine/session/session_context.h"
#include "engine/model/generation_settings.h"
#include "engine/model/model_routing.h"
#include "engine/model/one_shot_adapter.h"
#include "engine/session/editor_file_store.h"
#include "engine/session/message_id.h"
#include "engine/session/notice_card.h"
#include "engine/session/system_prompt.h"
#include "tools/builtin/builtin_tools.h"
#include "tools/plan/plan_tools.h"
#include "tools/skills/skill_tools.h"
#include "protocol/base/json.h"
#include "protocol/base/log.h"

namespace lathe::engine {
namespace {

constexpr std::chrono::milliseconds kMcpStartWait{5000};

// The person, asked through the session's editor (elicitation/create).
class EditorAsker final : public tools::Asker {
 public:
  EditorAsker(EditorClient& editor, std::string sessionId) : editor_(editor), sessionId_(std::move(sessionId)) {}
  bool offersForm() const override { return editor_.capabilities().elicitationForm; }
  bool offersUrl() const override { return editor_.capabilities().elicitationUrl; }
  Result<acp::ElicitationResponse> ask(acp::ElicitationRequest request, const CancelToken& cancel) override {
    request.sessionId = sessionId_;
    return editor_.elicit(request, cancel);
  }
  void completed(const std::string& elicitationId) override { editor_.elicitationComplete(elicitationId); }

 private:
  EditorClient& editor_;
  std::string sessionId_;
};

// The editor's terminals (terminal/*), for this session's commands.
class EditorTerminals final : public tools::TerminalHost {
 public:
  EditorTerminals(EditorClient& editor, std::string sessionId) : editor_(editor), sessionId_(std::move(sessionId)) {}
  Result<std::string> create(acp::CreateTerminalRequest request, const CancelToken& cancel) override {
    request.sessionId = sessionId_;
    return editor_.createTerminal(request, cancel);
  }
  Result<std::optional<acp::TerminalExitStatus>> waitForExit(const std::string& terminalId,
                                                             std::chrono::milliseconds timeout,
                                                             const CancelToken& cancel) override {
    auto exit = editor_.waitForTerminalExit(ref(terminalId), timeout, cancel);
    if (!exit && exit.error().code == Errc::timeout && !cancel.cancelled()) return std::optional<acp::TerminalExitStatus>{};
    if (!exit) return exit.error();
    return std::optional<acp::TerminalExitStatus>{std::move(exit).value()};
  }
  Result<acp::TerminalOutput> output(const std::string& terminalId) override {
    return editor_.terminalOutput(ref(terminalId));
  }
  Status kill(const std::string& terminalId) override { return editor_.endTerminal(ref(terminalId), false); }
  Status release(const std::string& terminalId) override { return editor_.endTerminal(ref(terminalId), true); }

 private:
  acp::TerminalRef ref(const std::string& terminalId) const { return {sessionId_, terminalId}; }
  EditorClient& editor_;
  std::string sessionId_;
};

// What every tool of the session shares: its workspace, files, limits and data directory.
tools::ToolContext makeToolContext(const std::string& id, std::shared_ptr<const tools::Workspace> workspace,
                                   const AgentConfig& config, EditorClient& editor) {
  tools::ToolContext context;
  context.workspace = std::move(workspace);
  context.files = makeEditorFileStore(editor, id);
  context.limits = config.toolLimits;
  context.web = config.webFetch;
  if (!config.dataDir.empty()) context.sessionDataDir = config.dataDir + "/" + id;
  context.globalMemoryFile = tools::globalMemoryFile(config.memory);
  // Through the session's editor: the plan is recorded and replayed on load.
  context.showPlan = [&editor, id](const acp::PlanUpdate& plan) { editor.sendUpdate(id, plan); };
  if (editor.capabilities().canElicit()) context.asker = std::make_shared<EditorAsker>(editor, id);
  if (editor.capabilities().terminal) context.terminals = std::make_shared<EditorTerminals>(editor, id);
  return context;
}

// Where plan mode keeps this session's plans: the folder settings name
// (general.plan.directory, inside the workspace), else the session's data
// folder; null when there is neither. `problem` says why a named one is not used.
std::shared_ptr<tools::PlanMode> planModeFor(const std::string& id, const tools::Workspace& workspace,
                                             const AgentConfig& config, std::string& problem) {
  std::string folder;
  if (!config.planDirectory.empty()) {
    auto named = workspace.resolve(config.planDirectory);
    if (named) {
      folder = *named;
    } else {
      problem = "Settings general.plan.directory: \"" + config.planDirectory + "\" is not a folder inside the "
                "workspace (" + named.error().message + "); plans are kept in the session's data folder.";
    }
  }
  if (folder.empty() && !config.dataDir.empty()) folder = config.dataDir + "/" + id + "/plans";
  if (folder.empty()) return nullptr;
  return std::make_shared<tools::PlanMode>(std::move(folder), workspace.cwd());
}

// Consecutive text blocks are one text: editors split a message where the
// person pasted or attached, and the words on each side must stay apart.
constexpr std::string_view kTextBlockSeparator = "\n\n";

std::vector<Part> partsFromPrompt(std::span<const acp::ContentBlock> blocks) {
  std::vector<Part> parts;
  bool lastWasText = false;
  for (const auto& block : blocks) {
    const bool text = std::holds_alternative<acp::TextBlock>(block);
    if (text && lastWasText) {
      *parts.back().text += std::string(kTextBlockSeparator) + std::get<acp::TextBlock>(block).text;
      continue;
    }
    lastWasText = text;
    if (text) {
      parts.push_back(Part::makeText(std::get<acp::TextBlock>(block).text));
    } else if (auto* link = std::get_if<acp::ResourceLinkBlock>(&block)) {
      parts.push_back(Part::makeText("[Referenced: " + link->uri + (link->name.empty() ? "" : " (" + link->name + ")") +
                                     "; read it with the tools if needed]"));
    } else if (auto* resource = std::get_if<acp::ResourceBlock>(&block)) {
      if (resource->text) {
        // On lines of its own: the text around it must not run into it.
        parts.push_back(Part::makeText("\n--- Content of " + resource->uri + " ---\n" + *resource->text +
                                       "\n--- End of " + resource->uri + " ---\n"));
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

acp::StopReason stopReasonFor(FinishReason reason) {
  switch (reason) {
    case FinishReason::max_tokens: return acp::StopReason::max_tokens;
    case FinishReason::safety: return acp::StopReason::refusal;
    default: return acp::StopReason::end_turn;
  }
}

// The person's own words, offered to the hooks so a recording can replay
// them; `shown`: the editor is shown them too (a prompt that waited).
void recordPrompt(ObservedEditor& editor, const std::string& sessionId, const std::vector<acp::ContentBlock>& blocks,
                  bool shown) {
  std::string words;
  for (const auto& block : blocks) {
    if (auto* text = std::get_if<acp::TextBlock>(&block)) {
      words += (words.empty() ? "" : std::string(kTextBlockSeparator)) + text->text;
    }
  }
  if (words.empty()) return;
  acp::MessageChunk chunk{acp::MessageChunk::Role::user, words, newMessageId()};
  if (shown) return editor.sendUpdate(sessionId, chunk);
  editor.record(chunk);
}

// How the model reads what the person steered with, before their words.
constexpr std::string_view kSteerPreface =
    "The person sent this while you were working. Take it into account from here on: change course only as far "
    "as it asks, keep the rest of the work going, and say in a sentence how you adjusted.";
// What the session's settings let run unasked, and whether anyone can be asked.
SessionApprovals approvalsOf(const AgentConfig& config) {
  SessionApprovals approvals = configuredApprovals(config.allowedTools, config.excludeTools,
                                                   unaskedMcpServers(config.programs, config.mcpAllowed));
  approvals.interactive = config.interactive;
  return approvals;
}

// The reply keeps the answer the person was shown: when a hook rewrote the
// streamed text, the reply's text parts become that text (in the place of
// the first, keeping its signature), its calls and thoughts untouched.
void keepShownAnswer(Content& reply, const std::string& shown) {
  std::string replied;
  for (const Part& part : reply.parts) {
    if (part.text && !part.thought && !part.functionCall) replied += *part.text;
  }
  if (replied == shown) return;
  std::vector<Part> parts;
  bool placed = false;
  for (Part& part : reply.parts) {
    if (!part.text || part.thought || part.functionCall) {
      parts.push_back(std::move(part));
    } else if (!placed) {
      part.text = shown;
      parts.push_back(std::move(part));
      placed = true;
    }
  }
  if (!placed && !shown.empty()) parts.insert(parts.begin(), Part::makeText(shown));
  reply.parts = std::move(parts);
}

Part responsePart(const FunctionCall& call, const std::string& error) {
  Part part;
  part.functionResponse = FunctionResponse{
      call.id, call.name, json::Raw{json::buildObject([&](json::Writer& w) { json::put(w, "error", error); })}};
  return part;
}

}  // namespace

Session::Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, const AgentConfig& config,
                 EditorClient& editor)
    : id_(std::move(id)),
      workspace_(std::move(workspace)),
      config_(config),
      editor_(editor, hooks_),
      mode_(config.approvalMode),
      model_(config.model),
      meter_(std::make_shared<UsageMeter>(config.pricing)),
      provider_(config.provider ? std::make_shared<MeteredProvider>(config.provider, meter_) : nullptr),
      registry_(tools::ToolFilter{config.coreTools, config.excludeTools}),
      memory_(std::make_shared<ProjectMemory>(workspace_, config.memory)),
      scheduler_(registry_, editor_, id_, mode_, approvalsOf(config)),
      mcp_(registry_, workspace_->roots()) {
  auto context = makeToolContext(id_, workspace_, config, editor_);
  plan_ = planModeFor(id_, *workspace_, config, planNotice_);
  if (plan_) plan_->setActive(mode_.load() == ApprovalMode::plan);
  context.plan = plan_;
  if (!config.dataDir.empty()) {
    // One shadow repository per workspace folder beside the sessions' folders, shared by its sessions.
    const std::string snapshots = std::filesystem::path(config.dataDir).parent_path().string() + "/snapshots";
    changes_ = std::make_shared<tools::ChangeRecorder>(workspace_, snapshots, config.toolLimits.maxFileBytes);
    context.changes = changes_;
  }
  // Web tools ask the session's current model; they live in registry_, so never outlive this session.
  context.model = std::make_shared<OneShotAdapter>(provider_, [this] { return model(); });
  context.readableFolders = std::make_shared<tools::ReadableFolders>();
  context.skills = skills_;
  tools::registerBuiltinTools(registry_, context, config.shell);
  mcp_.setAsker(context.asker);
  scheduler_.setTerminalOutput(editor.capabilities().terminalOutput);
  mcp_.setNotifier([this](const acp::Notice& notice) { notify(notice); });
  toolContext_ = std::move(context);
  scheduler_.setContextSource([memory = memory_](const std::vector<std::string>& paths) { return memory->contextFor(paths); });
  scheduler_.setResponseShaper([this](FunctionResponse& response, size_t roundSize) {
    for (const auto& hook : hooks_) hook->onToolResponse(response, roundSize);
  });
}

void Session::setSkills(std::vector<tools::Skill> skills) {
  skills_->assign(std::move(skills));
  registry_.remove("activate_skill");
  tools::registerSkillTools(registry_, toolContext_);
}

std::string Session::activateSkill(const tools::Skill& skill) { return tools::activateSkill(toolContext_, skill); }

void Session::watchFolders(std::vector<std::string> folders, std::function<void()> onChange) {
  folderWatch_ = exec::FolderWatch::start(exec::Executor::shared(), std::move(folders), std::move(onChange));
}

void Session::notifyOnce(const acp::Notice& notice) {
  {
    std::lock_guard lock(toldMutex_);
    if (!told_.insert(notice.title + "\n" + notice.description).second) return;
  }
  notify(notice);
}

ProjectMemory::Loaded Session::refreshMemory(const CancelToken& cancel) {
  ProjectMemory::Loaded loaded = memory_->load(cancel);
  contextFiles_ = memory_->promptSection();
  return loaded;
}

Session::Session(std::string id, std::shared_ptr<const tools::Workspace> workspace,
                 std::shared_ptr<const AgentConfig> config, EditorClient& editor)
    : Session(std::move(id), std::move(workspace), *config, editor) {
  ownConfig_ = std::move(config);  // config_ refers to it; the argument kept it alive until now
}

Session::Session(std::string id, std::shared_ptr<const tools::Workspace> workspace,
                 std::shared_ptr<const AgentConfig> config, EditorClient& editor, InheritedParts inherited)
    : id_(std::move(id)),
      workspace_(std::move(workspace)),
      ownConfig_(std::move(config)),
      config_(*ownConfig_),
      editor_(editor, hooks_),
      mode_(config_.approvalMode),
      model_(config_.model),
      meter_(std::make_shared<UsageMeter>(config_.pricing)),
      provider_(inherited.provider ? std::make_shared<MeteredProvider>(std::move(inherited.provider), meter_) : nullptr),
      registry_(tools::ToolFilter{config_.coreTools, config_.excludeTools}),
      memory_(std::move(inherited.memory)),
      scheduler_(registry_, editor_, id_, mode_, std::move(inherited.approvals)),
      mcp_(registry_, workspace_->roots()) {
  for (auto& [tool, source] : inherited.tools) (void)registry_.addShared(std::move(tool), std::move(source));
  contextFiles_ = memory_->loaded() ? memory_->promptSection() : "";
  scheduler_.setResponseShaper([this](FunctionResponse& response, size_t roundSize) {
    for (const auto& hook : hooks_) hook->onToolResponse(response, roundSize);
  });
}

std::string Session::chosenModel() const {
  std::lock_guard lock(modelMutex_);
  return model_;
}

std::string Session::model() const {
  std::lock_guard lock(modelMutex_);
  return turnModel_.empty() ? concreteModel(model_) : turnModel_;
}

void Session::routePrompt(const CancelToken& cancel) {
  const AutoModel* chosen = config_.routeAutoModels ? findAutoModel(chosenModel()) : nullptr;
  std::string routed = chosen ? engine::routePrompt(*provider_, *chosen, history_.contents(), cancel) : "";
  std::lock_guard lock(modelMutex_);
  turnModel_ = std::move(routed);
}

void Session::setModel(std::string model) {
  bool effortDropped = false;
  {
    std::lock_guard lock(modelMutex_);
    model_ = model;
    turnModel_.clear();
    const auto offered = effortsOf(concreteModel(model_));
    effortDropped = effort_ != Effort::standard && std::find(offered.begin(), offered.end(), effort_) == offered.end();
    if (effortDropped) effort_ = Effort::standard;
  }
  for (const auto& hook : hooks_) hook->onModelChanged(model);
  if (effortDropped) {
    for (const auto& hook : hooks_) hook->onEffortChanged(toString(Effort::standard));
  }
}

Effort Session::effort() const {
  std::lock_guard lock(modelMutex_);
  return effort_;
}

void Session::setEffort(Effort effort) {
  {
    std::lock_guard lock(modelMutex_);
    const auto offered = effortsOf(concreteModel(model_));
    if (std::find(offered.begin(), offered.end(), effort) == offered.end()) effort = Effort::standard;
    effort_ = effort;
  }
  for (const auto& hook : hooks_) hook->onEffortChanged(toString(effort));
}

std::optional<acp::Cost> Session::cost() const {
  auto dollars = meter_->cost();
  if (!dollars) return std::nullopt;
  return acp::Cost{*dollars, "USD"};
}

void Session::notify(const acp::Notice& notice) { showNotice(editor_.unobserved(), id_, notice); }

void Session::setMode(ApprovalMode mode) {
  mode_ = mode;
  if (plan_) plan_->setActive(mode == ApprovalMode::plan);
  for (const auto& hook : hooks_) hook->onModeChanged(mode);
}

void Session::editorReady() {
  for (const auto& hook : hooks_) hook->onEditorReady();
}

void Session::close() {
  folderWatch_.stop();  // nothing changes in a closed session
  for (const auto& hook : hooks_) hook->onClose();
}

void Session::beforeCompression(bool onDemand, const CancelToken& cancel) {
  for (const auto& hook : hooks_) hook->beforeCompression(onDemand, cancel);
}

const std::vector<tools::ToolDeclaration>& Session::declarations() {
  const ApprovalMode mode = mode_.load();
  if (uint64_t now = registry_.generation(); now != declarationsGeneration_ || mode != declarationsMode_) {
    declarations_ = registry_.declarations();
    tools::shapeForPlanMode(declarations_, plan_.get(), mode == ApprovalMode::yolo);
    declarationsGeneration_ = now;
    declarationsMode_ = mode;
  }
  return declarations_;
}

void Session::flushMcpNotices() {
  for (auto& notice : mcp_.takeNotices()) {
    // Editors without notices are told as before, in the conversation.
    if (editor_.capabilities().notices) {
      notify(acp::Notice{acp::NoticeSeverity::warning, "MCP server problem", notice});
    } else {
      editor_.sendUpdate(id_, acp::MessageChunk{acp::MessageChunk::Role::agent, "⚠️ " + notice + "\n\n"});
    }
  }
}

acp::StopReason Session::stopWith(const TurnStop& stop) {
  if (!stop.message.empty()) editor_.sendUpdate(id_, acp::MessageChunk{acp::MessageChunk::Role::agent, stop.message});
  return stop.reason;
}

std::string Session::systemPrompt() {
  PromptFeatures features;
  for (const auto& declaration : declarations()) features.tools.insert(declaration.name);
  features.planMode = mode_.load() == ApprovalMode::plan;
  if (plan_) features.plansFolder = plan_->directory();
  features.sandbox = config_.shell.sandbox;
  features.contextFiles = contextFiles_;
  if (subagentList_) features.subagents = subagentList_();
  if (features.tools.contains("activate_skill")) features.skills = skills_->enabled();
  return instructions_ ? instructions_(features) : buildSystemPrompt(features);
}

Result<ModelReply> Session::callModel(const CancelToken& cancel, std::optional<TurnStop>& stop) {
  ModelRequest request;
  request.model = model();
  request.contents = &history_.contents();
  request.tools = &declarations();
  request.systemInstruction = systemPrompt();
  request.config = generationFor(request.model, config_.generation);
  applyEffort(request.config, request.model, effort());
  // An unreachable or busy server is retried for a while: the person hears
  // why, as it happens, in a notice that is not history and is never replayed.
  request.onRetry = [this](const std::string& notice) {
    notify(acp::Notice{acp::NoticeSeverity::warning, "Lathe is retrying the model request", notice});
  };
  RequestRevision revision;
  for (const auto& hook : hooks_) {
    if ((stop = hook->reviseRequest(request, revision, cancel))) return ModelReply{};
  }
  const std::string messageId = newMessageId();  // every chunk of this reply
  CancelToken call = cancel.child();  // a hook's stop ends this stream only
  std::string answer;  // the answer's text as shown, after the hooks revised it
  auto onChunk = [&](const ModelChunk& streamed) {
    ModelChunk chunk = streamed;
    for (const auto& hook : hooks_) {
      if (stop) break;
      if ((stop = hook->reviseChunk(chunk, call))) call.cancel();
    }
    for (const auto& hook : hooks_) {
      if (stop) break;
      if ((stop = hook->onChunk(chunk))) call.cancel();
    }
    if (stop) return;
    for (const Part& part : chunk.parts) {
      if (!part.text || part.text->empty() || part.functionCall) continue;
      auto role = part.thought ? acp::MessageChunk::Role::thought : acp::MessageChunk::Role::agent;
      if (!part.thought) answer += *part.text;
      editor_.sendUpdate(id_, acp::MessageChunk{role, *part.text, messageId});
    }
  };
  if (revision.reply) {
    // Answered without the model: shown as if streamed.
    onChunk(ModelChunk{revision.reply->content.parts, revision.reply->finishReason, std::nullopt, {}, ""});
    return std::move(*revision.reply);
  }
  auto reply = provider_->stream(request, onChunk, call);
  if (reply && !stop) keepShownAnswer(reply->content, answer);
  return reply;
}

std::vector<Part> Session::runCalls(const std::vector<FunctionCall>& calls, const CancelToken& cancel,
                                    std::optional<TurnStop>& stop) {
  std::vector<CallVerdict> verdicts;
  std::vector<bool> runs;
  std::vector<FunctionCall> allowed;
  for (const FunctionCall& call : calls) {
    CallVerdict verdict;
    for (const auto& hook : hooks_) {
      if (verdict.action != CallVerdict::Action::run || stop) break;
      verdict = hook->onFunctionCall(call);
    }
    if (verdict.action == CallVerdict::Action::stop && !stop) stop = TurnStop{verdict.stopReason, verdict.message};
    runs.push_back(verdict.action == CallVerdict::Action::run && !stop);
    if (runs.back()) allowed.push_back(call);
    verdicts.push_back(std::move(verdict));
  }
  std::vector<Part> ran = allowed.empty() ? std::vector<Part>{} : scheduler_.run(allowed, cancel, calls.size());
  // Every call is answered, in call order; the scheduler's extra parts (inline data) follow.
  std::vector<Part> parts;
  size_t next = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (runs[i]) {
      parts.push_back(std::move(ran[next++]));
    } else {
      std::string why = verdicts[i].message.empty() ? "Not run: the turn was stopped." : verdicts[i].message;
      parts.push_back(responsePart(calls[i], why));
    }
  }
  for (size_t k = allowed.size(); k < ran.size(); ++k) parts.push_back(std::move(ran[k]));
  return parts;
}

Result<acp::StopReason> Session::prompt(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel,
                                        bool echo) {
  Result<acp::StopReason> result = makeError(Errc::internal, "the turn ended unexpectedly");
  (void)meter_->takeSinceLast();  // what ran between turns (a title) is not this turn's
  {
    std::lock_guard lock(steerMutex_);
    steerable_ = true;
  }
  if (!planNotice_.empty()) notify({acp::NoticeSeverity::warning, "Plans folder not used", std::exchange(planNotice_, {})});
  try {
    // Context files load on the turn's thread, never on the thread that made the session.
    if (!memory_->loaded()) refreshMemory(cancel);
    result = runTurn(blocks, cancel, echo);
    if (result && *result != acp::StopReason::cancelled && !cancel.cancelled()) {
      for (const auto& hook : hooks_) hook->afterTurn(history_, cancel);
    }
  } catch (const std::exception& e) {
    result = makeError(Errc::internal, std::string("internal error during the turn: ") + e.what());
  }
  std::vector<std::vector<acp::ContentBlock>> unread;
  {
    std::lock_guard lock(steerMutex_);
    steerable_ = false;
    unread = std::exchange(steers_, {});
  }
  // A cancel drops them with the turn; otherwise the person learns they were not read.
  if (!unread.empty() && !(result && *result == acp::StopReason::cancelled) && !cancel.cancelled()) {
    notify(acp::Notice{acp::NoticeSeverity::warning, "Lathe did not read what you added",
                       "The turn ended before its next model request, so the model never saw it. Send it again "
                       "as a prompt."});
  }
  turnUsage_.reset();
  if (auto used = meter_->takeSinceLast()) {
    turnUsage_ = acp::TurnUsage{used->promptTokens, used->candidatesTokens, used->thoughtsTokens, used->cachedTokens,
                                used->totalTokens};
  }
  // Every turn ends here, whatever went wrong above (the recorder keeps it).
  for (const auto& hook : hooks_) {
    try {
      hook->onTurnEnded(history_, result);
    } catch (const std::exception& e) {
      log(LogLevel::error, std::string("a hook failed at the end of a turn: ") + e.what());
    }
  }
  return result;
}

bool Session::steer(std::vector<acp::ContentBlock> blocks) {
  std::lock_guard lock(steerMutex_);
  if (!steerable_) return false;
  steers_.push_back(std::move(blocks));
  return true;
}

Status Session::joinSteers() {
  std::vector<std::vector<acp::ContentBlock>> steers;
  {
    std::lock_guard lock(steerMutex_);
    steers = std::exchange(steers_, {});
  }
  for (const auto& blocks : steers) {
    std::vector<Part> parts = partsFromPrompt(blocks);
    if (parts.empty()) continue;
    parts.insert(parts.begin(), Part::makeText(std::string(kSteerPreface)));
    if (auto status = history_.appendUser(std::move(parts)); !status) return status;
    recordPrompt(editor_, id_, blocks, false);  // where it joined, for the replay
  }
  return {};
}

bool Session::endSteering() {
  std::lock_guard lock(steerMutex_);
  if (!steers_.empty()) return false;
  steerable_ = false;
  return true;
}

Result<acp::StopReason> Session::runTurn(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel,
                                         bool echo) {
  std::vector<Part> userParts;
  ClaimedPrompt claimed;
  for (const auto& hook : hooks_) {
    if ((claimed = hook->claimPrompt(blocks))) break;
  }
  if (claimed) {
    // A slash command: the person's words are shown again on load; what
    // reaches the model, if anything, is what the command returns.
    recordPrompt(editor_, id_, blocks, echo);
    PromptOutcome outcome = claimed(history_, cancel, partsFromPrompt(std::span(blocks).subspan(1)));
    if (!outcome.prompt) return outcome.stopReason;
    userParts = std::move(*outcome.prompt);
  } else {
    userParts = partsFromPrompt(blocks);
  }
  if (userParts.empty()) return makeError(Errc::invalid_params, "params.prompt: the prompt has no usable content");
  // The conversation opens (or a loaded one goes on) with where it happens;
  // until the model has answered, a failed turn leaves it due again.
  if (contextDue_) {
    SessionContextOptions context;
    context.extensionContext = extensionContext_;
    userParts.insert(userParts.begin(), Part::makeText(buildSessionContext(*workspace_, context, cancel)));
  }
  for (const auto& hook : hooks_) {
    if (auto stop = hook->onPrompt(userParts, history_, cancel)) return stopWith(*stop);
  }
  for (const auto& hook : hooks_) {
    if (auto stop = hook->revisePrompt(userParts, history_, cancel)) return stopWith(*stop);
  }
  const History::Checkpoint before = history_.checkpoint();
  if (auto status = history_.appendUser(std::move(userParts)); !status) return status.error();
  if (!claimed) recordPrompt(editor_, id_, blocks, echo);
  routePrompt(cancel);
  bool modelAnswered = false;
  // A turn stopped before the model said anything leaves no trace: the next
  // prompt must not carry this one's text.
  auto cancelled = [&] {
    if (!modelAnswered) history_.rollback(before);
    return acp::StopReason::cancelled;
  };

  // MCP servers still starting get a few seconds; slower ones join later.
  mcp_.waitForStarts(kMcpStartWait);
  for (int request = 0;; ++request) {
    flushMcpNotices();
    if (cancel.cancelled()) return cancelled();
    if (request >= config_.maxTurnRequests) return acp::StopReason::max_turn_requests;
    // What the person added meanwhile joins before the request (no call waits for its answer here).
    if (auto status = joinSteers(); !status) return status.error();
    std::optional<TurnStop> stop;
    for (const auto& hook : hooks_) {
      if ((stop = hook->beforeModelRequest(history_, cancel))) return stopWith(*stop);
    }
    auto reply = callModel(cancel, stop);
    if (stop && stop->retry && !cancel.cancelled()) {
      // The reply was cut short (e.g. it looped): the model is told why and asked again.
      if (auto status = history_.appendUser({Part::makeText(stop->message)}); !status) return status.error();
      continue;
    }
    if (stop) return stopWith(*stop);
    if (!reply) {
      if (cancel.cancelled() || reply.error().code == Errc::cancelled) return cancelled();
      if (!modelAnswered) history_.rollback(before);
      for (const auto& hook : hooks_) {
        if ((stop = hook->onModelError(reply.error(), history_))) return stopWith(*stop);
      }
      return reply.error();
    }
    if (reply->usage) {
      editor_.sendUpdate(id_, acp::UsageUpdate{reply->usage->totalTokens, contextWindowOf(config_, model()), cost()});
    }

    Content modelContent{Role::model, {}};
    std::vector<FunctionCall> calls;
    for (Part& part : reply->content.parts) {
      if (part.functionCall) calls.push_back(*part.functionCall);
      // Thought text is shown, not replayed; a part with a signature must go back.
      if (part.thought && part.thoughtSignature.empty()) continue;
      modelContent.parts.push_back(std::move(part));
    }
    if (auto status = history_.appendModel(std::move(modelContent)); !status) return status.error();
    modelAnswered = true;
    contextDue_ = false;
    if (calls.empty()) {
      for (const auto& hook : hooks_) {
        if ((stop = hook->onAnswer(history_, cancel))) break;
      }
      if (stop && stop->retry && !cancel.cancelled()) {
        // Reviewed and sent back to work: the model is told why.
        if (auto status = history_.appendUser({Part::makeText(stop->message)}); !status) return status.error();
        continue;
      }
      if (stop) return stopWith(*stop);
      // A steer that came while the model answered gets its answer in this turn.
      if (endSteering()) return stopReasonFor(reply->finishReason);
      continue;
    }

    std::vector<Part> responses = runCalls(calls, cancel, stop);
    if (auto status = history_.appendResponses(std::move(responses)); !status) return status.error();
    if (stop) return stopWith(*stop);
    if (cancel.cancelled() || scheduler_.cancelledByPerson()) return acp::StopReason::cancelled;
  }
}

}  // namespace lathe::engine
