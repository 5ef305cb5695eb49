// The lathe executable: ACP server on stdio, or headless `lathe run`.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "server/acp_agent.h"
#include "server/cli.h"
#include "server/headless.h"
#include "server/log.h"
#include "server/transport.h"
#include "server/version.h"

using namespace lathe;

namespace {

int serveAcp(engine::AgentConfig config) {
  server::Transport transport(STDIN_FILENO, STDOUT_FILENO);
  auto peer = server::Peer::create(transport);
  server::AcpAgent agent(peer, std::move(config));
  transport.readLoop([&](Frame frame) { peer->handleFrame(std::move(frame)); });
  // End of input: the client is gone. Stop the turns, then fail pending asks.
  server::log(server::LogLevel::info, "input closed; shutting down");
  agent.shutdown();
  peer->close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);  // a closed stdout is an error value, not a crash
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
  server::setLogLevel(options->logLevel);

  auto provider = engine::makeProvider(options->provider);
  if (!provider) {
    std::fprintf(stderr, "lathe: %s\n", provider.error().message.c_str());
    return 2;
  }
  engine::AgentConfig config;
  config.model = options->model;
  config.provider = std::move(provider).value();
  config.maxTurnRequests = options->maxTurnRequests;

  if (options->mode == server::Mode::run) {
    std::error_code ec;
    std::string cwd = options->cwd.empty() ? std::filesystem::current_path(ec).string()
                                           : std::filesystem::absolute(options->cwd, ec).string();
    return server::runHeadless({options->prompt, cwd}, std::move(config));
  }
  return serveAcp(std::move(config));
}
