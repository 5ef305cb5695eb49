// activate_skill: a skill's instructions and resources, once the person agrees.
// Runs on a worker thread.
#include <algorithm>
#include <filesystem>

#include "tools/skills/skill_set.h"
#include "tools/skills/skill_tools.h"

namespace lathe::tools {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxResources = 200;

// The files of the skill's folder, by path (links to folders are not entered).
std::string resourceList(const std::string& folder) {
  std::vector<std::string> files;
  size_t more = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name == ".git" || name == "node_modules")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(ec)) continue;
    if (files.size() == kMaxResources) {
      ++more;
      continue;
    }
    files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  std::string out = "Folder " + folder + "/ (read its files with read_file, list it with list_directory):";
  for (const auto& file : files) out += "\n- " + file;
  if (more > 0) out += "\n- ...and " + std::to_string(more) + " more files";
  return out;
}

std::string schemaFor(const std::vector<Skill>& skills) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "type", "object");
    json::key(w, "properties");
    w.StartObject();
    json::key(w, "name");
    w.StartObject();
    json::put(w, "type", "string");
    if (skills.empty()) {
      json::put(w, "description", "No skills are available.");
    } else {
      json::key(w, "enum");
      json::array(w, [&] {
        for (const auto& skill : skills) json::str(w, skill.name);
      });
      json::put(w, "description", "The name of the skill to activate.");
    }
    w.EndObject();
    w.EndObject();
    json::key(w, "required");
    json::array(w, [&] { json::str(w, "name"); });
    w.EndObject();
  });
}

std::string descriptionFor(const std::vector<Skill>& skills) {
  std::string names;
  for (const auto& skill : skills) names += (names.empty() ? "" : ", ") + std::string("'") + skill.name + "'";
  return "Activates one of the agent skills listed under <available_skills> by its exact name" +
         (names.empty() ? std::string() : " (" + names + ")") +
         ", and returns its instructions in <activated_skill> tags with the list of its resources, whose files "
         "you may then read. Use it when the task matches a skill's description.";
}

class ActivateSkillInvocation final : public ToolInvocation {
 public:
  ActivateSkillInvocation(ToolContext context, std::string name) : context_(std::move(context)), name_(std::move(name)) {}

  std::string description() const override {
    auto skill = context_.skills->find(name_);
    return "\"" + name_ + "\"" + (skill ? ": " + skill->description : " (unknown skill)");
  }

  // The person sees what the model is about to get and which folder it may then read.
  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    auto skill = context_.skills->find(name_);
    if (!skill) return std::optional<ConfirmationDetails>{};
    InfoConfirmation ask;
    ask.prompt = "Activate the skill \"" + skill->name + "\"? The model gets its instructions (" + skill->location +
                 ") and may then read the files of its folder.\n\nDescription: " + skill->description + "\n\n" +
                 resourceList(skill->folder());
    return std::optional<ConfirmationDetails>{std::move(ask)};
  }

  ToolResult execute(const CancelToken&, const OutputSink&) override {
    auto skill = context_.skills->find(name_);
    if (!skill) {
      std::string names;
      for (const auto& known : context_.skills->enabled()) names += (names.empty() ? "" : ", ") + known.name;
      return ToolResult::failure(ErrorType::invalid_params,
                                 "Skill \"" + name_ + "\" not found. Available skills are: " + names);
    }
    std::string text = activateSkill(context_, *skill);
    return ToolResult::text(std::move(text), "Skill **" + skill->name + "** activated; its folder " + skill->folder() +
                                                 " is readable now.");
  }

 private:
  ToolContext context_;
  std::string name_;
};

class ActivateSkillTool final : public Tool {
 public:
  ActivateSkillTool(ToolContext context, const std::vector<Skill>& skills)
      : Tool(ToolInfo{.name = "activate_skill",
                      .displayName = "Activate Skill",
                      .description = descriptionFor(skills),
                      .kind = Kind::read,
                      .parametersSchema = schemaFor(skills)}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string name = r.str("name");
    if (!r.ok()) return invalidParams(r.error().message);
    return {std::make_unique<ActivateSkillInvocation>(context_, std::move(name)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::string activateSkill(const ToolContext& context, const Skill& skill) {
  if (context.skills) context.skills->markActive(skill.name);
  if (context.readableFolders) context.readableFolders->add(skill.folder());
  return "<activated_skill name=\"" + skill.name + "\">\n  <instructions>\n    " + skill.body +
         "\n  </instructions>\n\n  <available_resources>\n    " + resourceList(skill.folder()) +
         "\n  </available_resources>\n</activated_skill>";
}

std::unique_ptr<Tool> makeActivateSkillTool(const ToolContext& context) {
  return std::make_unique<ActivateSkillTool>(context, context.skills ? context.skills->enabled() : std::vector<Skill>{});
}

void registerSkillTools(ToolRegistry& registry, const ToolContext& context) {
  if (!context.skills || context.skills->enabled().empty()) return;
  (void)registry.add(makeActivateSkillTool(context));
}

}  // namespace lathe::tools
