// Gemini CLI settings that start programs: mcpServers decoding (transports,
// env expansion, errors naming file and field), mcp.allowed / mcp.excluded,
// the discovery commands, and what a workspace's file may not do by itself.
#include <catch2/catch.hpp>

#include <map>

#include "engine/config/program_settings_decode.h"
#include "engine/config/settings.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::engine;
using tools::mcp::HttpTransport;
using tools::mcp::ServerConfig;
using tools::mcp::StdioTransport;

namespace {

EnvLookup fakeEnv() {
  static const std::map<std::string, std::string> vars{{"HOME", "/home/p"}, {"TOKEN", "s3cret"}, {"EMPTY", ""}};
  return [](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

Result<Settings> load(const std::string& text, SettingsScope scope = SettingsScope::user) {
  testing::TempDir dir;
  auto path = dir.write("settings.json", text).string();
  Settings settings;
  if (auto status = mergeSettingsFile(path, settings, scope, fakeEnv()); !status) return status.error();
  return settings;
}

}  // namespace

TEST_CASE("env expansion: $VAR and ${VAR}, unknown is empty, other dollars stay") {
  auto env = fakeEnv();
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {"$HOME/x", "/home/p/x"},   {"${HOME}x", "/home/px"},  {"a$TOKEN.b", "as3cret.b"},
      {"$NOPE-", "-"},            {"${NOPE}", ""},           {"cost $5", "cost $5"},
      {"end$", "end$"},           {"${unclosed", "${unclosed"}, {"${}", "${}"},
      {"$$HOME", "$/home/p"},     {"no vars", "no vars"},    {"$EMPTY!", "!"},
  };
  for (const auto& row : rows) {
    INFO(row.in);
    CHECK(expandEnv(row.in, env) == row.out);
  }
}

TEST_CASE("mcpServers: every transport and field is decoded") {
  auto settings = load(R"J({
    // comments are fine
    "mcpServers": {
      "local": {"command": "node", "args": ["srv.js", "$HOME"], "env": {"KEY": "$TOKEN", "PLAIN": "x"},
                "cwd": "/w", "timeout": 5000, "trust": true, "includeTools": ["a", "b(x)"], "excludeTools": ["c"]},
      "streamable": {"httpUrl": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
      "typedHttp": {"url": "http://127.0.0.1:2/mcp", "type": "http"},
      "sse": {"url": "http://127.0.0.1:3/sse", "type": "sse"},
      "auto": {"url": "http://127.0.0.1:4/"},
      "both": {"httpUrl": "http://h/", "url": "http://u/", "command": "ignored"}
    },
    "mcp": {"allowed": ["local"], "excluded": ["auto"]},
    "tools": {"discoveryCommand": "./discover.sh", "callCommand": "./call.sh"}
  })J");
  REQUIRE(settings);
  const auto& servers = settings->programs.mcpServers;
  REQUIRE(servers.size() == 6);
  const ServerConfig& local = servers[0];
  CHECK(local.name == "local");
  CHECK(local.origin == ServerConfig::Origin::userSettings);
  const auto& stdio = std::get<StdioTransport>(local.transport);
  CHECK(stdio.command == "node");
  CHECK(stdio.args == std::vector<std::string>{"srv.js", "$HOME"});  // only env and headers are expanded
  CHECK(stdio.env == std::vector<tools::mcp::NameValue>{{"KEY", "s3cret"}, {"PLAIN", "x"}});
  CHECK(stdio.cwd == "/w");
  CHECK(local.timeoutMs == 5000);
  CHECK(local.trust);
  CHECK(local.includeTools == std::vector<std::string>{"a", "b(x)"});
  CHECK(local.excludeTools == std::vector<std::string>{"c"});

  auto http = [&](size_t i) { return std::get<HttpTransport>(servers[i].transport); };
  CHECK(http(1).kind == HttpTransport::Kind::streamable);
  CHECK(http(1).url == "http://127.0.0.1:1/mcp");
  CHECK(http(1).headers == std::vector<tools::mcp::NameValue>{{"Authorization", "Bearer s3cret"}});
  CHECK(http(2).kind == HttpTransport::Kind::streamable);
  CHECK(http(3).kind == HttpTransport::Kind::sse);
  CHECK(http(4).kind == HttpTransport::Kind::automatic);
  CHECK(http(5).url == "http://h/");  // httpUrl wins, as in Gemini CLI
  CHECK(servers[1].timeoutMs == 600'000);
  CHECK_FALSE(servers[1].trust);

  CHECK(settings->mcpAllowed == std::vector<std::string>{"local"});
  CHECK(settings->mcpExcluded == std::vector<std::string>{"auto"});
  CHECK(settings->programs.discoveryCommand == "./discover.sh");
  CHECK(settings->programs.callCommand == "./call.sh");
}

TEST_CASE("mcpServers: a later file replaces a server of the same name") {
  testing::TempDir dir;
  auto first = dir.write("a.json", R"J({"mcpServers": {"s": {"command": "one"}, "t": {"command": "two"}}})J").string();
  auto second = dir.write("b.json", R"J({"mcpServers": {"s": {"url": "http://x/"}}})J").string();
  Settings settings;
  REQUIRE(mergeSettingsFile(first, settings, SettingsScope::user, fakeEnv()));
  REQUIRE(mergeSettingsFile(second, settings, SettingsScope::user, fakeEnv()));
  REQUIRE(settings.programs.mcpServers.size() == 2);
  CHECK(std::holds_alternative<HttpTransport>(settings.programs.mcpServers[0].transport));
  CHECK(settings.programs.mcpServers[1].name == "t");
}

TEST_CASE("mcpServers: bad entries are errors naming the file and the field") {
  struct Row {
    const char* text;
    const char* field;
  };
  const Row rows[] = {
      {R"J({"mcpServers": []})J", "mcpServers: expected an object"},
      {R"J({"mcpServers": {"s": "node"}})J", "mcpServers.s: expected an object"},
      {R"J({"mcpServers": {"s": {}}})J", "mcpServers.s: needs \"command\""},
      {R"J({"mcpServers": {"s": {"command": 7}}})J", "mcpServers.s.command: expected a string"},
      {R"J({"mcpServers": {"s": {"command": ""}}})J", "mcpServers.s.command: must not be empty"},
      {R"J({"mcpServers": {"s": {"command": "x", "args": "a b"}}})J", "mcpServers.s.args"},
      {R"J({"mcpServers": {"s": {"command": "x", "env": {"A": 1}}}})J", "mcpServers.s.env.A: expected a string"},
      {R"J({"mcpServers": {"s": {"command": "x", "env": []}}})J", "mcpServers.s.env: expected an object"},
      {R"J({"mcpServers": {"s": {"url": "http://x/", "type": "websocket"}}})J", "mcpServers.s.type: must be \"http\" or \"sse\""},
      {R"J({"mcpServers": {"s": {"url": "http://x/", "headers": {"H": true}}}})J", "mcpServers.s.headers.H"},
      {R"J({"mcpServers": {"s": {"command": "x", "timeout": -1}}})J", "mcpServers.s.timeout: must be a positive"},
      {R"J({"mcpServers": {"s": {"command": "x", "timeout": "10s"}}})J", "mcpServers.s.timeout: expected an integer"},
      {R"J({"mcpServers": {"s": {"command": "x", "trust": "yes"}}})J", "mcpServers.s.trust"},
      {R"J({"mcpServers": {"s": {"command": "x", "includeTools": "a"}}})J", "mcpServers.s.includeTools"},
      {R"J({"mcp": {"allowed": "s"}})J", "mcp.allowed"},
      {R"J({"mcp": {"excluded": [1]}})J", "mcp.excluded"},
      {R"J({"tools": {"discoveryCommand": ["a"]}})J", "tools.discoveryCommand: expected a string"},
      {R"J({"tools": {"callCommand": 1}})J", "tools.callCommand: expected a string"},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto settings = load(row.text);
    REQUIRE_FALSE(settings);
    CHECK_THAT(settings.error().message, Catch::Contains("settings.json." + std::string(row.field)));
  }
}

TEST_CASE("a workspace's file does not start programs by itself and its mcp.allowed is read for consent") {
  auto settings = load(R"J({"mcpServers": {"s": {"command": "evil"}}, "mcp": {"allowed": ["s"], "excluded": ["x"]},
                           "tools": {"discoveryCommand": "evil", "callCommand": "evil", "exclude": ["glob"]}})J",
                       SettingsScope::workspace);
  REQUIRE(settings);
  CHECK(settings->programs.empty());
  // Read, but a session applies it only with consent (workspace_settings_test.cpp).
  CHECK(settings->mcpAllowed == std::vector<std::string>{"s"});
  CHECK(settings->mcpExcluded == std::vector<std::string>{"x"});
  CHECK(settings->excludeTools == std::vector<std::string>{"glob"});  // the rest applies as before
}

TEST_CASE("programSettingsText: what consent is given to") {
  auto text = [](const char* json) {
    auto doc = json::parse(json);
    REQUIRE(doc);
    return programSettingsText(*doc);
  };
  CHECK(text(R"J({"model": {"name": "x"}, "tools": {"exclude": ["a"]}})J").empty());
  CHECK(text(R"J({"mcpServers": {}})J").empty());
  std::string a = text(R"J({"mcpServers": {"s": {"command": "a"}}, "model": {"name": "x"}})J");
  std::string b = text(R"J({"mcpServers": {"s": {"command": "a"}}, "model": {"name": "y"}})J");
  std::string c = text(R"J({"mcpServers": {"s": {"command": "b"}}})J");
  std::string d = text(R"J({"tools": {"callCommand": "c"}})J");
  CHECK_FALSE(a.empty());
  CHECK(a == b);  // other settings do not change what runs
  CHECK(a != c);
  CHECK_FALSE(d.empty());
}
