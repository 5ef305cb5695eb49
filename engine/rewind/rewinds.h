// A session's rewinds: a TurnHooks that keeps a PromptRecord for each prompt
// that reaches the model (the files it changed, taken from the session's
// ChangeRecorder when its turn ends), and the slash commands that go back:
// /undo (the last prompt), /rewind (the list; /rewind N: back to just before
// prompt N) and /redo (what the last of them took away). Before anything is
// written the person is shown each file and asked; a file changed since by
// someone else is named and left alone unless they choose to overwrite it.
// The conversation is cut with the files; the log is kept in the session's
// data folder (rewind_log.h). Runs on the turn's thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/commands/slash_command.h"
#include "engine/rewind/file_restore.h"
#include "engine/rewind/rewind_log.h"
#include "engine/session/editor_client.h"

namespace lathe::engine {

class Rewinds final : public TurnHooks {
 public:
  // Reads the session's log and adds the hook and its commands; nothing
  // when the session keeps no changes (no data folder). Add it before the
  // slash commands' hook: it must hear every prompt's words.
  static void add(Session& session, CommandRegistry& commands, EditorClient& editor);

  ClaimedPrompt claimPrompt(const std::vector<acp::ContentBlock>& blocks) override;
  std::optional<TurnStop> onPrompt(const std::vector<Part>&, History& history, const CancelToken&) override;
  void beforeCompression(bool, const CancelToken&) override;
  void onTurnEnded(const History& history, const Result<acp::StopReason>&) override;
  void onEditorReady() override;

 private:
  Rewinds(Session& session, EditorClient& editor, std::string folder, RewindLog log);

  Result<CommandOutcome> undo(const CommandContext& c);
  Result<CommandOutcome> rewind(const CommandContext& c);
  Result<CommandOutcome> redo(const CommandContext& c);
  // Undoes prompts [first, end): files, then the conversation.
  Result<CommandOutcome> goBackTo(size_t first, const CommandContext& c);
  // Looks at the files, asks when any would change, writes; nullopt when the
  // person did not confirm (and was told nothing changed).
  Result<std::optional<RestoreOutcome>> restoreAsked(const std::vector<RestoreStep>& steps, const std::string& title,
                                                     const CommandContext& c);
  void save();

  Session& session_;
  EditorClient& editor_;
  std::string folder_;
  RewindLog log_;
  std::string words_;                  // the prompt being heard
  std::optional<PromptRecord> open_;   // the prompt whose turn is running
  bool dirty_ = false;                 // the log changed since it was saved
  FileRestore restore_;
};

}  // namespace lathe::engine
