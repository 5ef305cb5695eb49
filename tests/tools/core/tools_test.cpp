// Tools: workspace confinement, schema validation, registry, read_file, list_directory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tools/builtin/builtin_tools.h"
#include "tools/files/file_tools.h"
#include "tools/search/search_tools.h"
#include "tools/core/registry.h"
#include "tools/core/schema_validator.h"
#include "tools/core/wait_for_previous.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"
#include "tests/tools/core/tool_fixture.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;

namespace {

using lathe::testing::TempDir;

using Fixture = lathe::testing::ToolFixture;
using lathe::testing::llmText;

}  // namespace

TEST_CASE("workspace resolves inside paths and refuses everything that leads out") {
  Fixture f;
  f.root.write("src/a.txt", "a");
  const auto& ws = *f.context.workspace;
  CHECK(ws.resolve("src/a.txt").value() == (f.root.path / "src/a.txt").string());
  CHECK(ws.resolve((f.root.path / "src/../src/a.txt").string()).value() == (f.root.path / "src/a.txt").string());
  CHECK(ws.resolve("new/file.txt").ok());  // need not exist yet
  CHECK(ws.resolve(".").value() == f.root.path.string());

  CHECK(ws.resolve("../x").error().code == Errc::forbidden);
  CHECK(ws.resolve("src/../../x").error().code == Errc::forbidden);
  CHECK(ws.resolve(f.outside.path.string()).error().code == Errc::forbidden);
  CHECK(ws.resolve("/etc/passwd").error().code == Errc::forbidden);
  // A sibling whose name starts with the root's name is not inside it.
  CHECK(ws.resolve(f.root.path.string() + "-evil/x").error().code == Errc::forbidden);

  fs::create_directory_symlink(f.outside.path, f.root.path / "link-out");
  CHECK(ws.resolve("link-out/secret").error().code == Errc::forbidden);
  // Through a missing folder and back up: the link must still be followed.
  CHECK(ws.resolve("nope/../link-out/secret").error().code == Errc::forbidden);
  CHECK(ws.resolve((f.root.path / "a/b/../../link-out/x").string()).error().code == Errc::forbidden);
  fs::create_symlink(f.outside.path / "file", f.root.path / "file-link");
  CHECK(ws.resolve("file-link").error().code == Errc::forbidden);  // dangling, pointing out
  fs::create_symlink("src", f.root.path / "inner-link");
  CHECK(ws.resolve("inner-link/a.txt").value() == (f.root.path / "src/a.txt").string());
  fs::create_symlink("inner-link/../..", f.root.path / "up-link");
  CHECK(ws.resolve("up-link/x").error().code == Errc::forbidden);
  CHECK(ws.resolve("").error().code == Errc::invalid_params);
}

TEST_CASE("workspace creation checks its roots, additional roots widen it") {
  CHECK_FALSE(Workspace::create("relative/dir").ok());
  CHECK_FALSE(Workspace::create("/definitely/not/here").ok());
  TempDir a, b;
  auto ws = Workspace::create(a.path.string(), {b.path.string()}).value();
  CHECK(ws.resolve((b.path / "x").string()).ok());
  CHECK(ws.relative((b.path / "x").string()) == "x");
}

TEST_CASE("tool kinds keep their ACP spellings") {
  CHECK(std::string(toString(Kind::read)) == "read");
  CHECK(std::string(toString(Kind::del)) == "delete");  // del: delete is a keyword
  CHECK(std::string(toString(Kind::switch_mode)) == "switch_mode");
  CHECK(std::string(toString(Kind::other)) == "other");
}

TEST_CASE("registry rejects duplicates, finds by name, declares in a stable order") {
  Fixture f;
  ToolRegistry registry;
  REQUIRE(registry.add(makeReadFileTool(f.context)).ok());
  REQUIRE(registry.add(makeListDirectoryTool(f.context)).ok());
  CHECK_FALSE(registry.add(makeReadFileTool(f.context)).ok());
  CHECK(registry.find("read_file") != nullptr);
  CHECK(registry.find("nope") == nullptr);
  REQUIRE(registry.addAlias("old_read", "read_file").ok());
  CHECK(registry.find("old_read") == registry.find("read_file"));
  CHECK_FALSE(registry.addAlias("read_file", "list_directory").ok());
  CHECK_FALSE(registry.addAlias("ghost", "no_such_tool").ok());
  auto decl = registry.declarations();
  REQUIRE(decl.size() == 2);
  CHECK(decl[0].name == "list_directory");
  CHECK(decl[1].name == "read_file");
  CHECK(json::parse(decl[1].parametersSchema).value().IsObject());
}

TEST_CASE("registry: built-ins first, then discovered tools, then MCP tools by server, the generation moves") {
  Fixture f;
  ToolRegistry registry(ToolFilter{{}, {"glob"}});
  uint64_t empty = registry.generation();
  REQUIRE(registry.add(makeReadFileTool(f.context), {ToolSource::Group::mcp, "zeta", "read_file"}).ok());
  REQUIRE(registry.add(makeListDirectoryTool(f.context), {ToolSource::Group::mcp, "alpha", "list_directory"}).ok());
  REQUIRE(registry.add(makeGrepSearchTool(f.context), {ToolSource::Group::discovered, "", ""}).ok());
  REQUIRE(registry.add(makeWriteFileTool(f.context)).ok());
  REQUIRE(registry.add(makeGlobTool(f.context)).ok());  // excluded by the filter: dropped
  CHECK(registry.generation() != empty);
  std::vector<std::string> names;
  for (const auto& d : registry.declarations()) names.push_back(d.name);
  CHECK(names == std::vector<std::string>{"write_file", "grep_search", "list_directory", "read_file"});
  CHECK(registry.find("glob") == nullptr);
  CHECK(registry.sourceOf("list_directory")->server == "alpha");
}

TEST_CASE("build validates parameters against the schema with a named field") {
  Fixture f;
  auto tool = makeReadFileTool(f.context);
  auto check = [&](const std::string& args, const std::string& expected) {
    auto doc = json::parse(args).value();
    auto built = tool->build(doc);
    REQUIRE_FALSE(built.invocation);
    CHECK(built.error->type == ErrorType::invalid_params);
    CHECK(built.error->message == expected);
  };
  check("{}", "params.file_path: required parameter is missing");
  check(R"({"file_path": 3})", "params.file_path: must be of type string");
  check(R"({"file_path": "a", "start_line": 0})", "params.start_line: violates minimum 1");
  check(R"({"file_path": "a", "start_line": 5, "end_line": 2})", "params.end_line: must not be before start_line");
  auto outside = json::parse(R"({"file_path": "../x"})").value();
  auto built = tool->build(outside);
  REQUIRE_FALSE(built.invocation);
  CHECK(built.error->type == ErrorType::path_not_in_workspace);
}

TEST_CASE("read_file reads whole small files and describes itself") {
  Fixture f;
  f.root.write("a.txt", "one\ntwo\r\nthree\n");
  auto tool = makeReadFileTool(f.context);
  auto doc = json::parse(R"({"file_path": "a.txt"})").value();
  auto built = tool->build(doc);
  REQUIRE(built.invocation);
  CHECK(built.invocation->description() == "a.txt");
  REQUIRE(built.invocation->locations().size() == 1);
  CHECK(built.invocation->locations()[0].path == (f.root.path / "a.txt").string());
  auto result = f.run(*tool, R"({"file_path": "a.txt"})");
  CHECK_FALSE(result.error);
  CHECK(llmText(result) == "one\ntwo\nthree\n");
}

TEST_CASE("read_file windows, the default limit note, and long lines") {
  Fixture f;
  std::string big;
  for (int i = 1; i <= 2500; ++i) big += "line " + std::to_string(i) + "\n";
  f.root.write("big.txt", big);
  auto tool = makeReadFileTool(f.context);

  auto first = llmText(f.run(*tool, R"({"file_path": "big.txt"})"));
  CHECK(first.find("Showing lines 1-2000 of 2500") != std::string::npos);
  CHECK(first.find("start_line 2001") != std::string::npos);
  CHECK(first.find("line 2000\n") != std::string::npos);
  CHECK(first.find("line 2001\n") == std::string::npos);

  auto window = llmText(f.run(*tool, R"({"file_path": "big.txt", "start_line": 10, "end_line": 12})"));
  CHECK(window.find("line 10\nline 11\nline 12\n") != std::string::npos);
  CHECK(window.find("line 13\n") == std::string::npos);

  auto legacy = llmText(f.run(*tool, R"({"file_path": "big.txt", "offset": 9, "limit": 2})"));
  CHECK(legacy.find("line 10\nline 11\n") != std::string::npos);
  CHECK(legacy.find("line 12\n") == std::string::npos);

  auto past = f.run(*tool, R"({"file_path": "big.txt", "start_line": 3000})");
  REQUIRE(past.error);
  CHECK(past.error->message.find("past the end") != std::string::npos);

  f.root.write("long.txt", std::string(5000, 'x') + "\nshort\n");
  auto cut = llmText(f.run(*tool, R"({"file_path": "long.txt"})"));
  CHECK(cut.find("... [line cut]") != std::string::npos);
  CHECK(cut.find(std::string(2001, 'x')) == std::string::npos);
  CHECK(cut.find("short") != std::string::npos);
}

TEST_CASE("read_file errors: missing, directory, binary, too large, images inline") {
  Fixture f;
  auto tool = makeReadFileTool(f.context);
  CHECK(f.run(*tool, R"({"file_path": "missing.txt"})").error->type == ErrorType::file_not_found);
  fs::create_directory(f.root.path / "dir");
  CHECK(f.run(*tool, R"({"file_path": "dir"})").error->type == ErrorType::is_directory);
  f.root.write("bin.dat", std::string("\x7f" "ELF\0\0\0\x01", 8));
  CHECK(f.run(*tool, R"({"file_path": "bin.dat"})").error->type == ErrorType::binary_file);

  f.root.write("pic.png", std::string("\x89PNG\r\n\x1a\n", 8));
  auto image = f.run(*tool, R"({"file_path": "pic.png"})");
  REQUIRE_FALSE(image.error);
  REQUIRE(image.llmContent.size() == 1);
  CHECK(image.llmContent[0].mimeType == "image/png");
  CHECK(image.llmContent[0].data == "iVBORw0KGgo=");

  ToolContext small = f.context;
  small.limits.maxFileBytes = 10;
  f.root.write("eleven.txt", "12345678901");
  auto limited = makeReadFileTool(small);
  CHECK(f.run(*limited, R"({"file_path": "eleven.txt"})").error->type == ErrorType::file_too_large);
}

TEST_CASE("list_directory lists folders first, sorted, with ignore patterns") {
  Fixture f;
  f.root.write("b.txt", "");
  f.root.write("a.log", "");
  f.root.write("zdir/x", "");
  f.root.write("adir/y", "");
  auto tool = makeListDirectoryTool(f.context);
  auto all = llmText(f.run(*tool, R"({"dir_path": "."})"));
  CHECK(all == "Directory listing for " + f.root.path.string() +
                   ":\n[DIR] adir\n[DIR] zdir\na.log (0 bytes)\nb.txt (0 bytes)\n");
  auto filtered = llmText(f.run(*tool, R"({"dir_path": ".", "ignore": ["*.log", "z*"]})"));
  CHECK(filtered.find("a.log") == std::string::npos);
  CHECK(filtered.find("zdir") == std::string::npos);
  CHECK(filtered.find("(2 ignored)") != std::string::npos);
  CHECK(f.run(*tool, R"({"dir_path": "nope"})").error->type == ErrorType::file_not_found);
  CHECK(f.run(*tool, R"({"dir_path": "b.txt"})").error->type == ErrorType::not_a_directory);
  CHECK(f.run(*tool, R"({"dir_path": "/"})").error->type == ErrorType::path_not_in_workspace);
}

TEST_CASE("list_directory shows sizes, hides .git and honours .gitignore and .geminiignore") {
  Fixture f;
  f.root.write(".git/HEAD", "ref: refs/heads/main\n");
  f.root.write(".gitignore", "build/\n*.o\n");
  f.root.write(".geminiignore", "secret.env\n");
  f.root.write("main.c", "int main(){}\n");
  f.root.write("main.o", "obj");
  f.root.write("secret.env", "KEY=1\n");
  f.root.write("build/out", "x");
  f.root.write("src/keep.c", "");
  f.root.write("src/drop.o", "");
  auto tool = makeListDirectoryTool(f.context);
  std::string all = llmText(f.run(*tool, R"({"dir_path": "."})"));
  CHECK(all.find(".git\n") == std::string::npos);
  CHECK(all.find("[DIR] .git") == std::string::npos);
  CHECK(all.find("main.c (13 bytes)") != std::string::npos);
  CHECK(all.find("main.o") == std::string::npos);
  CHECK(all.find("build") == std::string::npos);
  CHECK(all.find("secret.env") == std::string::npos);
  CHECK(all.find("(3 ignored)") != std::string::npos);
  CHECK(all.find("[DIR] src\n") < all.find(".geminiignore"));  // folders first
  std::string sub = llmText(f.run(*tool, R"({"dir_path": "src"})"));
  CHECK(sub.find("keep.c") != std::string::npos);
  CHECK(sub.find("drop.o") == std::string::npos);
  std::string unfiltered = llmText(f.run(
      *tool, R"({"dir_path": ".", "file_filtering_options": {"respect_git_ignore": false, "respect_gemini_ignore": false}})"));
  CHECK(unfiltered.find("main.o (3 bytes)") != std::string::npos);
  CHECK(unfiltered.find("secret.env") != std::string::npos);
  CHECK(unfiltered.find(".git\n") == std::string::npos);
}

TEST_CASE("read_file refuses what .geminiignore ignores") {
  Fixture f;
  f.root.write(".geminiignore", "private/\n*.key\n");
  f.root.write("private/notes.txt", "hidden");
  f.root.write("id.key", "hidden");
  f.root.write("open.txt", "visible");
  auto tool = makeReadFileTool(f.context);
  for (const char* path : {"private/notes.txt", "id.key"}) {
    INFO(path);
    auto result = f.run(*tool, std::string(R"({"file_path": ")") + path + "\"}");
    REQUIRE(result.error);
    CHECK(result.error->message.find(".geminiignore") != std::string::npos);
    CHECK(llmText(result).find("hidden") == std::string::npos);
  }
  CHECK(llmText(f.run(*tool, R"({"file_path": "open.txt"})")) == "visible");
}

namespace {

// Reports the argument names it was built with (as its "error", so no
// invocation type is needed); its schema allows no other properties.
class KeysProbe final : public Tool {
 public:
  KeysProbe()
      : Tool(ToolInfo{.name = "probe",
                      .displayName = "Probe",
                      .description = "reports its arguments",
                      .kind = Kind::read,
                      .parametersSchema =
                          R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})",
                      .isOutputMarkdown = false}) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    std::string keys;
    for (auto it = params.MemberBegin(); it != params.MemberEnd(); ++it) keys += std::string(it->name.GetString()) + ";";
    return invalidParams("keys: " + keys);
  }
};

}  // namespace

TEST_CASE("wait_for_previous is declared for every tool, accepted by every tool and never reaches it") {
  Fixture f;
  ToolRegistry registry;
  REQUIRE(registry.add(makeReadFileTool(f.context)).ok());
  REQUIRE(registry.add(std::make_unique<KeysProbe>()).ok());
  for (const auto& d : registry.declarations()) {
    INFO(d.name);
    auto schema = json::parse(d.parametersSchema).value();
    REQUIRE(schema["properties"].HasMember("wait_for_previous"));
    CHECK(std::string(schema["properties"]["wait_for_previous"]["type"].GetString()) == "boolean");
  }
  // Added once, and only to object schemas.
  CHECK(withWaitForPrevious(withWaitForPrevious(R"({"type":"object"})")) ==
        withWaitForPrevious(R"({"type":"object"})"));
  CHECK(withWaitForPrevious(R"({"type":"string"})") == R"({"type":"string"})");

  KeysProbe probe;
  auto built = probe.build(json::parse(R"({"a":"x","wait_for_previous":true})").value());
  REQUIRE(built.error);
  CHECK(built.error->message == "keys: a;");  // valid despite additionalProperties:false, and taken out
  auto wrong = probe.build(json::parse(R"({"a":"x","wait_for_previous":"yes"})").value());
  REQUIRE(wrong.error);
  CHECK(wrong.error->message.find("wait_for_previous: must be boolean") != std::string::npos);
  CHECK(probe.build(json::parse(R"({"a":"x","other":1})").value()).error->message.find("keys:") == std::string::npos);

  auto read = makeReadFileTool(f.context);
  f.root.write("a.txt", "text");
  CHECK(llmText(f.run(*read, R"({"file_path": "a.txt", "wait_for_previous": false})")) == "text");
  CHECK(waitsForPrevious(std::string(R"({"wait_for_previous": true})")));
  CHECK_FALSE(waitsForPrevious(std::string(R"({"wait_for_previous": false})")));
  CHECK_FALSE(waitsForPrevious(std::string("not json wait_for_previous")));
}

TEST_CASE("the tool families register every built-in tool, with grep_search's older name", "[tools][builtin]") {
  Fixture f;
  auto names = [](const ToolRegistry& registry) {
    std::vector<std::string> out;
    for (const auto& d : registry.declarations()) out.push_back(d.name);
    return out;
  };
  ToolRegistry registry;
  registerBuiltinTools(registry, f.context, ShellOptions{});
  // No model that searches the web, no global memory file: neither tool.
  CHECK(names(registry) == std::vector<std::string>{"glob", "grep_search", "list_background_processes",
                                                    "list_directory", "read_background_output", "read_file",
                                                    "read_many_files", "read_outline", "replace",
                                                    "run_shell_command", "web_fetch", "write_file", "write_todos"});
  auto alias = registry.find("search_file_content");
  REQUIRE(alias);
  CHECK(alias->name() == "grep_search");

  f.context.globalMemoryFile = (f.outside.path / "GEMINI.md").string();
  ToolRegistry withMemory;
  registerBuiltinTools(withMemory, f.context, ShellOptions{});
  CHECK(withMemory.find("save_memory"));

  // The filter still decides: tools.core keeps these, the alias goes with its tool.
  ToolRegistry core(ToolFilter{{"read_file", "replace"}, {}});
  registerBuiltinTools(core, f.context, ShellOptions{});
  CHECK(names(core) == std::vector<std::string>{"read_file", "replace"});
  CHECK_FALSE(core.find("search_file_content"));
}

TEST_CASE("tools with the same schema share one compiled validator", "[tools][schema]") {
  const std::string schema = R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})";
  auto first = tools::SchemaValidator::shared(schema);
  auto second = tools::SchemaValidator::shared(schema);
  CHECK(first.get() == second.get());
  auto other = tools::SchemaValidator::shared(R"({"type":"object"})");
  CHECK(other.get() != first.get());
  auto params = json::parse(R"({"n":"x"})");
  REQUIRE(params);
  auto problem = second->validate(*params);
  REQUIRE(problem);
  CHECK_THAT(*problem, Catch::Contains("params.n"));
  // Once nobody holds it, a schema is compiled anew, and still works.
  first.reset();
  second.reset();
  auto again = tools::SchemaValidator::shared(schema);
  CHECK(again->validate(*json::parse(R"({"n":1})")) == std::nullopt);
}
