#include "engine/rewind/rewinds.h"

#include <algorithm>
#include <charconv>

#include "engine/commands/command_registry.h"
#include "engine/rewind/restore_question.h"
#include "engine/session/session.h"
#include "protocol/base/log.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

std::string wordsOf(const std::vector<acp::ContentBlock>& blocks) {
  std::string words;
  for (const auto& block : blocks) {
    if (auto* text = std::get_if<acp::TextBlock>(&block)) words += (words.empty() ? "" : " ") + text->text;
  }
  return words;
}

std::string quoted(const PromptRecord& prompt) { return "\u201c" + text::firstLine(prompt.text, 80) + "\u201d"; }

std::string fileList(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& file : files) out += (out.empty() ? "" : ", ") + file;
  return out;
}

std::string listOf(const tools::Workspace& workspace, const std::vector<tools::FileChange>& files) {
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(workspace.relative(file.path));
  return fileList(names);
}

}  // namespace

void Rewinds::add(Session& session, CommandRegistry& commands, EditorClient& editor) {
  if (!session.changes()) return;  // no data folder: nothing is kept
  const std::string folder = session.config().dataDir + "/" + session.id();
  auto log = RewindLog::load(folder);
  if (!log) {
    session.notifyOnce({acp::NoticeSeverity::warning, "Rewinds start afresh",
                        "Lathe could not read what it kept to rewind this session (" + log.error().message +
                            "); earlier prompts cannot be undone."});
  }
  std::shared_ptr<Rewinds> hook(new Rewinds(session, editor, folder, log ? std::move(log).value() : RewindLog{}));
  Rewinds* raw = hook.get();  // the commands live in the session's registry, as long as the hook
  (void)commands.add({"undo", "Put back the files the last prompt changed and take it out of the conversation",
                      std::nullopt, [raw](const CommandContext& c) { return raw->undo(c); }, ""});
  (void)commands.add({"rewind", "List the prompts; with a number, go back to just before that prompt (files and conversation)",
                      "[N]", [raw](const CommandContext& c) { return raw->rewind(c); }, ""});
  (void)commands.add({"redo", "Put back what the last /undo or /rewind took away", std::nullopt,
                      [raw](const CommandContext& c) { return raw->redo(c); }, ""});
  session.addHooks(std::move(hook));
}

Rewinds::Rewinds(Session& session, EditorClient& editor, std::string folder, RewindLog log)
    : session_(session),
      editor_(editor),
      folder_(std::move(folder)),
      log_(std::move(log)),
      restore_(*session.changes(), *session.fileStore(), *session.sharedWorkspace()) {}

void Rewinds::onEditorReady() {
  session_.changes()->prepare();  // the first snapshot copies the workspace: before a command needs it
}

ClaimedPrompt Rewinds::claimPrompt(const std::vector<acp::ContentBlock>& blocks) {
  words_ = wordsOf(blocks);
  return {};
}

std::optional<TurnStop> Rewinds::onPrompt(const std::vector<Part>&, History& history, const CancelToken&) {
  const auto at = history.checkpoint();
  open_ = PromptRecord{words_, at.contents, at.lastParts, false, {}};
  dirty_ = log_.undone.has_value();
  log_.undone.reset();  // a new prompt: what was taken away stays away
  return std::nullopt;
}

void Rewinds::beforeCompression(bool, const CancelToken&) {
  for (auto& prompt : log_.prompts) prompt.compressed = true;
  if (open_) open_->compressed = true;
  dirty_ = true;
}

void Rewinds::onTurnEnded(const History& history, const Result<acp::StopReason>&) {
  if (!open_) return;  // changes made outside a prompt (a command's) join the next one
  PromptRecord prompt = std::move(*open_);
  open_.reset();
  prompt.files = session_.changes()->take();
  const auto now = history.checkpoint();
  const bool left = now.contents > prompt.historyAt || (now.contents == prompt.historyAt && now.lastParts > prompt.historyParts);
  if (left || !prompt.files.empty()) {
    log_.prompts.push_back(std::move(prompt));
    dirty_ = true;
  }
  if (std::exchange(dirty_, false)) save();
}

void Rewinds::save() {
  if (auto saved = log_.save(folder_); !saved) {
    log(LogLevel::warn, "session " + session_.id() + ": rewind log not written: " + saved.error().message);
    session_.notifyOnce({acp::NoticeSeverity::warning, "Rewinds not kept",
                         "Lathe could not write what it keeps to rewind this session (" + saved.error().message + ")."});
  }
}

Result<CommandOutcome> Rewinds::undo(const CommandContext& c) {
  if (log_.prompts.empty()) {
    c.say("Nothing to undo: no prompt of this session is left to take back.");
    return CommandOutcome::done();
  }
  return goBackTo(log_.prompts.size() - 1, c);
}

Result<CommandOutcome> Rewinds::rewind(const CommandContext& c) {
  const tools::Workspace& workspace = *session_.sharedWorkspace();
  if (c.input.empty()) {
    if (log_.prompts.empty()) {
      c.say("No prompt of this session to go back to yet.");
      return CommandOutcome::done();
    }
    std::string text = "Prompts of this session:\n";
    for (size_t i = 0; i < log_.prompts.size(); ++i) {
      const auto& prompt = log_.prompts[i];
      text += "\n" + std::to_string(i + 1) + ". " + quoted(prompt) + " \u2014 " +
              (prompt.files.empty() ? "no files changed" : "changed " + listOf(workspace, prompt.files));
    }
    text += "\n\n`/rewind N` returns the files and the conversation to just before prompt N; `/undo` takes back the "
            "last prompt; `/redo` puts back what the last of them took away.";
    c.say(text);
    return CommandOutcome::done();
  }
  size_t number = 0;
  auto [end, ec] = std::from_chars(c.input.data(), c.input.data() + c.input.size(), number);
  if (ec != std::errc{} || end != c.input.data() + c.input.size() || number < 1 || number > log_.prompts.size()) {
    return makeError(Errc::invalid_params, "/rewind takes the number of a prompt, from 1 to " +
                                               std::to_string(log_.prompts.size()) + " (`/rewind` lists them).");
  }
  return goBackTo(number - 1, c);
}

Result<std::optional<RestoreOutcome>> Rewinds::restoreAsked(const std::vector<RestoreStep>& steps,
                                                             const std::string& title, const CommandContext& c) {
  auto files = restore_.look(steps, c.cancel);
  if (!files) return makeError(files.error().code, "Nothing was changed: " + files.error().message);
  bool overwrite = false;
  if (std::any_of(files->begin(), files->end(), [](const FileNow& file) { return !file.done; })) {
    auto answer = askToRestore(session_, editor_, title, *files, c.cancel);
    if (!answer) {
      c.say("Nothing was changed: it was not confirmed.");
      return std::optional<RestoreOutcome>{};
    }
    overwrite = *answer;
  }
  return std::optional<RestoreOutcome>{restore_.apply(*files, overwrite, c.cancel)};
}

Result<CommandOutcome> Rewinds::goBackTo(size_t first, const CommandContext& c) {
  std::vector<PromptRecord> undone(log_.prompts.begin() + static_cast<std::ptrdiff_t>(first), log_.prompts.end());
  const std::string what = first + 1 == log_.prompts.size()
                               ? "prompt " + std::to_string(first + 1) + " " + quoted(undone.front())
                               : "prompts " + std::to_string(first + 1) + " to " + std::to_string(log_.prompts.size());
  auto restored = restoreAsked(stepsToUndo(undone), "Rewind: take back " + what, c);
  if (!restored) return restored.error();
  if (!*restored) return CommandOutcome::done();
  RestoreOutcome& out = **restored;
  UndoneRecord record;
  record.files = out.written;
  std::string report;
  if (out.cancelled) {
    // The prompts stay: a later /undo finds the files already put back and skips them.
    report = "The rewind was cancelled part way: the conversation is as it was, and ";
    report += out.written.empty() ? "no file was changed." : "only these files were put back: " +
                                                               listOf(*session_.sharedWorkspace(), out.written) + ".";
  } else {
    record.prompts = std::move(undone);
    if (record.prompts.front().compressed) {
      report = "Took back the files of " + what + ". The conversation was compressed since, so it stays as it is.";
    } else {
      record.history = c.history.contents();
      c.history.rollback({record.prompts.front().historyAt, record.prompts.front().historyParts, {}});
      report = "Took back " + what + ": the conversation is back to just before it";
      report += out.written.empty() ? "; no file needed changing." : ", and these files are as they were: " +
                                                                     listOf(*session_.sharedWorkspace(), out.written) + ".";
    }
    log_.prompts.resize(first);
  }
  if (!out.leftAlone.empty()) report += "\nLeft alone (changed since, not by the prompt): " + fileList(out.leftAlone) + ".";
  if (!out.failed.empty()) report += "\nNot put back: " + fileList(out.failed) + ".";
  if (!record.prompts.empty() || !record.files.empty()) {
    log_.undone = std::move(record);
    report += "\n`/redo` puts it back.";
  }
  save();
  c.say(report);
  return CommandOutcome::done();
}

Result<CommandOutcome> Rewinds::redo(const CommandContext& c) {
  if (!log_.undone) {
    c.say("Nothing to redo: no /undo or /rewind since the last prompt.");
    return CommandOutcome::done();
  }
  UndoneRecord& undone = *log_.undone;
  auto restored = restoreAsked(stepsToRedo(undone.files), "Redo: put back what the rewind took away", c);
  if (!restored) return restored.error();
  if (!*restored) return CommandOutcome::done();
  RestoreOutcome& out = **restored;
  if (out.cancelled) {
    // What was written goes back on the next /redo's look as already done.
    c.say("The redo was cancelled part way: the conversation is as the rewind left it; files put back: " +
          (out.written.empty() ? std::string("none") : listOf(*session_.sharedWorkspace(), out.written)) + ".");
    return CommandOutcome::done();
  }
  std::string report = "Put back what the rewind took away";
  if (!undone.history.empty()) {
    if (auto replaced = c.history.replaceAll(std::move(undone.history)); !replaced) {
      report += " (except the conversation: " + replaced.error().message + ")";
    }
  }
  report += out.written.empty() ? "." : "; files: " + listOf(*session_.sharedWorkspace(), out.written) + ".";
  if (!out.leftAlone.empty()) report += "\nLeft alone (changed since the rewind): " + fileList(out.leftAlone) + ".";
  if (!out.failed.empty()) report += "\nNot put back: " + fileList(out.failed) + ".";
  for (auto& prompt : undone.prompts) log_.prompts.push_back(std::move(prompt));
  log_.undone.reset();
  save();
  c.say(report);
  return CommandOutcome::done();
}

}  // namespace lathe::engine
