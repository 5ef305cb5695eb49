// Custom commands from TOML files, read as Gemini CLI 0.61 reads them:
// every `**/*.toml` of a commands folder (hidden ones too, links followed),
// each with a string `prompt` and an optional `description`, named by its
// path inside the folder with ':' between folders (`git/msg.toml` is
// `git:msg`; characters other than letters, digits, '_', '-' and '.' become
// '_'). Folders are read in Gemini CLI's order: the person's
// (~/.gemini/commands), the workspace's (.gemini/commands), then each enabled
// extension's (by name). The workspace's command replaces the person's of
// the same name; an extension's command whose name is taken is renamed
// `<extension>:<name>`. A file that cannot be used is a problem naming the
// file, its line and the field. Reads the disk; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lathe::engine {

struct FileCommand {
  enum class Origin { user, workspace, extension };
  std::string name;  // without '/'
  std::string description;
  std::string prompt;
  std::string path;  // the .toml file
  Origin origin = Origin::user;
  std::string extension;  // Origin::extension: its name
};

struct CommandFolder {
  std::string path;
  FileCommand::Origin origin = FileCommand::Origin::user;
  std::string extension;
};

struct FileCommandScan {
  std::vector<FileCommand> commands;  // by name
  std::vector<std::string> problems;  // "file:line: field: problem"
};

// The commands of the folders, named; `taken` says which names other
// commands of the session hold (Lathe's own, MCP prompts): a person's or
// workspace's command of such a name becomes `user.<name>` or
// `workspace.<name>`, an extension's `<extension>:<name>`.
FileCommandScan loadFileCommands(const std::vector<CommandFolder>& folders,
                                 const std::function<bool(const std::string&)>& taken);

// One file's command (named from its path under `folder`), or a problem.
struct ParsedCommand {
  std::optional<FileCommand> command;
  std::string problem;
};
ParsedCommand parseCommandFile(const std::string& file, const CommandFolder& folder);

}  // namespace lathe::engine
