// Command-line parsing.
#include "server/cli.h"

#include <charconv>

namespace lathe::server {
namespace {

Result<int64_t> parsePositive(const std::string& flag, const std::string& value) {
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || ptr != value.data() + value.size() || n <= 0) {
    return makeError(Errc::invalid_params, flag + " needs a positive whole number, got \"" + value + "\"");
  }
  return n;
}

}  // namespace

std::string usageText() {
  return R"(Lathe: a coding agent for editors, speaking the Agent Client Protocol.

Usage:
  lathe [--acp] [options]        serve ACP on stdin/stdout (what editors launch)
  lathe run [options] PROMPT     run one prompt in the current directory and print the answer
  lathe doctor [options]         check credentials, the model endpoint, bubblewrap, ripgrep,
                                 settings files, MCP servers and the state directory
  lathe extensions COMMAND       Gemini CLI's extensions (~/.gemini/extensions): list,
                                 install <folder or git URL> [--ref REF] [--consent],
                                 link <folder> [--consent], uninstall <name>...,
                                 enable <name> / disable <name> [--scope user|workspace]

Options:
  -m, --model MODEL              model name (default: $GEMINI_MODEL, or $OPENAI_MODEL with --provider
                                 openai; then settings model.name; gemini-2.5-pro for Gemini)
  --cwd DIR                      workspace for `run` and `doctor` (default: the current directory)
  --fake-responses FILE          replay model replies from a Gemini CLI JSON-lines recording
  --fake-responses-non-strict FILE
                                 the same, matching records by method instead of strict order
  --record-responses FILE        append every model reply to FILE in the same format
  --approval-mode MODE           default, autoEdit (auto_edit), yolo or plan (default: default)
  --yolo                         the same as --approval-mode yolo
  --settings FILE                a Gemini CLI settings.json read after ~/.gemini/settings.json
  -s, --sandbox                  run shell commands under bubblewrap (workspace writable, no network)
  --sandbox-network              let sandboxed commands use the network
  --trust-workspace              start the MCP servers, discovery commands and hooks the workspace's
                                 .gemini/settings.json defines, and apply its settings that let
                                 more run unasked, without asking (else `run` asks on a terminal;
                                 without one they do not apply)
  --max-turns N                  model requests allowed in one prompt turn (default: 100)
  --provider API                 gemini (default) or openai (any OpenAI-compatible Chat Completions API)
  --openai-base-url URL          the OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --read-timeout SECONDS         longest silence allowed in a model stream (default: 300)
  --log-level LEVEL              error, warn, info or debug (default: warn), on stderr
  -h, --help                     show this help
  -v, --version                  show the version

Environment:
  GEMINI_API_KEY                 API key for the Gemini API
  GOOGLE_GEMINI_BASE_URL         API endpoint (default: https://generativelanguage.googleapis.com)
  GEMINI_MODEL                   default model for the Gemini API
  GOOGLE_GENAI_USE_VERTEXAI      true: use Gemini on Vertex AI (GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION,
                                 GOOGLE_APPLICATION_CREDENTIALS or gcloud's login; or GOOGLE_API_KEY alone)
  GOOGLE_GENAI_USE_GCA           true: Log in with Google (Gemini CLI's login in ~/.gemini/oauth_creds.json,
                                 through Code Assist: CODE_ASSIST_ENDPOINT, GOOGLE_CLOUD_PROJECT)
  OPENAI_API_KEY                 API key for an OpenAI-compatible API (local servers may need none)
  OPENAI_BASE_URL                its endpoint (default: https://api.openai.com/v1)
  OPENAI_MODEL                   default model for it
)";
}

Result<Options> parseCommandLine(const std::vector<std::string>& args, const GetEnv& getenv) {
  Options options;
  options.geminiModel = getenv("GEMINI_MODEL");
  options.openaiModel = getenv("OPENAI_MODEL");
  options.provider.apiKey = getenv("GEMINI_API_KEY").value_or("");
  options.provider.baseUrl = getenv("GOOGLE_GEMINI_BASE_URL").value_or("");
  auto vertex = getenv("GOOGLE_GENAI_USE_VERTEXAI").value_or("");
  options.provider.vertex = vertex == "true" || vertex == "1" || vertex == "True" || vertex == "TRUE";
  options.provider.vertexSettings = engine::vertexFromEnvironment(getenv);
  options.provider.googleLogin = getenv("GOOGLE_GENAI_USE_GCA").value_or("") == "true";
  options.provider.google = engine::googleLoginFromEnvironment(getenv);
  // The key only from the environment: a flag would show it in `ps`.
  options.provider.openaiApiKey = getenv("OPENAI_API_KEY").value_or("");
  options.provider.openaiBaseUrl = getenv("OPENAI_BASE_URL").value_or("");

  // Its own words and options follow.
  if (!args.empty() && args[0] == "extensions") {
    options.mode = Mode::extensions;
    options.extensionArgs.assign(args.begin() + 1, args.end());
    return options;
  }
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> Result<std::string> {
      if (i + 1 >= args.size()) return makeError(Errc::invalid_params, arg + " needs a value");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      options.mode = Mode::help;
      return options;
    }
    if (arg == "-v" || arg == "--version") {
      options.mode = Mode::version;
      return options;
    }
    if (arg == "--acp" || arg == "--experimental-acp") continue;
    if (arg == "--sandbox" || arg == "-s") {
      options.sandbox = true;
      continue;
    }
    if (arg == "--sandbox-network") {
      options.sandboxNetwork = true;
      continue;
    }
    if (arg == "--trust-workspace") {
      options.trustWorkspace = true;
      continue;
    }
    if (arg == "--yolo" || arg == "-y") {
      options.approvalMode = "yolo";
      continue;
    }
    if (arg == "-m" || arg == "--model" || arg == "--cwd" || arg == "--fake-responses" ||
        arg == "--fake-responses-non-strict" || arg == "--record-responses" || arg == "--max-turns" ||
        arg == "--read-timeout" || arg == "--log-level" || arg == "--approval-mode" || arg == "--settings" ||
        arg == "--provider" || arg == "--openai-base-url") {
      auto v = value();
      if (!v) return v.error();
      if (arg == "-m" || arg == "--model") {
        options.model = *v;
      } else if (arg == "--cwd") {
        options.cwd = *v;
      } else if (arg == "--fake-responses" || arg == "--fake-responses-non-strict") {
        options.provider.fakeResponsesPath = *v;
        options.provider.fakeResponsesNonStrict = arg == "--fake-responses-non-strict";
      } else if (arg == "--approval-mode") {
        options.approvalMode = *v;
      } else if (arg == "--settings") {
        options.settingsPath = *v;
      } else if (arg == "--provider") {
        if (!engine::parseModelApi(*v)) return makeError(Errc::invalid_params, "--provider must be gemini or openai");
        options.modelApi = *v;
      } else if (arg == "--openai-base-url") {
        options.provider.openaiBaseUrl = *v;
      } else if (arg == "--record-responses") {
        options.provider.recordResponsesPath = *v;
      } else if (arg == "--max-turns") {
        auto n = parsePositive(arg, *v);
        if (!n) return n.error();
        options.maxTurnRequests = static_cast<int>(*n);
      } else if (arg == "--read-timeout") {
        auto n = parsePositive(arg, *v);
        if (!n) return n.error();
        options.provider.readTimeout = std::chrono::seconds(*n);
      } else if (auto level = parseLogLevel(*v)) {
        options.logLevel = *level;
      } else {
        return makeError(Errc::invalid_params, "--log-level must be error, warn, info or debug");
      }
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') return makeError(Errc::invalid_params, "unknown option " + arg);
    positional.push_back(arg);
  }

  if (!positional.empty() && positional[0] == "run") {
    options.mode = Mode::run;
    if (positional.size() != 2) return makeError(Errc::invalid_params, "lathe run needs exactly one PROMPT argument");
    options.prompt = positional[1];
  } else if (!positional.empty() && positional[0] == "doctor") {
    options.mode = Mode::doctor;
    if (positional.size() != 1) return makeError(Errc::invalid_params, "lathe doctor takes no arguments");
  } else if (!positional.empty()) {
    return makeError(Errc::invalid_params, "unexpected argument \"" + positional[0] + "\"");
  }
  if (options.mode != Mode::run && options.mode != Mode::doctor && !options.cwd.empty()) {
    return makeError(Errc::invalid_params, "--cwd applies to `lathe run` and `lathe doctor`; ACP clients send the cwd in session/new");
  }
  return options;
}

}  // namespace lathe::server
