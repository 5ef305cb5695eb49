// Custom commands as Gemini CLI 0.61 reads them: names from paths, the
// workspace's winning, extensions renamed on a clash, problems naming the
// file, line and field; the prompt's {{args}}, @{…} and !{…} and the
// shell quoting of arguments (shell-quote's rules).
#include <catch2/catch.hpp>

#include "engine/commands/command_template.h"
#include "engine/commands/file_commands.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::TempDir;

namespace {

std::vector<std::string> names(const FileCommandScan& scan) {
  std::vector<std::string> out;
  for (const auto& command : scan.commands) out.push_back(command.name);
  return out;
}

const FileCommand* named(const FileCommandScan& scan, const std::string& name) {
  for (const auto& command : scan.commands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

std::string kinds(const std::vector<TemplatePiece>& pieces) {
  std::string out;
  for (const auto& piece : pieces) {
    out += piece.kind == TemplatePiece::Kind::text ? "T[" : piece.kind == TemplatePiece::Kind::file ? "F[" : "S[";
    out += piece.value + "]";
  }
  return out;
}

}  // namespace

TEST_CASE("custom commands: named by folder, the workspace's winning, an extension's renamed when taken") {
  TempDir user, ws, ext;
  user.write("git/msg.toml", "prompt = \"user msg\"\ndescription = \"Commit message\"\n");
  user.write("hello.toml", "prompt = \"user hello\"\n");
  user.write("help.toml", "prompt = \"mine\"\n");
  user.write("we ird/na me!.toml", "prompt = \"odd\"\n");
  ws.write("hello.toml", "prompt = \"workspace hello\"\n");
  ws.write(".hidden/x.toml", "prompt = \"hidden folders count\"\n");
  ws.write("notes.txt", "not a command\n");
  ext.write("hello.toml", "prompt = \"extension hello\"\n");
  ext.write("deploy.toml", "prompt = \"deploy\"\n");
  std::vector<CommandFolder> folders{{user.str(), FileCommand::Origin::user, ""},
                                     {ws.str(), FileCommand::Origin::workspace, ""},
                                     {ext.str(), FileCommand::Origin::extension, "gcp"}};
  auto scan = loadFileCommands(folders, [](const std::string& name) { return name == "help"; });
  CHECK(scan.problems.empty());
  CHECK(names(scan) == std::vector<std::string>{".hidden:x", "deploy", "gcp:hello", "git:msg", "hello", "user.help",
                                                "we_ird:na_me_"});
  CHECK(named(scan, "hello")->prompt == "workspace hello");
  CHECK(named(scan, "gcp:hello")->prompt == "extension hello");
  CHECK(named(scan, "git:msg")->description == "Commit message");
  CHECK(named(scan, "hello")->description == "Custom command from hello.toml");
  CHECK(named(scan, "deploy")->description == "[gcp] Custom command from deploy.toml");
}

TEST_CASE("custom commands: a file that cannot be used names itself, its line and the field") {
  TempDir dir;
  dir.write("broken.toml", "prompt = \"open\n");
  dir.write("noprompt.toml", "description = \"x\"\n");
  dir.write("number.toml", "\n\nprompt = 3\n");
  dir.write("good.toml", "prompt = '''multi\nline'''\ndescription = \"  spread\\n  over   lines  \"\n");
  auto scan = loadFileCommands({{dir.str(), FileCommand::Origin::user, ""}}, nullptr);
  REQUIRE(scan.commands.size() == 1);
  CHECK(scan.commands[0].prompt == "multi\nline");
  CHECK(scan.commands[0].description == "spread over lines");
  REQUIRE(scan.problems.size() == 3);
  CHECK_THAT(scan.problems[0], Catch::StartsWith(dir.str() + "/broken.toml:1"));
  CHECK_THAT(scan.problems[1], Catch::Contains("noprompt.toml") && Catch::Contains("prompt: required string is missing"));
  CHECK_THAT(scan.problems[2], Catch::Contains("number.toml:3: prompt: expected a string"));
}

TEST_CASE("custom commands: {{args}} as typed, shell-quoted inside !{…}, the line appended without it") {
  auto pieces = expandTemplate("Find `{{args}}`: !{grep -r {{args}} .} done", "It's complicated", "/find It's complicated", "find");
  REQUIRE(pieces);
  CHECK(kinds(*pieces) == "T[Find `It's complicated`: ]S[grep -r \"It's complicated\" .]T[ done]");

  auto plain = expandTemplate("Summarise the changes.", "in detail", "/sum in detail", "sum");
  REQUIRE(plain);
  CHECK(kinds(*plain) == "T[Summarise the changes.\n\n/sum in detail]");
  auto bare = expandTemplate("Summarise the changes.", "", "/sum", "sum");
  CHECK(kinds(*bare) == "T[Summarise the changes.]");

  SECTION("files first, never read for injections") {
    auto files = expandTemplate("Review {{args}} with @{docs/guide.md} and !{ls {{args}}}", "a b", "/r a b", "r");
    REQUIRE(files);
    CHECK(kinds(*files) == "T[Review a b with ]F[docs/guide.md]T[ and ]S[ls 'a b']");
  }
  SECTION("nested braces balance; an unclosed one or an empty path is refused") {
    auto json = expandTemplate("!{echo '{\"a\": {\"b\": 1}}'}", "", "/j", "j");
    REQUIRE(json);
    CHECK(kinds(*json) == "S[echo '{\"a\": {\"b\": 1}}']");
    auto open = expandTemplate("x !{echo {", "", "/o", "o");
    REQUIRE_FALSE(open);
    CHECK_THAT(open.error().message, Catch::Contains("/o") && Catch::Contains("never closes"));
    CHECK_FALSE(expandTemplate("@{ }", "", "/e", "e"));
    auto empty = expandTemplate("a!{}b", "", "/e", "e");
    REQUIRE(empty);
    CHECK(kinds(*empty) == "T[a]T[b]");
  }
}

TEST_CASE("custom commands: arguments quoted for bash as shell-quote quotes them") {
  CHECK(quoteShellArg("") == "");
  CHECK(quoteShellArg("plain") == "plain");
  CHECK(quoteShellArg("a b") == "'a b'");
  CHECK(quoteShellArg("say \"hi\"") == "'say \"hi\"'");
  CHECK(quoteShellArg("back\\slash") == "'back\\slash'");
  CHECK(quoteShellArg("It's") == "\"It's\"");
  CHECK(quoteShellArg("It's $HOME `x` !") == "\"It's \\$HOME \\`x\\` \\!\"");
  CHECK(quoteShellArg("a;rm -rf /") == "'a;rm -rf /'");
  CHECK(quoteShellArg("a;b|c&d") == "a\\;b\\|c\\&d");
  CHECK(quoteShellArg("$(id)") == "\\$\\(id\\)");
  CHECK(quoteShellArg("C:|x") == "C:\\|x");
  CHECK(quoteShellArg("a:b") == "a\\:b");
  CHECK(quoteShellArg("tab\there") == "'tab\there'");
  CHECK(quoteShellArg("nbsp\xC2\xA0here") == "'nbsp\xC2\xA0here'");
}
