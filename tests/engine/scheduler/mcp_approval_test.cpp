// MCP calls through the real scheduler, with small fake tools registered in
// the MCP group (the MCP client lives elsewhere): the permission request
// names server and tool; "always allow this server" holds for its other
// tools and no other server's; tools.allowed in either spelling, mcp.allowed
// and trust skip asking; plan mode refuses tools not read-only.
#include <catch2/catch.hpp>

#include <atomic>

#include "engine/config/program_settings.h"
#include "engine/scheduler/tool_scheduler.h"
#include "tests/engine/session/fake_editor.h"

using namespace lathe;
using namespace lathe::engine;
using testing::FakeEditor;

namespace {

class FakeMcpTool final : public tools::Tool {
 public:
  FakeMcpTool(std::string server, std::string tool, tools::Kind kind)
      : Tool(tools::ToolInfo{.name = server + "__" + tool,
                             .displayName = tool + " (" + server + ")",
                             .description = "a fake MCP tool",
                             .kind = kind,
                             .parametersSchema = R"({"type":"object"})"}),
        server_(std::move(server)),
        tool_(std::move(tool)) {}
  mutable std::atomic<int> runs{0};
  tools::ToolSource source() const { return {tools::ToolSource::Group::mcp, server_, tool_}; }

 protected:
  tools::BuildResult createInvocation(const json::Value&) const override {
    return {std::make_unique<Invocation>(*this), std::nullopt};
  }

 private:
  class Invocation final : public tools::ToolInvocation {
   public:
    explicit Invocation(const FakeMcpTool& tool) : tool_(tool) {}
    std::string description() const override { return "{}"; }
    Result<std::optional<tools::ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
      return std::optional<tools::ConfirmationDetails>(tools::McpConfirmation{tool_.server_, tool_.tool_});
    }
    tools::ToolResult execute(const CancelToken&, const tools::OutputSink&) override {
      ++tool_.runs;
      return tools::ToolResult::text("ok", "ok");
    }

   private:
    const FakeMcpTool& tool_;
  };
  std::string server_;
  std::string tool_;
};

struct Fixture {
  tools::ToolRegistry registry;
  FakeEditor editor;
  std::atomic<ApprovalMode> mode{ApprovalMode::standard};
  std::map<std::string, FakeMcpTool*> tools;
  std::unique_ptr<ToolScheduler> scheduler;

  explicit Fixture(SessionApprovals configured = {}, tools::ToolFilter filter = {}) : registry(std::move(filter)) {
    add("files", "read_it", tools::Kind::read);
    add("files", "write_it", tools::Kind::other);
    add("web", "fetch_it", tools::Kind::other);
    scheduler = std::make_unique<ToolScheduler>(registry, editor, "s", mode, std::move(configured));
    editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("allow_once"); };
  }
  void add(const std::string& server, const std::string& name, tools::Kind kind) {
    auto tool = std::make_unique<FakeMcpTool>(server, name, kind);
    auto* raw = tool.get();
    auto source = tool->source();
    REQUIRE(registry.add(std::move(tool), source));
    tools[server + "__" + name] = raw;
  }
  int run(const std::string& name) {
    size_t before = editor.asked.size();
    scheduler->run({FunctionCall{"", name, json::Raw{"{}"}}}, CancelToken());
    return static_cast<int>(editor.asked.size() - before);
  }
};

}  // namespace

TEST_CASE("MCP: the request names server and tool, offers the tool then the server, an option not offered is a no") {
  Fixture f;
  f.editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("allow_always_server"); };
  CHECK(f.run("files__write_it") == 1);
  const auto& ask = f.editor.asked.front();
  REQUIRE(ask.toolCall.content);
  CHECK((*ask.toolCall.content)[0].text == "MCP tool write_it from server files");
  REQUIRE(ask.options.size() == 4);
  CHECK(ask.options[1].name == "Allow write_it from files for this session");
  CHECK(ask.options[2].name == "Allow every tool from files for this session");
  CHECK(f.tools["files__write_it"]->runs == 0);
  CHECK(f.run("files__read_it") == 1);  // nothing was remembered
}

TEST_CASE("MCP: 'always allow this tool' holds for that tool only") {
  Fixture f;
  f.editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("allow_always_mcp_tool"); };
  CHECK(f.run("files__write_it") == 1);
  CHECK(f.run("files__write_it") == 0);
  CHECK(f.run("files__read_it") == 1);
  CHECK(f.tools["files__write_it"]->runs == 2);
}

TEST_CASE("MCP: 'always allow this server' holds for every tool of that server only") {
  Fixture f;
  f.editor.answer = [](const acp::RequestPermissionRequest&) { return FakeEditor::select("allow_always_mcp_server"); };
  CHECK(f.run("files__write_it") == 1);
  CHECK(f.run("files__read_it") == 0);
  CHECK(f.run("web__fetch_it") == 1);
}

TEST_CASE("MCP: settings skip asking (tools.allowed either spelling, mcp.allowed, trust) and exclude tools") {
  {
    Fixture f(configuredApprovals({"mcp_files_write_it"}, {}));
    CHECK(f.run("files__write_it") == 0);
    CHECK(f.run("files__read_it") == 1);
  }
  {
    Fixture f(configuredApprovals({"web__fetch_it"}, {}));
    CHECK(f.run("web__fetch_it") == 0);
  }
  {
    ProgramSettings user;
    tools::mcp::ServerConfig trusted;
    trusted.name = "web";
    trusted.trust = true;
    user.mcpServers.push_back(trusted);
    Fixture f(configuredApprovals({}, {}, unaskedMcpServers(user, std::vector<std::string>{"files"})));
    CHECK(f.run("files__write_it") == 0);
    CHECK(f.run("web__fetch_it") == 0);
    CHECK(f.tools["web__fetch_it"]->runs == 1);
  }
  {
    Fixture f({}, tools::ToolFilter{{}, {"mcp_files_write_it", "web__fetch_it"}});
    CHECK_FALSE(f.registry.find("files__write_it"));  // dropped quietly by tools.exclude
    CHECK_FALSE(f.registry.find("web__fetch_it"));
    CHECK(f.registry.find("files__read_it"));
  }
}

TEST_CASE("MCP: plan mode refuses tools not read-only, asks for read-only ones") {
  Fixture f(configuredApprovals({}, {}, {"files"}));
  f.mode = ApprovalMode::plan;
  CHECK(f.run("files__write_it") == 0);
  CHECK(f.tools["files__write_it"]->runs == 0);
  CHECK(f.run("files__read_it") == 0);  // read-only and its server allowed
  CHECK(f.tools["files__read_it"]->runs == 1);
  Fixture g;
  g.mode = ApprovalMode::plan;
  CHECK(g.run("files__read_it") == 1);
  CHECK(g.run("web__fetch_it") == 0);
  CHECK(g.tools["web__fetch_it"]->runs == 0);
}
