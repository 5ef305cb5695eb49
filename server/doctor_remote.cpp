// `lathe doctor`'s checks that reach out: the model endpoint and the MCP
// servers. Each is bounded, so a silent endpoint is a failure, never a hang.
#include <algorithm>

#include "engine/config/program_settings.h"
#include "engine/model/gemini/gemini_provider.h"
#include "engine/model/openai/openai_provider.h"
#include "protocol/http/deadline.h"
#include "server/doctor.h"
#include "tools/mcp/mcp_client.h"

namespace lathe::server {
namespace {

using namespace std::chrono_literals;

// The last four characters of a key, enough to tell keys apart.
std::string keyHint(const std::string& key) { return key.size() > 8 ? "..." + key.substr(key.size() - 4) : "(short)"; }

// Runs `call` with a token that a timer on the executor cancels at
// `deadline`; the check then reports a timeout (the call ends on the token
// soon after). No thread of its own: the call stops itself.
Status boundedCall(std::chrono::milliseconds deadline, const std::function<Status(const CancelToken&)>& call) {
  http::Deadline bound(CancelToken(), deadline);
  Status status = call(bound.token());
  if (!status && bound.expired()) {
    return makeError(Errc::timeout, "gave up after " + std::to_string(deadline.count() / 1000) + " s");
  }
  return status;
}

CheckResult checkCredentials(const ModelInEffect& model, const std::string& url) {
  const auto& p = model.provider;
  if (p.api == engine::ModelApi::openai) {
    std::string key = p.openaiApiKey.empty() ? "no OPENAI_API_KEY (a local server may need none)"
                                             : "OPENAI_API_KEY " + keyHint(p.openaiApiKey);
    return {"credentials", CheckOutcome::ok, key + ", model " + model.model + " at " + url, {}};
  }
  if (p.apiKey.empty()) {
    return {"credentials", CheckOutcome::fail, "GEMINI_API_KEY is not set (Lathe calls the Gemini API with a key)",
            "create a key at https://aistudio.google.com/apikey and export GEMINI_API_KEY=... in the environment "
            "your editor starts Lathe from"};
  }
  return {"credentials", CheckOutcome::ok, "GEMINI_API_KEY " + keyHint(p.apiKey) + ", model " + model.model + " at " + url, {}};
}

// A minimal request: Gemini's token count (free), else a one-line reply.
Status askEndpoint(engine::ModelProvider& provider, const std::string& model, const CancelToken& cancel) {
  std::vector<engine::Content> contents{engine::Content{engine::Role::user, {engine::Part::makeText("Say OK.")}}};
  engine::ModelRequest request;
  request.model = model;
  request.contents = &contents;
  if (auto counted = provider.countTokens(request, cancel)) {
    if (!*counted) return counted->error();
    return {};
  }
  request.config.maxOutputTokens = 16;
  request.config.includeThoughts = false;
  auto reply = provider.generate(request, cancel);
  if (!reply) return reply.error();
  return {};
}

}  // namespace

std::vector<CheckResult> checkModel(const ModelInEffect& model) {
  auto options = model.provider;
  if (!options.fakeResponsesPath.empty()) {
    return {{"model", CheckOutcome::ok, "replaying " + options.fakeResponsesPath + " (no endpoint to reach)", {}}};
  }
  const bool openai = options.api == engine::ModelApi::openai;
  std::string url = openai ? (options.openaiBaseUrl.empty() ? engine::OpenAiProvider::Options{}.baseUrl : options.openaiBaseUrl)
                           : (options.baseUrl.empty() ? engine::GeminiProvider::Options{}.baseUrl : options.baseUrl);
  std::vector<CheckResult> checks{checkCredentials(model, url)};
  if (checks.back().outcome == CheckOutcome::fail) return checks;
  // One attempt, and shorter waits than a session's: this is a yes/no question.
  options.recordResponsesPath.clear();
  options.maxAttempts = 1;
  options.connectTimeout = std::min<std::chrono::milliseconds>(options.connectTimeout, 5s);
  options.readTimeout = std::min<std::chrono::milliseconds>(options.readTimeout, 15s);
  auto provider = engine::makeProvider(options);
  if (!provider) return {checks.front(), {"endpoint", CheckOutcome::fail, provider.error().message, "correct the endpoint URL"}};
  auto deadline = options.connectTimeout + options.readTimeout + 2s;
  auto started = std::chrono::steady_clock::now();
  auto status = boundedCall(std::chrono::duration_cast<std::chrono::milliseconds>(deadline),
                            [&](const CancelToken& cancel) { return askEndpoint(**provider, model.model, cancel); });
  if (!status) {
    // A read that outlived the read timeout is the endpoint not answering,
    // whatever the transport called it.
    bool silent = status.error().code == Errc::timeout || std::chrono::steady_clock::now() - started >= options.readTimeout;
    std::string detail = silent ? "no answer within " + std::to_string(options.readTimeout.count() / 1000) + " s (" +
                                      status.error().message + ")"
                                : status.error().message;
    // The HTTP client says "Could not reach" when no HTTP answer came at all.
    bool unreachable = silent || status.error().message.find("Could not reach") != std::string::npos;
    std::string fix = unreachable ? "check the network, a proxy, or the base URL (" + url + ")"
                                  : "check the key, the model name and the base URL (" + url + ")";
    checks.push_back({"endpoint", CheckOutcome::fail, url + ": " + detail, fix});
  } else {
    checks.push_back({"endpoint", CheckOutcome::ok, url + " answers for " + model.model, {}});
  }
  return checks;
}

std::vector<CheckResult> checkMcpServers(const engine::Settings& settings, const std::string& cwd) {
  std::vector<CheckResult> checks;
  auto servers = engine::mcpServersFromSettings(settings.programs, nullptr, settings.mcpAllowed,
                                                settings.mcpExcluded.value_or(std::vector<std::string>{}));
  for (const auto& server : servers) {
    auto timeout = std::chrono::milliseconds(std::clamp<int64_t>(server.timeoutMs, 1, 30'000));
    tools::mcp::ClientHooks hooks;
    hooks.rootDirs = [cwd] { return std::vector<std::string>{cwd}; };
    size_t toolCount = 0;
    auto status = boundedCall(timeout * 2 + 2s, [&](const CancelToken& cancel) -> Status {
      auto client = tools::mcp::McpClient::connect(server, hooks, timeout, cancel);
      if (!client) return client.error();
      auto tools = (*client)->listTools(timeout, cancel);
      if (!tools) return makeError(tools.error().code, "tools/list failed: " + tools.error().message);
      toolCount = tools->size();
      return {};
    });
    std::string name = "MCP server " + server.name;
    if (status) {
      checks.push_back({name, CheckOutcome::ok, "started, " + std::to_string(toolCount) + " tools", {}});
    } else {
      checks.push_back({name, CheckOutcome::fail, status.error().message,
                        "check mcpServers." + server.name + " in your settings (command, args, url, env)"});
    }
  }
  return checks;
}

}  // namespace lathe::server
