// Reading agent files.
#include "engine/subagents/agent_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/base/text.h"
#include "protocol/formats/frontmatter.h"

namespace lathe::engine {
namespace {

constexpr const char* kFields[] = {"kind",  "name",        "description", "display_name", "tools",
                                   "mcp_servers", "model", "temperature", "max_turns",    "timeout_mins"};
constexpr size_t kMaxFileBytes = 1024 * 1024;

bool slug(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

// A tool name, or a pattern: *, mcp_*, mcp_<server>_*, <server>__*.
bool toolName(std::string_view name) {
  if (name.empty()) return false;
  const size_t star = name.find('*');
  if (star != std::string_view::npos && star != name.size() - 1) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || c == '*';
  });
}

void refuseUnknownFields(json::Reader& fields) {
  for (const auto& member : fields.value()->GetObject()) {
    std::string_view key(member.name.GetString(), member.name.GetStringLength());
    if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields)) {
      fields.fail(std::string(key), "not a field of an agent definition (name, description, display_name, tools, "
                                    "model, temperature, max_turns, timeout_mins, kind)");
      return;
    }
  }
}

std::optional<int> positive(json::Reader& fields, const char* key) {
  auto value = fields.optInt64(key);
  if (!value) return std::nullopt;
  if (*value <= 0 || *value > 100000) {
    fields.fail(key, "must be a positive whole number");
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

void readFields(json::Reader& fields, AgentDefinition& agent) {
  refuseUnknownFields(fields);
  if (auto kind = fields.optStr("kind"); kind && *kind != "local") {
    fields.fail("kind", *kind == "remote" ? "remote (A2A) agents are not supported by Lathe; only local ones"
                                          : "must be local");
  }
  agent.name = fields.str("name");
  if (fields.ok() && !slug(agent.name)) fields.fail("name", "only lowercase letters, digits, - and _");
  agent.description = fields.str("description");
  if (fields.ok() && agent.description.empty()) fields.fail("description", "must not be empty");
  agent.displayName = fields.optStr("display_name").value_or(agent.name);
  if (auto tools = fields.optArray("tools")) {
    std::vector<std::string> names;
    for (size_t i = 0; i < tools->size(); ++i) {
      std::string name = (*tools)[i].asStr();
      if (fields.ok() && !toolName(name)) (*tools)[i].fail((*tools)[i].path(), "not a tool name or pattern");
      names.push_back(std::move(name));
    }
    agent.tools = std::move(names);
  }
  if (fields.has("mcp_servers")) {
    fields.fail("mcp_servers", "Lathe does not start an agent's own MCP servers; list tools of your settings' "
                               "servers in tools instead");
  }
  if (auto model = fields.optStr("model"); model && !model->empty() && *model != "inherit") agent.model = model;
  if (auto temperature = fields.optNumber("temperature")) {
    if (*temperature < 0 || *temperature > 2) fields.fail("temperature", "must be between 0 and 2");
    agent.temperature = temperature;
  }
  if (auto turns = positive(fields, "max_turns")) agent.maxTurns = *turns;
  if (auto minutes = positive(fields, "timeout_mins")) agent.maxTimeMinutes = *minutes;
}

}  // namespace

Result<std::shared_ptr<const AgentDefinition>> parseAgentFile(std::string_view text, const std::string& path,
                                                             AgentDefinition::Origin origin) {
  auto parsed = formats::parseFrontmatter(text, path);
  if (!parsed) return parsed.error();
  auto agent = std::make_shared<AgentDefinition>();
  agent->origin = origin;
  agent->path = path;
  agent->text = std::string(text);
  auto fields = json::Reader::root(parsed->fields.value, "");
  readFields(fields, *agent);
  if (!fields.ok()) return parsed->fields.locate(fields.error());
  agent->systemPrompt = std::string(text::trim(parsed->body));
  if (agent->systemPrompt.empty()) {
    return makeError(Errc::invalid_params, path + ":" + std::to_string(parsed->bodyLine) +
                                               ": the agent's instructions (the text after the frontmatter) are empty");
  }
  return std::shared_ptr<const AgentDefinition>(std::move(agent));
}

AgentFiles readAgentFolder(const std::string& folder, AgentDefinition::Origin origin) {
  namespace fs = std::filesystem;
  AgentFiles out;
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("_") || !name.ends_with(".md") || !it->is_regular_file(ec)) continue;
    files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || fs::file_size(file, ec) > kMaxFileBytes) {
      out.problems.push_back(file.string() + ": could not be read (or is over 1 MB)");
      continue;
    }
    auto agent = parseAgentFile(text.str(), file.string(), origin);
    if (agent) {
      out.agents.push_back(std::move(agent).value());
    } else {
      out.problems.push_back(agent.error().message);
    }
  }
  return out;
}

}  // namespace lathe::engine
