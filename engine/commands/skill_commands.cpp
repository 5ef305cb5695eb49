// /skills and the skills' own commands.
#include "engine/commands/skill_commands.h"

#include <algorithm>
#include <set>

#include "engine/commands/mcp_prompt_commands.h"
#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr const char* kGroup = "skills";

std::string blanksToDashes(std::string_view name) {
  std::string out;
  bool blank = false;
  for (char c : text::trim(name)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank) out += '-';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace

void refreshSkillCommands(Session& session, CommandRegistry& registry) {
  std::vector<SlashCommand> commands;
  std::set<std::string> names;
  auto taken = [&](const std::string& name) {
    auto held = registry.find(name);
    return names.count(name) || (held && held->group != kGroup);
  };
  for (const auto& skill : session.skills().enabled()) {
    std::string base = commandNameFor(blanksToDashes(skill.name));
    if (!skill.extension.empty()) base = commandNameFor(skill.extension) + ":" + base;
    std::string name = base;
    for (int n = 1; taken(name) && n < 100; ++n) name = base + std::to_string(n);
    names.insert(name);
    std::string description = skill.description.empty() ? "Activate the " + skill.name + " skill" : skill.description;
    commands.push_back(SlashCommand{name, description, std::string("[what to do with it]"),
                                    [skill](const CommandContext& c) -> Result<CommandOutcome> {
                                      std::string ask = c.input.empty() ? "Use the skill " + skill.name : std::string(c.input);
                                      return CommandOutcome::ask({Part::makeText(c.session.activateSkill(skill)),
                                                                  Part::makeText(ask)});
                                    },
                                    kGroup});
  }
  registry.replaceGroup(kGroup, std::move(commands));
}

namespace {

std::string listing(const Session& session, bool descriptions) {
  auto skills = session.skills().all();
  if (skills.empty()) {
    return "No agent skills in this session. Skills are folders holding a SKILL.md, in ~/.gemini/skills, "
           "~/.agents/skills, the workspace's .gemini/skills or .agents/skills, or an extension's skills folder.";
  }
  std::string text = "Agent skills (" + std::to_string(skills.size()) + "):";
  for (const auto& skill : skills) {
    text += "\n- **" + skill.name + "**";
    if (skill.disabled) text += " (disabled in settings: skills.disabled)";
    if (session.skills().active(skill.name)) text += " (active)";
    if (!skill.extension.empty()) text += " from the extension " + skill.extension;
    if (descriptions) text += ": " + skill.description;
    text += " `" + skill.location + "`";
  }
  return text;
}

}  // namespace

void addSkillCommands(Session& session, CommandRegistry& registry, FindSkills find) {
  SlashCommand skills{
      "skills", "List the agent skills of this session, or find them again", std::string("[list [nodesc] | reload]"),
      [find = std::move(find)](const CommandContext& c) -> Result<CommandOutcome> {
        std::vector<std::string> words;
        for (std::string_view rest = c.input; !rest.empty();) {
          size_t end = rest.find(' ');
          words.emplace_back(rest.substr(0, end));
          rest = end == std::string_view::npos ? std::string_view{} : text::trimLeft(rest.substr(end));
        }
        const std::string sub = words.empty() ? "list" : words.front();
        if (sub == "reload" || sub == "refresh") {
          const size_t before = c.session.skills().enabled().size();
          tools::FoundSkills found = find();
          for (const auto& problem : found.problems) c.session.notifyOnce({acp::NoticeSeverity::warning, "Skill problem", problem});
          c.session.setSkills(std::move(found.skills));
          refreshSkillCommands(c.session, c.commands);
          c.say("Agent skills found again: " + std::to_string(c.session.skills().enabled().size()) + " available (" +
                std::to_string(before) + " before).\n\n" + listing(c.session, true));
          return CommandOutcome::done();
        }
        if (sub != "list" && sub != "nodesc" && sub != "all") {
          return makeError(Errc::invalid_params, "unknown subcommand \"" + sub + "\": use /skills, /skills list [nodesc] or /skills reload");
        }
        const bool descriptions = std::find(words.begin(), words.end(), "nodesc") == words.end();
        c.say(listing(c.session, descriptions));
        return CommandOutcome::done();
      },
      ""};
  (void)registry.add(std::move(skills));
  refreshSkillCommands(session, registry);
}

}  // namespace lathe::engine
