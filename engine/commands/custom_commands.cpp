// Custom commands: loading, watching, running with their injections.
#include "engine/commands/custom_commands.h"

#include "engine/commands/command_template.h"
#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

// A command that was not sent: Lathe's words, never the model's.
acp::Notice refused(std::string why) {
  return {acp::NoticeSeverity::warning, "Custom command not sent", std::move(why)};
}

FunctionCall injectionCall(const TemplatePiece& piece, const std::string& commandName, size_t n) {
  FunctionCall call;
  call.id = "injection_" + std::to_string(n);
  if (piece.kind == TemplatePiece::Kind::shell) {
    call.name = "run_shell_command";
    call.args = json::Raw{json::buildObject([&](json::Writer& w) {
      json::put(w, "command", piece.value);
      json::put(w, "description", "for /" + commandName);
    })};
  } else {
    call.name = "read_many_files";
    call.args = json::Raw{json::buildObject([&](json::Writer& w) {
      json::array(w, "include", [&] { json::str(w, piece.value); });
    })};
  }
  return call;
}

// The output a shell injection puts in the prompt, and how the line ended (as Gemini CLI words it).
std::string shellText(const std::string& command, const tools::ToolResult& result) {
  auto data = json::parse(result.data.text);
  if (!data || !data->IsObject()) return "";
  std::string text = json::getStr(*data, "output").value_or("");
  auto code = json::getInt(*data, "exitCode");
  auto signal = json::getStr(*data, "signal");
  if (json::getBool(*data, "stopped").value_or(false)) {
    text += "\n[Shell command '" + command + "' aborted]";
  } else if (code && *code != 0) {
    text += "\n[Shell command '" + command + "' exited with code " + std::to_string(*code) + "]";
  } else if (signal) {
    text += "\n[Shell command '" + command + "' terminated by signal " + *signal + "]";
  }
  return text;
}

// Why a file injection brought nothing, or "" when it read something.
std::string nothingRead(const std::string& path, const tools::ToolResult& result) {
  auto data = json::parse(result.data.text);
  if (!data || !data->IsObject()) return "@{" + path + "} could not be read";
  const json::Value* read = json::find(*data, "read");
  if (read && read->IsArray() && !read->Empty()) return "";
  std::string why = "@{" + path + "} read nothing";
  const json::Value* skipped = json::find(*data, "skipped");
  if (skipped && skipped->IsArray()) {
    for (const auto& skip : skipped->GetArray()) {
      why += "\n- " + json::getStr(skip, "path").value_or("") + ": " + json::getStr(skip, "reason").value_or("");
    }
  }
  return why;
}

void addText(std::vector<Part>& parts, std::string text) {
  if (text.empty()) return;
  if (!parts.empty() && parts.back().text && !parts.back().inlineData) {
    *parts.back().text += text;
  } else {
    parts.push_back(Part::makeText(std::move(text)));
  }
}

Result<CommandOutcome> runFileCommand(const FileCommand& command, const CommandContext& c) {
  const std::string name(c.commandName);
  const std::string line = "/" + name + (c.input.empty() ? "" : " " + std::string(c.input));
  auto pieces = expandTemplate(command.prompt, c.input, line, name);
  if (!pieces) {
    c.session.notify(refused("/" + name + " (" + command.path + ") was not sent: " + pieces.error().message));
    return CommandOutcome::done();
  }
  std::vector<FunctionCall> calls;
  for (const auto& piece : *pieces) {
    if (piece.kind != TemplatePiece::Kind::text) calls.push_back(injectionCall(piece, name, calls.size() + 1));
  }
  std::vector<tools::ToolResult> results;
  if (!calls.empty()) {
    // A workspace's command is the workspace's program: each injection is asked.
    auto ran = c.session.runForPerson(calls, command.origin == FileCommand::Origin::workspace, c.cancel);
    if (!ran) {
      if (c.cancel.cancelled() || ran.error().code == Errc::cancelled) return CommandOutcome::done(acp::StopReason::cancelled);
      c.session.notify(refused("/" + name + " was not sent to the model: " + ran.error().message));
      return CommandOutcome::done();
    }
    results = std::move(ran).value();
  }
  std::vector<Part> parts;
  size_t next = 0;
  for (const auto& piece : *pieces) {
    if (piece.kind == TemplatePiece::Kind::text) {
      addText(parts, piece.value);
      continue;
    }
    const tools::ToolResult& result = results[next++];
    if (piece.kind == TemplatePiece::Kind::shell) {
      addText(parts, shellText(piece.value, result));
      continue;
    }
    if (std::string why = nothingRead(piece.value, result); !why.empty()) {
      c.session.notify(refused("/" + name + " was not sent to the model: " + why));
      return CommandOutcome::done();
    }
    for (const auto& llm : result.llmContent) {
      if (!llm.isInline()) {
        addText(parts, llm.text);
        continue;
      }
      Part part;
      part.inlineData = InlineData{llm.mimeType, llm.data};
      parts.push_back(std::move(part));
    }
  }
  if (parts.empty()) parts.push_back(Part::makeText(line));
  return CommandOutcome::ask(std::move(parts));
}

}  // namespace

CustomCommands::CustomCommands(Session& session, CommandRegistry& registry, std::vector<CommandFolder> folders,
                               std::vector<acp::Notice> assemblyProblems)
    : session_(session),
      registry_(registry),
      folders_(std::move(folders)),
      assemblyProblems_(std::move(assemblyProblems)) {}

void CustomCommands::load() {
  const CommandRegistry& registry = registry_;
  FileCommandScan scan = loadFileCommands(folders_, [&registry](const std::string& name) {
    auto held = registry.find(name);
    return held && held->group != kGroup;
  });
  std::vector<SlashCommand> commands;
  for (auto& command : scan.commands) {
    std::string name = command.name;
    std::string description = command.description;
    commands.push_back(SlashCommand{std::move(name), std::move(description), std::string("[args]"),
                                    [command = std::move(command)](const CommandContext& c) {
                                      return runFileCommand(command, c);
                                    },
                                    kGroup});
  }
  for (auto& refused : registry_.replaceGroup(kGroup, std::move(commands))) {
    scan.problems.push_back("the custom command /" + refused + " was not added");
  }
  tell(scan.problems);
}

void CustomCommands::watch() {
  std::vector<std::string> paths;
  for (const auto& folder : folders_) paths.push_back(folder.path);
  session_.watchFolders(std::move(paths), [this] { load(); });
}

void CustomCommands::tell(const std::vector<std::string>& problems) {
  {
    std::lock_guard lock(mutex_);
    if (!ready_) {
      pending_.insert(pending_.end(), problems.begin(), problems.end());
      return;
    }
  }
  for (const auto& problem : problems) session_.notifyOnce({acp::NoticeSeverity::warning, "Custom command not loaded", problem});
}

void CustomCommands::onEditorReady() {
  std::vector<std::string> pending;
  {
    std::lock_guard lock(mutex_);
    ready_ = true;
    pending.swap(pending_);
  }
  for (const auto& notice : assemblyProblems_) session_.notifyOnce(notice);
  tell(pending);
}

}  // namespace lathe::engine
