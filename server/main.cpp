// The lathe executable: ACP server on stdio, or headless `lathe run`.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "engine/config/settings.h"
#include "engine/config/settings_table.h"
#include "tools/process/subreaper.h"
#include "tools/shell/sandbox.h"
#include "protocol/base/log.h"
#include "protocol/http/proxy.h"
#include "protocol/jsonrpc/channel.h"
#include "server/acp_agent.h"
#include "server/cli.h"
#include "server/doctor.h"
#include "server/extensions_cli.h"
#include "server/headless.h"
#include "server/version.h"

using namespace lathe;

namespace {

// Lathe's state (remembered workspace consent, session files): the XDG
// state directory, else under the temporary directory.
std::string stateDirectory() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return std::string(state) + "/lathe";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.local/state/lathe";
  return (std::filesystem::temp_directory_path() / ("lathe-" + std::to_string(::getuid()))).string();
}

// Where sessions keep their files (e.g. full shell output).
std::string dataDirectory() { return stateDirectory() + "/sessions"; }

// The user's settings.json: $GEMINI_CLI_HOME, else $HOME; empty without either.
std::string userSettingsPath() {
  const char* home = std::getenv("GEMINI_CLI_HOME");
  if (!home || !*home) home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.gemini/settings.json" : std::string();
}

// Gemini CLI's home: $GEMINI_CLI_HOME, else $HOME; empty without either.
std::string geminiHome() {
  const char* home = std::getenv("GEMINI_CLI_HOME");
  if (!home || !*home) home = std::getenv("HOME");
  return home && *home ? std::string(home) : std::string();
}

// Gemini CLI's folder (~/.gemini) in its home; empty without one.
std::string geminiDirectory() {
  std::string home = geminiHome();
  return home.empty() ? home : home + "/.gemini";
}

// Gemini CLI's settings: the user's, then --settings (also kept alone in
// `last`: it is applied again over each session's workspace settings). A
// workspace's own file is read per session, `run` included
// (engine/config/workspace_settings.h).
Result<engine::Settings> loadSettings(const server::Options& options, std::shared_ptr<const engine::Settings>& last) {
  engine::Settings settings;
  if (auto user = userSettingsPath(); !user.empty()) {
    if (auto status = engine::mergeSettingsFile(user, settings); !status) return status.error();
  }
  if (!options.settingsPath.empty()) {
    if (!std::filesystem::exists(options.settingsPath)) {
      return makeError(Errc::invalid_params, "--settings file " + options.settingsPath + " does not exist");
    }
    if (auto status = engine::mergeSettingsFile(options.settingsPath, settings); !status) return status.error();
    auto alone = std::make_shared<engine::Settings>();
    if (auto status = engine::mergeSettingsFile(options.settingsPath, *alone); !status) return status.error();
    alone->programs = {};  // its programs are the process's already
    last = std::move(alone);
  }
  return settings;
}

// The editor's model picker: the current model first, then the configured
// choices for this API (for Gemini, its current models and Gemini CLI's auto
// models when none are set).
std::vector<std::string> modelChoices(const engine::Settings& settings, engine::ModelApi api, const std::string& current) {
  std::vector<std::string> listed;
  if (auto it = settings.modelChoices.find(engine::toString(api)); it != settings.modelChoices.end()) {
    listed = it->second;
  } else if (api == engine::ModelApi::gemini) {
    listed = {"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "auto-gemini-2.5", "auto"};
  }
  std::vector<std::string> choices{current};
  for (auto& name : listed) {
    if (std::find(choices.begin(), choices.end(), name) == choices.end()) choices.push_back(name);
  }
  return choices;
}

// The model API, its options and the model, from flags, environment and settings.
Result<server::ModelInEffect> chooseModel(const server::Options& options, const engine::Settings& settings) {
  engine::ProviderOptions providerOptions = options.provider;
  if (auto name = options.modelApi ? options.modelApi : settings.provider) {
    auto api = engine::parseModelApi(*name);
    if (!api) return makeError(Errc::invalid_params, "unknown model provider \"" + *name + "\" (gemini or openai)");
    providerOptions.api = *api;
  }
  const bool openai = providerOptions.api == engine::ModelApi::openai;
  auto model = options.model ? options.model : openai ? options.openaiModel : options.geminiModel;
  const bool pinned = model.has_value();
  if (!model) model = settings.model;
  // Only Gemini has a default: an OpenAI-compatible server's models are its own.
  if (!model && openai) return makeError(Errc::invalid_params, "--provider openai needs a model: -m NAME, OPENAI_MODEL or settings model.name");
  return server::ModelInEffect{std::move(providerOptions), model.value_or(server::kDefaultModel), pinned};
}

// The process-wide agent settings from flags, environment and settings files.
Result<engine::AgentConfig> buildConfig(const server::Options& options) {
  std::shared_ptr<const engine::Settings> lastFile;
  auto settings = loadSettings(options, lastFile);
  if (!settings) return settings.error();
  auto chosen = chooseModel(options, *settings);
  if (!chosen) return chosen.error();
  const bool openai = chosen->provider.api == engine::ModelApi::openai;
  const bool modelPinned = chosen->pinned;
  if (settings->proxy) http::setSettingsProxy(*settings->proxy);
  auto provider = engine::AuthenticatedProvider::create(chosen->provider, settings->authSelectedType.value_or(""),
                                                       engine::CredentialStore(stateDirectory() + "/auth/credentials.json"));
  if (!provider) return provider.error();
  engine::AgentConfig config;
  config.model = chosen->model;
  config.modelChoices = modelChoices(*settings, chosen->provider.api, config.model);
  config.routeAutoModels = !openai;
  if (openai) config.contextWindow = 128'000;
  config.auth = std::move(provider).value();
  config.provider = config.auth;
  config.maxTurnRequests = options.maxTurnRequests;
  config.dataDir = dataDirectory();
  // A replayed recording holds only the calls Gemini CLI made, and it never
  // titles ACP sessions: a title call would take a record meant for a turn.
  config.context.titles = chosen->provider.fakeResponsesPath.empty();
  // The shell's share of the tool output budget (tools.truncateToolOutputThreshold resizes both).
  config.shell.maxOutputChars = engine::keptCharsOf(config.context.toolOutputChars);
  config.stateDir = stateDirectory();
  config.userSettingsPath = userSettingsPath();
  config.memory.globalDir = geminiDirectory();
  if (!config.memory.globalDir.empty()) {
    config.policies.user = config.memory.globalDir + "/policies";
    config.policies.keptEverywhere = config.policies.user + "/auto-saved.toml";  // Gemini CLI's own file
  }
  config.policies.keptDir = stateDirectory() + "/policies";
  config.homeDir = geminiHome();
  config.trustWorkspace = options.trustWorkspace;
  // Flags and the environment first: the settings rows leave what they pinned.
  config.overrides = {std::move(lastFile), modelPinned, options.approvalMode.has_value(), options.sandbox,
                      options.sandboxNetwork};
  config.shell.sandbox = options.sandbox;
  config.shell.sandboxNetwork = options.sandboxNetwork;
  if (options.approvalMode) {
    auto mode = engine::parseApprovalMode(*options.approvalMode);
    if (!mode) {
      return makeError(Errc::invalid_params,
                       "unknown approval mode \"" + *options.approvalMode + "\" (default, autoEdit, yolo, plan)");
    }
    config.approvalMode = *mode;
  }
  if (auto status = engine::applySettings(config, *settings, engine::SettingApplies::processStart); !status) {
    return status.error();
  }
  if (config.shell.sandbox) {
    // Asked for and unusable is an error now, not a surprise at the first command.
    if (auto probe = tools::shell::probeSandbox(); !probe) {
      return makeError(Errc::invalid_params, "--sandbox was asked for but cannot work: " + probe.error().message);
    }
  }
  return config;
}

// `lathe doctor`: the same files, environment and flags a session would use.
int doctor(const server::Options& options, const std::string& cwd) {
  server::DoctorSetup setup;
  setup.settingsFiles = {{userSettingsPath(), engine::SettingsScope::user},
                         {options.settingsPath, engine::SettingsScope::user},
                         {cwd + "/.gemini/settings.json", engine::SettingsScope::workspace}};
  std::shared_ptr<const engine::Settings> lastFile;
  if (auto settings = loadSettings(options, lastFile)) {
    if (auto chosen = chooseModel(options, *settings)) {
      setup.model = std::move(chosen).value();
    } else {
      setup.modelError = chosen.error().message;
    }
    setup.settings = std::move(settings).value();
  }
  setup.stateDir = stateDirectory();
  setup.cwd = cwd;
  return server::runDoctor(setup);
}

// `lathe extensions ...`: the person's settings say which extensions may be installed and loaded.
int extensions(const server::Options& options, const std::string& cwd) {
  server::ExtensionsCliSetup setup;
  setup.homeDir = geminiHome();
  setup.cwd = cwd;
  setup.terminal = ::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO);
  std::shared_ptr<const engine::Settings> lastFile;
  auto settings = loadSettings(options, lastFile);
  if (!settings) {
    std::fprintf(stderr, "lathe: %s\n", settings.error().message.c_str());
    return 2;
  }
  setup.filter.blockGit = settings->blockGitExtensions.value_or(false);
  setup.filter.allowedSources = settings->allowedExtensions.value_or(std::vector<std::string>{});
  return server::runExtensionsCommand(options.extensionArgs, setup);
}

int serveAcp(engine::AgentConfig config) {
  auto channel = rpc::makeFdChannel(STDIN_FILENO, STDOUT_FILENO);
  auto peer = rpc::Peer::create(*channel, rpc::Peer::Options{.cancelMethod = acp::kCancelRequestMethod});
  server::AcpAgent agent(peer, std::move(config));
  peer->serve();
  // End of input: the client is gone. Stop the turns, then fail pending asks.
  lathe::log(LogLevel::info, "input closed; shutting down");
  agent.shutdown();
  peer->close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);  // a closed stdout is an error value, not a crash
  // Before any thread starts: what our children leave behind is ours to reap, promptly.
  if (auto reaper = tools::process::becomeSubreaper(); !reaper) {
    std::fprintf(stderr, "lathe: %s\n", reaper.error().message.c_str());
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = server::parseCommandLine(args, [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
  });
  if (!options) {
    std::fprintf(stderr, "lathe: %s\nRun `lathe --help` for usage.\n", options.error().message.c_str());
    return 2;
  }
  if (options->mode == server::Mode::help) {
    std::fputs(server::usageText().c_str(), stdout);  // stdout-ok: --help
    return 0;
  }
  if (options->mode == server::Mode::version) {
    std::printf("lathe %s\n", server::kVersion);  // stdout-ok: --version
    return 0;
  }
  setLogLevel(options->logLevel);

  std::error_code ec;
  std::string cwd = options->cwd.empty() ? std::filesystem::current_path(ec).string()
                                         : std::filesystem::absolute(options->cwd, ec).string();
  if (options->mode == server::Mode::doctor) return doctor(*options, cwd);
  if (options->mode == server::Mode::extensions) return extensions(*options, cwd);
  auto config = buildConfig(*options);
  if (!config) {
    std::fprintf(stderr, "lathe: %s\n", config.error().message.c_str());
    return 2;
  }
  if (options->mode == server::Mode::run) {
    config->context.titles = false;  // one prompt and done: nobody lists it, and the call would delay the exit
    return server::runHeadless({options->prompt, cwd}, std::move(config).value());
  }
  return serveAcp(std::move(config).value());
}
