// What models trained on Gemini CLI expect of the file tools: read_file
// returns the text exactly (no invented final newline), write_file and
// replace refuse omission placeholders.
#include <catch2/catch.hpp>

#include "tests/tools/core/tool_fixture.h"
#include "tools/files/file_tools.h"
#include "tools/search/search_tools.h"
#include "tools/shell/shell_tools.h"
#include "tools/syntax/syntax_tools.h"
#include "tools/files/omission_placeholders.h"
#include "tools/files/sensitive_paths.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::llmText;
using lathe::testing::readFile;
using lathe::testing::ToolFixture;

namespace {

struct Fixture : ToolFixture {
  Fixture() { context.files = makeDiskFileStore(); }
  std::string args(std::initializer_list<std::pair<const char*, std::string>> fields) {
    return json::build([&](json::Writer& w) {
      w.StartObject();
      for (const auto& [k, v] : fields) json::put(w, k, v);
      w.EndObject();
    });
  }
};

}  // namespace

TEST_CASE("model expectations: read_file returns the text exactly, final newline or not") {
  Fixture f;
  f.root.write("none.txt", "one\ntwo");
  f.root.write("one.txt", "one\ntwo\n");
  auto read = makeReadFileTool(f.context);
  CHECK(llmText(f.run(*read, f.args({{"file_path", "none.txt"}}))) == "one\ntwo");
  CHECK(llmText(f.run(*read, f.args({{"file_path", "one.txt"}}))) == "one\ntwo\n");
  // What was read matches in replace, up to the end of the file.
  auto replace = makeReplaceTool(f.context);
  auto edited = f.run(*replace, f.args({{"file_path", "none.txt"}, {"instruction", "i"}, {"old_string", "one\ntwo"},
                                        {"new_string", "one\nthree"}}));
  REQUIRE_FALSE(edited.error);
  CHECK(readFile(f.root.path / "none.txt") == "one\nthree");
}

TEST_CASE("model expectations: placeholders are recognised, real comments are not") {
  for (const char* line : {"// ... existing code ...", "# ... rest of the code ...", "/* ... rest of the file */",
                           "// rest of the code", "    // ... other methods ...", "<!-- ... existing code ... -->",
                           "... rest of the implementation unchanged ...", "(rest of methods ...)",
                           "[... existing code ...]", "// rest unchanged", "# (unchanged)", "[rest of the file]",
                           "{/* ... */ other methods ...}"}) {
    INFO(line);
    CHECK(newOmissionPlaceholder(std::string("a\n") + line + "\nb\n", ""));
  }
  for (const char* line : {"// the rest of this loop handles errors", "# keep the existing order", "...", "x = y  # ...",
                           "// TODO: handle the remaining cases", "print('...')", "<p>unchanged</p>",
                           "// the result stays unchanged when the input is empty", "(apply f xs)",
                           "[dependencies]", "* Output format unchanged", "# sign unchanged",
                           "## Other methods"}) {
    INFO(line);
    CHECK_FALSE(newOmissionPlaceholder(std::string("a\n") + line + "\nb\n", ""));
  }
  // Lathe's own notes where it cut a text for the model, copied back by a model.
  CHECK(newOmissionPlaceholder("a\n[... 12,000 bytes of this argument were left out by Lathe afterwards: the call "
                               "was too large to keep in the conversation. The call itself ran with the whole text "
                               "...]\nb\n", ""));
  CHECK(newOmissionPlaceholder("a\n[... 5,000 characters omitted; the full output (9,000 characters) was not saved "
                               "...]\n", ""));
  // Already in the text being replaced: not new, so allowed.
  CHECK_FALSE(newOmissionPlaceholder("// ... existing code ...\nx\n", "// ... existing code ...\n"));
}

TEST_CASE("model expectations: write_file and replace refuse placeholders, touching nothing") {
  Fixture f;
  f.root.write("a.js", "function f() {\n  return 1;\n}\n");
  auto write = makeWriteFileTool(f.context);
  auto refused = f.run(*write, f.args({{"file_path", "a.js"}, {"content", "function f() {\n  // ... existing code ...\n}\n"}}));
  REQUIRE(refused.error);
  CHECK(refused.error->message.find("omission placeholder") != std::string::npos);
  CHECK(readFile(f.root.path / "a.js") == "function f() {\n  return 1;\n}\n");

  auto replace = makeReplaceTool(f.context);
  auto r = f.run(*replace, f.args({{"file_path", "a.js"}, {"instruction", "i"}, {"old_string", "  return 1;"},
                                   {"new_string", "  // ... rest of the code ...\n  return 2;"}}));
  REQUIRE(r.error);
  CHECK(r.error->message.find("Write the complete text") != std::string::npos);
  CHECK(readFile(f.root.path / "a.js") == "function f() {\n  return 1;\n}\n");

  auto fine = f.run(*replace, f.args({{"file_path", "a.js"}, {"instruction", "i"}, {"old_string", "  return 1;"},
                                      {"new_string", "  // the rest of the function returns early\n  return 2;"}}));
  CHECK_FALSE(fine.error);
}

TEST_CASE("model expectations: every built-in tool declares a parameter schema that is valid JSON") {
  Fixture f;
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(makeReadFileTool(f.context));
  tools.push_back(makeListDirectoryTool(f.context));
  tools.push_back(makeGlobTool(f.context));
  tools.push_back(makeGrepSearchTool(f.context));
  tools.push_back(makeReadManyFilesTool(f.context));
  tools.push_back(makeWriteFileTool(f.context));
  tools.push_back(makeReplaceTool(f.context));
  tools.push_back(makeOutlineTool(f.context));
  tools.push_back(makeRunShellCommandTool(f.context, ShellSetup{}));
  tools.push_back(makeListBackgroundProcessesTool(ShellSetup{}));
  tools.push_back(makeReadBackgroundOutputTool(ShellSetup{}));
  for (const auto& tool : tools) {
    INFO(tool->name());
    auto parsed = json::parse(tool->info().parametersSchema);
    CHECK(parsed.ok());
  }
}

TEST_CASE("model expectations: edits to .git, .gemini and tool configuration are marked sensitive") {
  Fixture f;
  const auto& ws = *f.context.workspace;
  auto at = [&](const std::string& rel) { return sensitiveEditReason(ws, (f.root.path / rel).string()); };
  CHECK_FALSE(at(".git/config").empty());
  CHECK_FALSE(at(".git/hooks/pre-commit").empty());
  CHECK_FALSE(at(".gemini/settings.json").empty());
  CHECK_FALSE(at(".gitconfig").empty());
  CHECK_FALSE(at("sub/.ripgreprc").empty());
  CHECK(at("src/main.c").empty());
  CHECK(at("docs/git.md").empty());

  f.root.write(".git/config", "[core]\n");
  auto write = makeWriteFileTool(f.context);
  auto built = write->build(json::parse(R"({"file_path": ".git/config", "content": "[core]\n\tfsmonitor = x\n"})").value());
  REQUIRE(built.invocation);
  auto details = built.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details);
  REQUIRE(details->has_value());
  CHECK(std::get<EditConfirmation>(**details).sensitive.find(".git/") != std::string::npos);
}
