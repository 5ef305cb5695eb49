// TOML and YAML frontmatter read into JSON with the lines their keys came from.
#include <catch2/catch.hpp>

#include "protocol/formats/frontmatter.h"
#include "protocol/formats/toml.h"
#include "protocol/formats/yaml.h"

using namespace lathe;
using namespace lathe::formats;

TEST_CASE("TOML: values become JSON and keys keep their lines") {
  auto doc = parseToml(
      "description = \"Commit message\"\n"
      "prompt = '''\n"
      "Write it for {{args}}\n"
      "'''\n"
      "\n"
      "[[rule]]\n"
      "toolName = \"run_shell_command\"\n"
      "commandPrefix = [\"git status\", \"git diff\"]\n"
      "priority = 100\n"
      "weight = 0.5\n"
      "enabled = true\n"
      "when = 1979-05-27\n",
      "cmd.toml");
  REQUIRE(doc);
  const json::Value& v = doc->value;
  CHECK(std::string(v["description"].GetString()) == "Commit message");
  CHECK(std::string(v["prompt"].GetString()) == "Write it for {{args}}\n");
  const json::Value& rule = v["rule"][0];
  CHECK(rule["commandPrefix"][1].GetString() == std::string("git diff"));
  CHECK(rule["priority"].GetInt64() == 100);
  CHECK(rule["weight"].GetDouble() == 0.5);
  CHECK(rule["enabled"].GetBool());
  CHECK(rule["when"].GetString() == std::string("1979-05-27"));
  CHECK(doc->lineOf("description") == 1);
  CHECK(doc->lineOf("rule[0].priority") == 9);
  CHECK(doc->lineOf("rule[0].commandPrefix[1]") == 8);
  CHECK(doc->where("rule[0].toolName") == "cmd.toml:7");
}

TEST_CASE("TOML: a syntax error names the file, line and column") {
  auto doc = parseToml("description = \"ok\"\nprompt = \n", "commands/git/msg.toml");
  REQUIRE_FALSE(doc);
  CHECK(doc.error().message.rfind("commands/git/msg.toml:2:", 0) == 0);
}

TEST_CASE("TOML: control characters are refused before parsing") {
  auto doc = parseToml(std::string("a = 1\n[[\0x]]\n", 13), "p.toml");
  REQUIRE_FALSE(doc);
  CHECK(doc.error().message == "p.toml:2: control character 0 is not allowed in TOML");
}

TEST_CASE("TOML: non-ASCII text is allowed in strings and comments only") {
  auto fine = parseToml("# caf\xc3\xa9\n"
                        "d = \"caf\xc3\xa9\"\n"
                        "p = \"\"\"\n\xc3\xa9\\\"\"\"\"\"\n"
                        "l = '\xc3\xa9'\n"
                        "m = '''\n\xc3\xa9'''\n",
                        "u.toml");
  REQUIRE(fine);
  CHECK(fine->value["d"].GetString() == std::string("caf\xc3\xa9"));
  CHECK(fine->value["p"].GetString() == std::string("\xc3\xa9\"\""));
  CHECK(fine->value["m"].GetString() == std::string("\xc3\xa9"));
  // Outside strings it is an error from the parser (toml++ 3.3 itself would
  // reach __builtin_unreachable() here: UBSan builds catch a regression).
  for (const char* text : {"a = 1 \xc3\xa9\n", "v = 1'\xef\xbb\xb3'\n", "\xe3\x80\x81 = 1\n", "a = [1,\xc3\xa9]\n"}) {
    auto bad = parseToml(text, "u.toml");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.rfind("u.toml:1:", 0) == 0);
  }
  // TOML's blanks are space and tab; a non-ASCII blank is an error too.
  CHECK_FALSE(parseToml("a =\xc2\xa0 1\n", "u.toml"));
}

TEST_CASE("TOML: a malformed table header is an error, not an assertion") {
  auto doc = parseToml("[[>\n  x = 1\n", "h.toml");
  REQUIRE_FALSE(doc);
  CHECK(doc.error().message.rfind("h.toml:1:", 0) == 0);
}

TEST_CASE("TOML: a reader's error is located at its key") {
  auto doc = parseToml("description = \"x\"\nprompt = 3\n", "a.toml");
  REQUIRE(doc);
  auto reader = json::Reader::root(doc->value, "");
  (void)reader.str("prompt");
  REQUIRE_FALSE(reader.ok());
  CHECK(doc->locate(reader.error()).message == "a.toml:2: prompt: expected a string");
}

TEST_CASE("YAML: plain scalars resolve, quoted ones stay text") {
  auto doc = parseYaml("name: reviewer\nmax_turns: 12\ntemperature: 0.2\nkind: 'true'\nflag: yes\nnone: ~\n"
                       "tools:\n  - read_file\n  - grep_search\n",
                       "agent.md", 2);
  REQUIRE(doc);
  const json::Value& v = doc->value;
  CHECK(v["name"].GetString() == std::string("reviewer"));
  CHECK(v["max_turns"].GetInt64() == 12);
  CHECK(v["temperature"].GetDouble() == 0.2);
  CHECK(v["kind"].GetString() == std::string("true"));
  CHECK(v["flag"].GetString() == std::string("yes"));  // YAML 1.2: not a boolean
  CHECK(v["none"].IsNull());
  CHECK(v["tools"][1].GetString() == std::string("grep_search"));
  CHECK(doc->lineOf("max_turns") == 3);
  CHECK(doc->lineOf("tools[1]") == 10);
}

TEST_CASE("YAML: errors name the file's line, and bombs and deep nesting are refused") {
  auto bad = parseYaml("name: [unclosed\n", "s/SKILL.md", 2);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.rfind("s/SKILL.md:", 0) == 0);

  auto twice = parseYaml("name: a\nname: b\n", "x.md", 2);
  REQUIRE_FALSE(twice);
  CHECK(twice.error().message == "x.md:3: key 'name' appears twice");

  std::string deep(5000, '[');
  CHECK_FALSE(parseYaml(deep, "deep.md"));

  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'h'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    bomb += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  }
  auto exploded = parseYaml(bomb, "bomb.md");
  REQUIRE_FALSE(exploded);
  CHECK(exploded.error().message.find("too many values") != std::string::npos);
}

TEST_CASE("Frontmatter: split as Gemini CLI splits it") {
  auto parts = splitFrontmatter("---\r\nname: x\r\ndescription: d\r\n---\r\n# Body\nline\n");
  REQUIRE(parts);
  CHECK(parts->yaml == "name: x\r\ndescription: d");
  CHECK(parts->body == "# Body\nline\n");
  CHECK(parts->bodyLine == 5);

  CHECK_FALSE(splitFrontmatter("# no frontmatter\n"));
  CHECK_FALSE(splitFrontmatter("---\nname: x\n"));  // never closed
  CHECK_FALSE(splitFrontmatter("---\n---\nbody"));   // nothing between the fences
  auto noBody = splitFrontmatter("---\nname: x\n---");
  REQUIRE(noBody);
  CHECK(noBody->body.empty());
}

TEST_CASE("Frontmatter: parsed fields carry the file's lines") {
  auto parsed = parseFrontmatter("---\nname: greeter\ndescription: >\n  Says hello\n---\nHello {{name}}\n", "SKILL.md");
  REQUIRE(parsed);
  CHECK(parsed->fields.value["name"].GetString() == std::string("greeter"));
  // The YAML ends before the fence's newline, as in Gemini CLI: a folded scalar keeps no newline.
  CHECK(parsed->fields.value["description"].GetString() == std::string("Says hello"));
  CHECK(parsed->fields.lineOf("description") == 3);
  CHECK(parsed->body == "Hello {{name}}\n");
  CHECK(parsed->bodyLine == 6);

  auto none = parseFrontmatter("just text", "a.md");
  REQUIRE_FALSE(none);
  CHECK(none.error().message.rfind("a.md: no frontmatter", 0) == 0);
  auto list = parseFrontmatter("---\n- a\n- b\n---\n", "b.md");
  REQUIRE_FALSE(list);
  CHECK(list.error().message == "b.md:2: the frontmatter must be YAML fields (name: value)");
}

TEST_CASE("TOML: JSON written as TOML reads back as the same values") {
  auto source = json::parse(R"({"rule":[{"toolName":["replace","write_file"],"argsPattern":"\\x00\"file_path\":\"/w/a b.txt\"\\x00",
                                 "priority":950,"weight":0.5,"allowRedirection":true,"toolAnnotations":{"readOnlyHint":true}},
                                {"toolName":"run_shell_command","commandPrefix":["git"],"denyMessage":"it's \"quoted\"\nand ünïcode"}]})");
  REQUIRE(source);
  auto text = writeToml(*source);
  REQUIRE(text);
  INFO(*text);
  CHECK(text->find("[[rule]]") != std::string::npos);
  auto back = parseToml(*text, "written.toml");
  REQUIRE(back);
  CHECK(json::stringify(back->value["rule"][0]["argsPattern"]) == json::stringify((*source)["rule"][0]["argsPattern"]));
  CHECK(back->value["rule"][0]["priority"].GetInt64() == 950);
  CHECK(back->value["rule"][0]["weight"].GetDouble() == 0.5);
  CHECK(back->value["rule"][0]["toolAnnotations"]["readOnlyHint"].GetBool());
  CHECK(back->value["rule"][1]["denyMessage"].GetString() == std::string("it's \"quoted\"\nand ünïcode"));
  CHECK(back->value["rule"][1]["commandPrefix"][0].GetString() == std::string("git"));
  auto withNull = json::parse(R"({"rule":[{"toolName":null}]})");
  auto refused = writeToml(*withNull);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "rule[0].toolName: TOML has no null");
  CHECK_FALSE(writeToml(json::Value(1)));
}
