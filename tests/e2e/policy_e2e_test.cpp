// End-to-end: Gemini CLI policy files through the real binary. The person's
// rules allow, refuse (their denyMessage reaching the model, the rule named
// to the person) and ask; tiers outrank each other (admin, user, workspace);
// a workspace's allow rules wait for its consent; "always" answers kept for
// the workspace or every workspace last into a new process; /permissions lists
// and revokes; broken policy files are told once, and calls ask until they are fixed.
// Every run has its own HOME, GEMINI_CLI_HOME and XDG_STATE_HOME.
#include "tests/e2e/e2e_support.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::testing::e2e;

namespace {

using Home = PrivateHome;

fs::path policiesOf(const Home& home) { return home.home.path / ".gemini/policies"; }

struct Agent : HomeAgent {
  using HomeAgent::HomeAgent;
  // One turn in which the model runs `command`, then answers.
  PromptOutcome run(const std::string& session, const std::string& command) {
    fake->push(ScriptedReply::functionCall("run_shell_command", shellArgs(command)));
    fake->push(ScriptedReply::text("Done."));
    return client->prompt(session, "run " + command);
  }
  size_t asked() const { return permissionRequests(*client).size(); }
};

// The text content of a permission request's tool call.
std::string askedText(const Message& ask) { return json::stringify((*ask)["params"]["toolCall"]); }

std::string optionIds(const Message& ask) {
  std::string ids;
  for (const auto& option : (*ask)["params"]["options"].GetArray()) ids += json::getStr(option, "optionId").value_or("") + " ";
  return ids;
}

// The last function response the model was sent.
std::string lastResponse(const FakeGeminiServer& fake) {
  auto requests = fake.generateRequests();
  REQUIRE_FALSE(requests.empty());
  auto responses = lastFunctionResponses(requests.back().body);
  REQUIRE(responses.size() == 1);
  return responses[0].responseJson;
}

// The file a workspace's kept answers are in (Lathe's state folder).
std::vector<fs::path> keptFiles(const Home& home) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(home.state.path / "lathe/policies", ec)) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  return files;
}

constexpr const char* kRules = R"toml([[rule]]
toolName = "run_shell_command"
commandPrefix = "touch"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 100
denyMessage = "Deleting files is not allowed here."

[[rule]]
toolName = "read_file"
decision = "ask_user"
priority = 100
)toml";

}  // namespace

TEST_CASE("e2e: the person's policy file allows, refuses with its denyMessage, and asks", "[e2e][policy]") {
  Home home;
  TempDir ws;
  writeFile(policiesOf(home) / "rules.toml", kRules);
  writeFile(ws.path / "keep.txt", "keep\n");
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  REQUIRE_FALSE(session.empty());

  auto allowed = agent.run(session, "touch made.txt");
  CHECK(allowed.stopReason == "end_turn");
  CHECK(agent.asked() == 0);
  CHECK(fs::exists(ws.path / "made.txt"));

  auto refused = agent.run(session, "echo bye && rm keep.txt");
  CHECK(refused.stopReason == "end_turn");
  CHECK(agent.asked() == 0);
  CHECK(fs::exists(ws.path / "keep.txt"));
  CHECK(responseField(lastResponse(*agent.fake), "error") == "Refused by policy. Deleting files is not allowed here.");
  const std::string rulesFile = (policiesOf(home) / "rules.toml").string();
  CHECK_THAT(cardTexts(refused.updates), Catch::Contains("Not run: refused by your policy rule 2 (line 7) of " + rulesFile +
                                                         ". Deleting files is not allowed here."));

  agent.fake->push(ScriptedReply::functionCall("read_file", json::buildObject([&](json::Writer& w) {
                                                  json::put(w, "file_path", (ws.path / "keep.txt").string());
                                                })));
  agent.fake->push(ScriptedReply::text("Not read."));
  CHECK(agent.client->prompt(session, "read keep.txt").stopReason == "end_turn");
  auto asks = permissionRequests(*agent.client);
  REQUIRE(asks.size() == 1);  // read_file asks nothing itself: the rule asked
  CHECK_THAT(askedText(asks[0]), Catch::Contains("Asked because of your policy rule 3 (line 14) of " + rulesFile));
  CHECK_THAT(responseField(lastResponse(*agent.fake), "error"), Catch::Contains("rejected"));
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e: tiers outrank each other: the admin's over the person's over the workspace's", "[e2e][policy]") {
  Home home;
  TempDir ws;
  const fs::path admin = home.home.path / "admin/policies.toml";
  writeFile(admin, "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"mkdir\"\ndecision = \"deny\"\npriority = 0\n");
  writeFile(home.home.path / ".gemini/settings.json", "{\"adminPolicyPaths\": [\"" + admin.string() + "\"]}");
  writeFile(policiesOf(home) / "mine.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"touch\", \"mkdir\"]\ndecision = \"allow\"\n"
            "priority = 1\n");
  // A workspace's refusal applies at once (no consent needed to refuse), but ranks below the person's.
  writeFile(ws.path / ".gemini/policies/team.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"touch\", \"cp\"]\ndecision = \"deny\"\n"
            "priority = 999\ndenyMessage = \"Not in this repository.\"\n");
  writeFile(ws.path / "a.txt", "a\n");
  Agent agent(home, "allow_once");
  std::string session = agent.client->newSession(ws.str());

  agent.run(session, "touch mine.txt");
  CHECK(fs::exists(ws.path / "mine.txt"));  // the person's allow at 4.001 over the workspace's deny at 3.999
  agent.run(session, "mkdir sub");
  CHECK_FALSE(fs::exists(ws.path / "sub"));  // the admin's deny at 5.000 over the person's allow
  CHECK_THAT(responseField(lastResponse(*agent.fake), "error"), Catch::Contains("Refused by policy."));
  auto copied = agent.run(session, "cp a.txt b.txt");
  CHECK_FALSE(fs::exists(ws.path / "b.txt"));  // the workspace's deny, with no rule above it
  CHECK_THAT(cardTexts(copied.updates), Catch::Contains("this workspace's policy rule 1 (line 1) of " +
                                                        (ws.path / ".gemini/policies/team.toml").string()));
  CHECK(agent.asked() == 0);
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e: a workspace's allow rules wait for its consent", "[e2e][policy][consent]") {
  Home home;
  TempDir ws;
  writeFile(ws.path / ".gemini/policies/team.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"touch\"\ndecision = \"allow\"\npriority = 5\n");
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(ws.str());
    auto outcome = agent.run(session, "touch one.txt");
    auto asks = permissionRequests(*agent.client);
    REQUIRE(asks.size() == 2);  // the workspace's consent, then the call itself
    CHECK_THAT(askedText(asks[0]), Catch::Contains("Apply this workspace's policy rules that let more run without asking?"));
    CHECK_THAT(askedText(asks[0]), Catch::Contains("allow `touch` (shell commands) (rule 1 (line 1) of " +
                                                   (ws.path / ".gemini/policies/team.toml").string() + ")"));
    CHECK_THAT(askedText(asks[1]), Catch::Contains("touch one.txt"));
    CHECK_FALSE(fs::exists(ws.path / "one.txt"));
    CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Lathe did not apply the rules of"));
    checkAgainstSchema(*agent.client);
  }
  {
    Agent agent(home, "workspace_allow_always");
    std::string session = agent.client->newSession(ws.str());
    agent.run(session, "touch two.txt");
    CHECK(agent.asked() == 1);  // the consent only: the rule allows the call
    CHECK(fs::exists(ws.path / "two.txt"));
  }
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(ws.str());
    agent.run(session, "touch three.txt");
    CHECK(agent.asked() == 0);  // consent on record for this exact configuration
    CHECK(fs::exists(ws.path / "three.txt"));
  }
}

TEST_CASE("e2e: an always answer kept for this workspace lasts into a new process, and only there", "[e2e][policy]") {
  Home home;
  TempDir ws;
  TempDir other;
  {
    Agent agent(home, "allow_workspace_command");
    std::string session = agent.client->newSession(ws.str());
    auto outcome = agent.run(session, "touch a.txt");
    auto asks = permissionRequests(*agent.client);
    REQUIRE(asks.size() == 1);
    CHECK_THAT(json::stringify(*asks[0]), Catch::Contains(R"("name":"Allow touch for this session")"));
    CHECK_THAT(json::stringify(*asks[0]), Catch::Contains(R"("name":"Always allow touch in this workspace")"));
    CHECK_THAT(json::stringify(*asks[0]), Catch::Contains(R"("name":"Always allow touch in every workspace")"));
    CHECK(optionIds(asks[0]) == "allow_once allow_always_command allow_workspace_command allow_everywhere_command reject_once ");
    CHECK(fs::exists(ws.path / "a.txt"));
    CHECK_THAT(cardTexts(outcome.updates), Catch::Contains("Kept: `touch` (shell commands) allowed in this workspace from now on."));
    checkAgainstSchema(*agent.client);
  }
  auto files = keptFiles(home);
  REQUIRE(files.size() == 1);
  CHECK_THAT(readFile(files[0]), Catch::Contains("commandPrefix = [ 'touch' ]"));
  CHECK_THAT(readFile(files[0]), Catch::Contains("priority = 950"));
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(ws.str());
    agent.run(session, "touch b.txt");
    CHECK(agent.asked() == 0);
    CHECK(fs::exists(ws.path / "b.txt"));
    std::string elsewhere = agent.client->newSession(other.str());
    agent.run(elsewhere, "touch c.txt");
    CHECK(agent.asked() == 1);  // another workspace: asked (and refused)
    CHECK_FALSE(fs::exists(other.path / "c.txt"));
  }
}

TEST_CASE("e2e: an always answer for every workspace lands in Gemini CLI's auto-saved.toml", "[e2e][policy]") {
  Home home;
  TempDir ws;
  TempDir other;
  {
    Agent agent(home, "allow_everywhere_command");
    std::string session = agent.client->newSession(ws.str());
    agent.run(session, "touch a.txt");
    CHECK(agent.asked() == 1);
  }
  const fs::path saved = policiesOf(home) / "auto-saved.toml";
  REQUIRE(fs::exists(saved));
  CHECK_THAT(readFile(saved), Catch::Contains("toolName = 'run_shell_command'"));
  CHECK((fs::status(saved).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(keptFiles(home).empty());
  {
    Agent agent(home, "reject_once");
    std::string session = agent.client->newSession(other.str());
    agent.run(session, "touch b.txt");
    CHECK(agent.asked() == 0);
    CHECK(fs::exists(other.path / "b.txt"));
  }
}

TEST_CASE("e2e: /permissions lists what runs unasked and where from, and revoke removes a kept answer", "[e2e][policy]") {
  Home home;
  TempDir ws;
  writeFile(policiesOf(home) / "mine.toml", "[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 3\n");
  Agent agent(home, "allow_workspace_command");
  std::string session = agent.client->newSession(ws.str());
  agent.run(session, "touch a.txt");
  REQUIRE(agent.asked() == 1);
  const size_t modelCalls = agent.fake->generateRequests().size();

  auto listed = agent.client->prompt(session, "/permissions");
  CHECK(listed.stopReason == "end_turn");
  std::string text = joinedText(listed.updates, "agent_message_chunk");
  INFO(text);
  auto kept = keptFiles(home);
  REQUIRE(kept.size() == 1);
  CHECK_THAT(text, Catch::Contains("1. `touch` (shell commands) — in this workspace (" + kept[0].string() + ")"));
  CHECK_THAT(text, Catch::Contains("2. `glob` — your policy rule 1 (line 1) of " + (policiesOf(home) / "mine.toml").string()));

  auto refused = agent.client->prompt(session, "/permissions revoke 2");
  CHECK_THAT(joinedText(refused.updates, "agent_message_chunk"), Catch::Contains("comes from your policy rule 1"));
  auto revoked = agent.client->prompt(session, "/permissions revoke 1");
  CHECK_THAT(joinedText(revoked.updates, "agent_message_chunk"),
             Catch::Contains("Revoked: `touch` (shell commands) in this workspace is asked about again."));
  CHECK(agent.fake->generateRequests().size() == modelCalls);  // slash commands never reach the model
  CHECK_THAT(readFile(kept[0]), !Catch::Contains("touch"));

  agent.client->setPermissionKind("reject_once");
  agent.run(session, "touch b.txt");
  CHECK(agent.asked() == 2);  // asked again
  CHECK_FALSE(fs::exists(ws.path / "b.txt"));
  checkAgainstSchema(*agent.client);
}

TEST_CASE("e2e: broken policy files are told once, naming the file, line and key, and every call asks until they are fixed", "[e2e][policy]") {
  Home home;
  TempDir ws;
  writeFile(policiesOf(home) / "typo.toml", "[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = \"high\"\n");
  writeFile(policiesOf(home) / "syntax.toml", "[[rule]\ntoolName = \"glob\"\n");
  writeFile(policiesOf(home) / "good.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"touch\"\ndecision = \"allow\"\npriority = 1\n");
  Agent agent(home, "reject_once");
  std::string session = agent.client->newSession(ws.str());
  auto first = agent.run(session, "touch made.txt");
  CHECK(first.stopReason == "end_turn");
  std::string cards = cardTexts(first.updates);
  CHECK_THAT(cards, Catch::Contains("Policy files not used"));
  CHECK_THAT(cards, Catch::Contains((policiesOf(home) / "typo.toml").string() + ":4: rule[0].priority: expected an integer"));
  CHECK_THAT(cards, Catch::Contains((policiesOf(home) / "syntax.toml").string() + ":1:"));
  CHECK_THAT(cards, Catch::Contains("every tool call asks first"));
  // Fail closed: the good file's allow asks, naming a file left out (its rules might refuse it).
  REQUIRE(agent.asked() == 1);
  CHECK_THAT(askedText(permissionRequests(*agent.client)[0]), Catch::Contains("could not read the policy file"));
  CHECK_FALSE(fs::exists(ws.path / "made.txt"));

  agent.fake->push(ScriptedReply::text("Still here."));
  auto second = agent.client->prompt(session, "again");
  CHECK(second.stopReason == "end_turn");
  CHECK_THAT(cardTexts(second.updates), !Catch::Contains("Policy files not used"));  // told once
  checkAgainstSchema(*agent.client);

  // Fixed, the next session reads them all: the good file's allow runs the line unasked.
  fs::remove(policiesOf(home) / "typo.toml");
  fs::remove(policiesOf(home) / "syntax.toml");
  std::string fixed = agent.client->newSession(ws.str());
  CHECK(agent.run(fixed, "touch made.txt").stopReason == "end_turn");
  CHECK(fs::exists(ws.path / "made.txt"));
  CHECK(agent.asked() == 1);
}
