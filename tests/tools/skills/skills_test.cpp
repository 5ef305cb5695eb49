// Agent skills as Gemini CLI 0.61 reads them: SKILL.md frontmatter (YAML,
// else its line fallback), names made safe, the folders scanned, the tiers'
// precedence, disabled names, activation and the readable folder.
#include <catch2/catch.hpp>

#include "tools/core/readable_folders.h"
#include "tools/skills/skill_loader.h"
#include "tools/skills/skill_set.h"
#include "tools/skills/skill_tools.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::TempDir;

TEST_CASE("skills: frontmatter read as YAML, else line by line as Gemini CLI falls back") {
  auto yaml = parseSkill("---\nname: code-review\ndescription:\n  Reviews code. Use when\n  asked to review.\n---\n\n# Body\n\nSteps.\n", "/s/SKILL.md");
  REQUIRE(yaml);
  CHECK(yaml->name == "code-review");
  CHECK(yaml->description == "Reviews code. Use when asked to review.");
  CHECK(yaml->body == "# Body\n\nSteps.");
  CHECK(yaml->folder() == "/s");

  // "Use when: ..." is no YAML mapping: the fallback reads it anyway.
  auto colons = parseSkill("---\nname: deploy: prod\ndescription: Deploys. Use when: releasing\n  and tagging\nother: x\n---\nGo.",
                           "/d/SKILL.md");
  REQUIRE(colons);
  CHECK(colons->name == "deploy- prod");
  CHECK(colons->description == "Deploys. Use when: releasing and tagging");
  CHECK(colons->body == "Go.");

  auto noName = parseSkill("---\ndescription: nameless\n---\nbody", "/n/SKILL.md");
  REQUIRE_FALSE(noName);
  CHECK_THAT(noName.error().message, Catch::Contains("/n/SKILL.md:2") && Catch::Contains("no name"));
  auto noDescription = parseSkill("---\nname: x\n---\n", "/x/SKILL.md");
  REQUIRE_FALSE(noDescription);
  CHECK_THAT(noDescription.error().message, Catch::Contains("no description"));
  auto noFence = parseSkill("# just markdown\n", "/m/SKILL.md");
  REQUIRE_FALSE(noFence);
  CHECK_THAT(noFence.error().message, Catch::Contains("/m/SKILL.md: no frontmatter"));
}

TEST_CASE("skills: a folder's own SKILL.md and its subfolders', problems named, the rest loaded") {
  TempDir dir;
  dir.write("a/SKILL.md", "---\nname: a\ndescription: first\n---\nA");
  dir.write("b/SKILL.md", "---\nname: b\n---\nB");
  dir.write("b/deeper/c/SKILL.md", "---\nname: c\ndescription: too deep\n---\nC");
  dir.write(".hidden/SKILL.md", "---\nname: h\ndescription: hidden\n---\nH");
  dir.write("node_modules/SKILL.md", "---\nname: n\ndescription: modules\n---\nN");
  dir.write("loose.md", "not a skill");
  auto scan = loadSkillsFromDir(dir.str());
  REQUIRE(scan.skills.size() == 1);
  CHECK(scan.skills[0].name == "a");
  CHECK(scan.skills[0].location == dir.str() + "/a/SKILL.md");
  REQUIRE(scan.problems.size() == 1);
  CHECK_THAT(scan.problems[0], Catch::Contains("b/SKILL.md") && Catch::Contains("no description"));
  CHECK(loadSkillsFromDir(dir.str() + "/missing").skills.empty());
}

TEST_CASE("skills: a later tier replaces a skill of the same name and says so, disabled names in any case") {
  Skill ext{"review", "from the extension", "/ext/review/SKILL.md", "E", "tools", false};
  Skill user{"review", "the person's", "/home/.gemini/skills/review/SKILL.md", "U", "", false};
  Skill lint{"Lint", "lints", "/home/.agents/skills/lint/SKILL.md", "L", "", false};
  Skill ws{"review", "the workspace's", "/ws/.gemini/skills/review/SKILL.md", "W", "", false};
  auto merged = mergeSkillTiers({{ext}, {user, lint}, {ws}}, {"lint"});
  REQUIRE(merged.skills.size() == 2);
  CHECK(merged.skills[0].description == "the workspace's");
  CHECK(merged.skills[1].disabled);
  REQUIRE(merged.problems.size() == 2);
  CHECK_THAT(merged.problems[1], Catch::Contains("/ws/.gemini/skills/review/SKILL.md replaces the one of /home"));

  SkillSet set;
  set.assign(merged.skills);
  CHECK(set.enabled().size() == 1);
  CHECK(set.find("REVIEW"));
  CHECK_FALSE(set.find("lint"));  // disabled
}

TEST_CASE("skills: activating one makes its folder readable, and nothing else") {
  TempDir dir;
  dir.write("skill/SKILL.md", "---\nname: s\ndescription: d\n---\nDO THIS");
  dir.write("skill/ref/notes.md", "notes");
  dir.write("elsewhere.txt", "private");
  auto skill = readSkillFile(dir.str() + "/skill/SKILL.md");
  REQUIRE(skill);
  ToolContext context;
  context.readableFolders = std::make_shared<ReadableFolders>();
  context.skills = std::make_shared<SkillSet>();
  context.skills->assign({*skill});
  CHECK_FALSE(context.readableFolders->resolve(dir.str() + "/skill/ref/notes.md"));
  std::string text = activateSkill(context, *skill);
  CHECK_THAT(text, Catch::StartsWith("<activated_skill name=\"s\">\n  <instructions>\n    DO THIS"));
  CHECK_THAT(text, Catch::Contains("<available_resources>") && Catch::Contains(dir.str() + "/skill/ref/notes.md"));
  CHECK(context.skills->active("s"));
  CHECK(context.readableFolders->resolve(dir.str() + "/skill/ref/notes.md") == dir.str() + "/skill/ref/notes.md");
  CHECK_FALSE(context.readableFolders->resolve(dir.str() + "/elsewhere.txt"));
  CHECK_FALSE(context.readableFolders->resolve(dir.str() + "/skill/../elsewhere.txt"));
  CHECK_FALSE(context.readableFolders->resolve("skill/ref/notes.md"));  // relative paths are the workspace's
}
