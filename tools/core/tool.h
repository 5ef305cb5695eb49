// The Tool API: a Tool (the builder, what the model sees) validates parameters
// and builds a ToolInvocation (one concrete call) that is described, maybe
// confirmed, then executed into a ToolResult. Nothing touches the world before
// execute(). Tools are immutable after construction and shared across threads;
// an invocation runs on one worker thread at a time.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::tools {

class SchemaValidator;
class TerminalView;

enum class Kind { read, edit, del, move, search, execute, think, agent, fetch, communicate, plan, switch_mode, other };
const char* toString(Kind kind);
// Read, search and fetch never change the world and may run in parallel.
bool isReadOnlyKind(Kind kind);

enum class ErrorType {
  invalid_params,
  file_not_found,
  path_not_in_workspace,
  is_directory,
  not_a_directory,
  no_occurrence_found,
  occurrence_count_mismatch,
  file_too_large,
  binary_file,
  permission_denied,
  execution_failed,
  cancelled,
};

struct ToolError {
  ErrorType type = ErrorType::execution_failed;
  std::string message;
};

// What the model sees: text, or inline data such as an image.
struct LlmPart {
  std::string text;
  std::string mimeType;  // set for inline data
  std::string data;      // base64 inline data
  bool isInline() const { return !mimeType.empty(); }
};

struct FileDiff {
  std::string path;                      // absolute
  std::optional<std::string> oldText;    // nullopt for a new file
  std::string newText;
};

struct TailCall {
  std::string name;
  json::Raw args;
};

struct ToolResult {
  std::vector<LlmPart> llmContent;
  std::variant<std::string, FileDiff> returnDisplay;  // markdown/text, or a diff
  std::vector<std::string> displayNotes;  // shown to the person after the display (e.g. syntax warnings)
  std::vector<FileDiff> changedFiles;     // what a command changed in the workspace, shown as diffs
  std::optional<ToolError> error;
  json::Raw data;
  std::optional<TailCall> tailToolCallRequest;

  static ToolResult text(std::string llm, std::string display);
  static ToolResult failure(ErrorType type, std::string message);
};

struct Location {
  std::string path;  // absolute
  std::optional<int64_t> line;
};

// What a person must see before a call runs.
struct EditConfirmation {
  std::string title;
  FileDiff diff;
  // Why this file changes how tools run (.git/, .gitconfig, .gemini/, tool
  // configuration), when it does: such edits are always asked about, even in
  // autoEdit mode or after "always allow edits".
  std::string sensitive;
  // A plan mode plan (tools/plan/plan_mode.h): the one edit plan mode allows.
  bool planFile = false;
};
struct ExecConfirmation {
  std::string command;
  std::vector<std::string> rootCommands;  // what "allow always" remembers; empty unless understood
  // Each command the line runs, as its leading literal words (empty words: a
  // computed command name). Filled whenever the line parsed, so exclusions
  // see commands even in lines that must be asked about.
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> writtenFiles;  // through redirections
  bool readOnly = false;                  // the whole line only reads
  bool parsed = false;                    // the line parsed cleanly
  bool understood = false;                // parsed, and nothing about it needs a person's judgement
  std::string note;                       // shown to the person: why asking when it is not obvious
  std::string runsUnseen;                 // why it may run commands it does not name; empty when it names them all
};
struct McpConfirmation {
  std::string serverName;
  std::string toolName;
};
struct InfoConfirmation {
  std::string prompt;
  std::vector<std::string> urls;
};
// Reading what the person keeps out of the model's reach: files git ignores
// (asked for by name) and files shaped like secrets. Asked in every mode but
// yolo, whatever the tool's settings allow; "always" covers these files only.
struct ReadConfirmation {
  struct File {
    std::string path;  // absolute, or the patterns asked for when the files are not known yet
    std::string why;   // "ignored by .gitignore", "an environment file (.env)"
  };
  std::vector<File> files;
};
// Leaving plan mode with a plan (exit_plan_mode): the person reads it and
// picks the mode to carry it out in, or keeps planning. The options that
// approve it are named by those modes' ids ("autoEdit", "default").
struct PlanConfirmation {
  std::string path;  // absolute
  std::string text;  // the plan, as written
};
using ConfirmationDetails = std::variant<EditConfirmation, ExecConfirmation, McpConfirmation, InfoConfirmation,
                                         ReadConfirmation, PlanConfirmation>;

using OutputSink = std::function<void(const std::string& output)>;

enum class Approval {
  judged,  // allowed by a policy judgement alone; nobody approved this call
  person,  // the person approved it (once, always, in settings) or chose yolo mode
};

class ToolInvocation {
 public:
  virtual ~ToolInvocation() = default;
  // One line saying what this call will do, shown before it runs.
  virtual std::string description() const = 0;
  // The paths this call touches (absolute, the primary one first).
  virtual std::vector<Location> locations() const { return {}; }
  // Details for a confirmation, or nullopt when none is needed. May read the
  // world (to compute a diff) but never changes it.
  virtual Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) {
    return std::optional<ConfirmationDetails>{};
  }
  // Who stands behind this call, told by the scheduler just before execute:
  // the person (asked, remembered, configured, or yolo mode) or only a policy
  // judgement (a shell line judged read-only). Until told, a call counts as
  // not approved by the person: a shell line then runs sealed (fail closed).
  virtual void setApproval(Approval approval) { (void)approval; }
  // The id the editor knows this call by, told by the scheduler before
  // execute: a question asked during the call names it, and a sub-agent's
  // session is named after it.
  virtual void setCallId(const std::string& id) { (void)id; }
  // Where the call may show a terminal (terminal_view.h), told before
  // execute; valid until execute returns.
  virtual void setTerminalView(TerminalView* view) { (void)view; }
  // The option the person chose when asked (session/request_permission),
  // told before execute when it allowed the call.
  virtual void setChosenOption(const std::string& optionId) { (void)optionId; }
  virtual ToolResult execute(const CancelToken& cancel, const OutputSink& updateOutput) = 0;
};

struct BuildResult {
  std::unique_ptr<ToolInvocation> invocation;
  std::optional<ToolError> error;
};

// A call refused before it runs: no invocation, and the error the model sees.
BuildResult buildFailure(ErrorType type, std::string message);
BuildResult invalidParams(std::string message);

// Written with designated initialisers, naming only what differs from the
// defaults: ToolInfo{.name = "read_file", .displayName = "ReadFile", ...}.
struct ToolInfo {
  std::string name;         // what the model calls
  std::string displayName;  // what a person reads
  std::string description;  // written for the model
  Kind kind = Kind::other;
  std::string parametersSchema;  // a JSON Schema object (draft-04 subset)
  bool isOutputMarkdown = true;
  bool canUpdateOutput = false;
};

class Tool {
 public:
  explicit Tool(ToolInfo info);
  virtual ~Tool();
  Tool(const Tool&) = delete;
  Tool& operator=(const Tool&) = delete;

  const ToolInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  Kind kind() const { return info_.kind; }
  bool isReadOnly() const { return isReadOnlyKind(info_.kind); }

  // Validates params against the schema, then the tool's own checks.
  BuildResult build(const json::Value& params) const;

 protected:
  virtual BuildResult createInvocation(const json::Value& params) const = 0;

 private:
  ToolInfo info_;
  std::shared_ptr<const SchemaValidator> validator_;  // shared with every tool of the same schema
};

}  // namespace lathe::tools
