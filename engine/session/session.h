// One conversation: its workspace, tools and history, and the ReAct loop that
// runs a prompt turn. A session runs one turn at a time; the turn owns the
// session's state while it runs (on the turn's thread). Hooks are added before
// the first turn.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/session/project_memory.h"
#include "engine/model/content.h"
#include "engine/model/generation_settings.h"
#include "engine/model/usage_meter.h"
#include "engine/scheduler/tool_scheduler.h"
#include "engine/session/editor_client.h"
#include "engine/session/history.h"
#include "engine/session/follow_up.h"
#include "engine/session/observed_editor.h"
#include "engine/session/system_prompt.h"
#include "engine/session/turn_hooks.h"
#include "protocol/acp/content.h"
#include "protocol/base/cancel.h"
#include "tools/core/registry.h"
#include "tools/core/workspace.h"
#include "tools/mcp/server_config.h"
#include "tools/mcp/session_servers.h"
#include "tools/plan/plan_mode.h"
#include "protocol/exec/folder_watch.h"
#include "tools/skills/skill_set.h"
#include "tools/snapshots/change_recorder.h"

namespace lathe::engine {

// What a sub-agent's session takes from its parent's instead of making its
// own (engine/subagents): the parent's tools (those the agent may use, never
// more), its approvals and its context files, already loaded.
struct InheritedParts {
  std::vector<std::pair<std::shared_ptr<const tools::Tool>, tools::ToolSource>> tools;
  std::shared_ptr<SharedApprovals> approvals;
  std::shared_ptr<ProjectMemory> memory;
  // The parent's provider, metered on the parent's meter: a child's requests
  // count in its parent's cost and turn usage (and on the child's own meter).
  std::shared_ptr<ModelProvider> provider;
};

class Session {
 public:
  Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, const AgentConfig& config,
          EditorClient& editor);
  // A session with a config of its own (its workspace's settings merged in),
  // kept alive as long as the session.
  Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, std::shared_ptr<const AgentConfig> config,
          EditorClient& editor);
  // A sub-agent's session: its parent's parts instead of built-in tools of its own.
  Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, std::shared_ptr<const AgentConfig> config,
          EditorClient& editor, InheritedParts inherited);

  const std::string& id() const { return id_; }
  const History& history() const { return history_; }
  tools::ToolRegistry& registry() { return registry_; }
  const tools::Workspace& workspace() const { return *workspace_; }
  const std::shared_ptr<const tools::Workspace>& sharedWorkspace() const { return workspace_; }
  // Where the session's tools read and write files (the editor's buffers when it has them).
  const std::shared_ptr<tools::FileStore>& fileStore() const { return toolContext_.files; }

  ApprovalMode mode() const { return mode_.load(); }
  // Mode and model for the next call and request; the hooks hear of the
  // change (onModeChanged, onModelChanged). Any thread.
  void setMode(ApprovalMode mode);
  // The model the person chose (an auto model stays "auto-gemini-2.5").
  std::string chosenModel() const;
  // The model requests go to now: the one an auto model routed the latest
  // prompt to (its pro model before any), else the chosen one.
  std::string model() const;
  // A model without the effort chosen goes back to the default effort.
  void setModel(std::string model);
  // How much the model thinks, from the next request (the editor's effort
  // picker); one the model does not offer is the default. The hooks hear of
  // it (onEffortChanged). Any thread.
  Effort effort() const;
  void setEffort(Effort effort);
  // The session's model: every request through it (the turn's and every
  // one-shot call's) is counted on meter(). Null when the config has none.
  const std::shared_ptr<ModelProvider>& provider() const { return provider_; }
  UsageMeter& meter() { return *meter_; }
  // The session's cost so far, for usage_update (nullopt: not known).
  std::optional<acp::Cost> cost() const;
  // The tokens the last turn used (its model requests and one-shot calls),
  // nullopt when none were reported; read on the turn's thread after prompt().
  const std::optional<acp::TurnUsage>& turnUsage() const { return turnUsage_; }
  // The session is closed: its hooks hear it (onClose). Any thread.
  void close();
  // The history is about to be compressed: the hooks hear it (beforeCompression). The turn's thread.
  void beforeCompression(bool onDemand, const CancelToken& cancel);
  // What stands before and after each tool call besides approval; before the first turn.
  void setCallGate(CallGate* gate) { scheduler_.setGate(gate); }
  CallGate* callGate() const { return scheduler_.gate(); }

  void addHooks(std::shared_ptr<TurnHooks> hooks) { hooks_.push_back(std::move(hooks)); }
  // Shows the editor an update of this session, through the hooks like every
  // other (for hooks that tell the person something; any thread).
  void sendUpdate(const acp::SessionUpdate& update) { editor_.sendUpdate(id_, update); }
  // Tells the person something live that is not history (a loop noticed, a
  // server restarted, a hook that failed): an ACP notice where the editor
  // presents them, else a card of its own; never recorded (notice_card.h).
  // The one way to do so, for every hook. Any thread.
  void notify(const acp::Notice& notice);
  // What the editor can do (forms, notices, compaction updates).
  acp::ClientCapabilities editorCapabilities() const { return editor_.capabilities(); }
  // Runs work after the turn's answer, on a thread of its own, after earlier
  // such work (see FollowUp). The work must not touch the history.
  bool followUp(FollowUp::Work work) { return followUp_.post(std::move(work)); }
  // Around a turn run for the editor: what follows it waits until its answer went out.
  void holdFollowUps() { followUp_.hold(); }
  void turnAnswered() { followUp_.release(); }
  const AgentConfig& config() const { return config_; }
  // The editor has the session now: its hooks hear it (onEditorReady), e.g.
  // to announce the slash commands. Any thread.
  void editorReady();

  // Starts MCP servers for this session without waiting for them; their tools
  // join the registry as each connects. The next prompt waits a few seconds
  // for servers still starting. Any thread.
  void startMcpServers(std::vector<tools::mcp::ServerConfig> servers) { mcp_.start(std::move(servers)); }
  tools::mcp::SessionServers& mcpServers() { return mcp_; }
  // Lets more calls run unasked from now on (settings allowed mid-session),
  // or adds policy rules. Any thread.
  void grantApprovals(const SessionApprovals& more) { scheduler_.grant(more); }
  // Where "always" answers are kept beyond the session; before the first turn.
  void setKeptAnswers(std::shared_ptr<KeptAnswers> kept) { scheduler_.setKeptAnswers(std::move(kept)); }
  // What is allowed now, and this session's own answers (forget removes one). Any thread.
  SessionApprovals approvals() const { return scheduler_.approvals(); }
  ApprovalSet sessionAnswers() const { return scheduler_.sessionAnswers(); }
  bool forgetAnswer(const ApprovalKey& key) { return scheduler_.forget(key); }

  // The session's agent skills (engine/agent assigns them): what the system
  // prompt announces and activate_skill reads. Replacing them declares
  // activate_skill again with the new names (before a turn or on its thread).
  const tools::SkillSet& skills() const { return *skills_; }
  void setSkills(std::vector<tools::Skill> skills);
  // The person's own use of a skill (/<skill>): activates it as the tool
  // would, and returns the text the model gets.
  std::string activateSkill(const tools::Skill& skill);
  // The context files of the session's extensions, for the session's context.
  void setExtensionContext(std::string blocks) { extensionContext_ = std::move(blocks); }

  // Calls the person's own command asked for (a custom command's
  // injections), through the scheduler (ToolScheduler::runForPerson). The
  // turn's thread.
  Result<std::vector<tools::ToolResult>> runForPerson(const std::vector<FunctionCall>& calls, bool fromWorkspace,
                                                      const CancelToken& cancel) {
    return scheduler_.runForPerson(calls, fromWorkspace, cancel);
  }
  // Calls onChange on a worker whenever files change in these folders
  // (custom commands'), until the session goes: the watch is the first thing
  // to end then, so onChange may use the session and its hooks. Before the
  // first turn.
  void watchFolders(std::vector<std::string> folders, std::function<void()> onChange);

  // notify(), unless these very words were told before (bad files: told once). Any thread.
  void notifyOnce(const acp::Notice& notice);

  // Plan mode's folder and switch (null: no plans folder, no plan tools).
  const std::shared_ptr<tools::PlanMode>& planMode() const { return plan_; }
  // What the session's tools changed since the last take (rewinds); null without a data folder.
  const std::shared_ptr<tools::ChangeRecorder>& changes() const { return changes_; }

  // The context files (GEMINI.md) of this session; loaded at the first turn.
  ProjectMemory& memory() { return *memory_; }
  // What a sub-agent's session shares with this one (InheritedParts).
  const std::shared_ptr<ProjectMemory>& sharedMemory() const { return memory_; }
  const std::shared_ptr<SharedApprovals>& sharedApprovals() const { return scheduler_.sharedApprovals(); }
  // A sub-agent's session: its name (policy rules' `subagent`), and whether
  // only tools that read run; before the first turn.
  void setSubagent(std::string name, bool readOnly) { scheduler_.setSubagent(std::move(name), readOnly); }

  // The system instruction from the features present at each request
  // (default: Lathe's guide, buildSystemPrompt); before the first turn.
  using Instructions = std::function<std::string(const PromptFeatures&)>;
  void setInstructions(Instructions instructions) { instructions_ = std::move(instructions); }
  // The sub-agents the guide lists, asked at each request; before the first turn.
  using SubagentList = std::function<std::vector<std::pair<std::string, std::string>>()>;
  void setSubagentList(SubagentList list) { subagentList_ = std::move(list); }
  // Loads them again and rebuilds the system prompt with them (the turn's
  // thread, or before the first turn).
  ProjectMemory::Loaded refreshMemory(const CancelToken& cancel);

  // A recorded conversation to go on with (session/load); before the first
  // turn. New tool calls are numbered after the highest id it showed, and
  // the next prompt carries the session's context afresh.
  void restoreHistory(History history, uint64_t lastCallNumber) {
    history_ = std::move(history);
    scheduler_.continueCallIdsAfter(lastCallNumber);
    contextDue_ = true;
  }

  // Runs one prompt turn to its end: model calls and tool calls until the model
  // answers without calls, the turn limit, a hook's stop, or cancellation. An
  // Error means the turn failed (e.g. the model API refused); its message is fit
  // for a person. A turn that failed or was cancelled before the model answered
  // leaves the history as it was. Every turn ends with the hooks' onTurnEnded.
  // `echo`: the prompt waited behind another turn, so the editor is shown it
  // (user_message_chunk) where it starts.
  Result<acp::StopReason> prompt(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel,
                                 bool echo = false);

  // What the person adds to the running turn (_session/steering): it joins
  // the conversation before the turn's next model request, after the calls
  // of the round in progress are answered, and the turn does not end while
  // some waits (the model answers it). False when no turn runs to take it.
  // Any thread.
  bool steer(std::vector<acp::ContentBlock> blocks);

 private:
  Result<acp::StopReason> runTurn(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel, bool echo);
  Result<ModelReply> callModel(const CancelToken& cancel, std::optional<TurnStop>& stop);
  // An auto model picks this prompt's model (the history ends with the prompt).
  void routePrompt(const CancelToken& cancel);
  // Runs the calls the hooks allow; answers the others as they say.
  std::vector<Part> runCalls(const std::vector<FunctionCall>& calls, const CancelToken& cancel,
                             std::optional<TurnStop>& stop);
  const std::vector<tools::ToolDeclaration>& declarations();
  // The working guide for the next request: the features present now.
  std::string systemPrompt();
  acp::StopReason stopWith(const TurnStop& stop);
  // Adds what the person steered with to the history (the turn's thread).
  Status joinSteers();
  // Stops taking steers, unless some wait: then false and the turn goes on.
  bool endSteering();
  // Tells the person about MCP servers that failed since the last time.
  void flushMcpNotices();

  std::string id_;
  std::shared_ptr<const tools::Workspace> workspace_;
  std::shared_ptr<const AgentConfig> ownConfig_;  // null when the caller keeps the config
  const AgentConfig& config_;
  std::vector<std::shared_ptr<TurnHooks>> hooks_;
  ObservedEditor editor_;
  std::atomic<ApprovalMode> mode_;
  mutable std::mutex modelMutex_;
  std::string model_;      // chosen
  std::string turnModel_;  // routed for the latest prompt; empty when none is (or the choice changed)
  Effort effort_ = Effort::standard;  // guarded by modelMutex_
  std::shared_ptr<UsageMeter> meter_;
  std::shared_ptr<ModelProvider> provider_;  // config's, metered
  std::optional<acp::TurnUsage> turnUsage_;  // the turn's thread
  tools::ToolRegistry registry_;
  std::vector<tools::ToolDeclaration> declarations_;
  uint64_t declarationsGeneration_ = ~uint64_t{0};
  ApprovalMode declarationsMode_ = ApprovalMode::standard;  // the mode declarations_ were shaped for
  std::shared_ptr<tools::PlanMode> plan_;
  std::shared_ptr<tools::ChangeRecorder> changes_;
  std::string planNotice_;  // a plans folder settings named but Lathe could not use, told at the first turn
  std::shared_ptr<ProjectMemory> memory_;  // shared with the scheduler's context source
  std::shared_ptr<tools::SkillSet> skills_ = std::make_shared<tools::SkillSet>();
  tools::ToolContext toolContext_;  // what the built-in tools were given (activate_skill is made again from it)
  std::string extensionContext_;
  std::string contextFiles_;  // the context files' prompt section, once loaded
  bool contextDue_ = true;     // the next prompt opens with the session's context (the turn's thread)
  std::mutex toldMutex_;
  std::set<std::string> told_;  // notices told once
  ToolScheduler scheduler_;
  Instructions instructions_;
  SubagentList subagentList_;
  History history_;
  std::mutex steerMutex_;
  bool steerable_ = false;  // a turn runs and takes steers (steerMutex_)
  std::vector<std::vector<acp::ContentBlock>> steers_;  // not joined yet (steerMutex_)
  // Gone before the members its work uses (editor, config, model).
  FollowUp followUp_;
  // Last: its servers end (and their tools stop working) before anything else goes.
  tools::mcp::SessionServers mcp_;
  // After them: the first to end, so no change is told to a session going away.
  exec::FolderWatch folderWatch_;
};

}  // namespace lathe::engine
