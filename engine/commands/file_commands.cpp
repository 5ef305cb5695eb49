// Reading custom command files.
#include "engine/commands/file_commands.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "protocol/base/json.h"
#include "protocol/formats/toml.h"

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxDepth = 16;  // links followed may loop

std::string nameSegment(std::string segment) {
  for (char& c : segment) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    if (!ok) c = '_';
  }
  if (segment.size() > 50) segment = segment.substr(0, 47) + "...";
  return segment;
}

// "git/msg.toml" -> "git:msg".
std::string commandNameOf(const std::string& relative) {
  std::string stem = relative.substr(0, relative.size() - 5);
  std::string name;
  size_t from = 0;
  for (size_t slash = stem.find('/'); ; slash = stem.find('/', from)) {
    name += (name.empty() ? "" : ":") + nameSegment(stem.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  return name;
}

// One line, control characters out, blanks folded, at most 100 characters (as Gemini CLI shows it).
std::string displayText(const std::string& text) {
  std::string out;
  bool blank = false;
  for (unsigned char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      blank = true;
      continue;
    }
    if (c < 0x20 || c == 0x7F) continue;
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += static_cast<char>(c);
  }
  size_t points = 0, cut = std::string::npos;
  for (size_t i = 0; i < out.size(); ++i) {
    if ((static_cast<unsigned char>(out[i]) & 0xC0) == 0x80) continue;
    if (points == 97) cut = i;
    if (++points > 100) return out.substr(0, cut) + "...";
  }
  return out;
}

std::vector<std::string> tomlFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  const auto options = fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied;
  for (fs::recursive_directory_iterator it(dir, options, ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= static_cast<int>(kMaxDepth)) it.disable_recursion_pending();
    const std::string path = it->path().string();
    if (path.ends_with(".toml") && it->is_regular_file(ec)) files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

ParsedCommand parseCommandFile(const std::string& file, const CommandFolder& folder) {
  ParsedCommand out;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    out.problem = file + ": cannot be read";
    return out;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto doc = formats::parseToml(text.str(), file);
  if (!doc) {
    out.problem = doc.error().message;
    return out;
  }
  auto reader = json::Reader::root(doc->value, "");
  FileCommand command;
  command.prompt = reader.str("prompt");
  auto description = reader.optStr("description");
  if (!reader.ok()) {
    out.problem = doc->locate(reader.error()).message;
    return out;
  }
  std::string relative = fs::path(file).lexically_relative(folder.path).generic_string();
  command.name = commandNameOf(relative);
  const std::string base = fs::path(file).filename().string();
  command.description = displayText(description && !description->empty() ? *description : "Custom command from " + base);
  if (folder.origin == FileCommand::Origin::extension) command.description = "[" + folder.extension + "] " + command.description;
  command.path = file;
  command.origin = folder.origin;
  command.extension = folder.extension;
  out.command = std::move(command);
  return out;
}

FileCommandScan loadFileCommands(const std::vector<CommandFolder>& folders,
                                 const std::function<bool(const std::string&)>& taken) {
  FileCommandScan scan;
  std::map<std::string, FileCommand> byName;
  auto free = [&](const std::string& name) { return !byName.count(name) && !(taken && taken(name)); };
  for (const auto& folder : folders) {
    for (const auto& file : tomlFiles(folder.path)) {
      ParsedCommand parsed = parseCommandFile(file, folder);
      if (!parsed.command) {
        scan.problems.push_back(std::move(parsed.problem));
        continue;
      }
      FileCommand command = std::move(*parsed.command);
      std::string wanted = command.name;
      if (command.origin == FileCommand::Origin::extension) {
        if (!free(wanted)) wanted = command.extension + ":" + command.name;
      } else if (taken && taken(wanted)) {
        wanted = std::string(command.origin == FileCommand::Origin::user ? "user." : "workspace.") + command.name;
      }
      // The workspace's file replaces the person's; a second extension's clash gets a number.
      const bool replaces = byName.count(wanted) && byName.at(wanted).origin == FileCommand::Origin::user &&
                            command.origin == FileCommand::Origin::workspace;
      std::string name = wanted;
      for (int n = 1; !replaces && !free(name) && n < 100; ++n) name = wanted + std::to_string(n);
      if (!replaces && !free(name)) continue;
      command.name = name;
      byName[name] = std::move(command);
    }
  }
  for (auto& [name, command] : byName) scan.commands.push_back(std::move(command));
  return scan;
}

}  // namespace lathe::engine
