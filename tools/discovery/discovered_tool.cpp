// Discovered tools: the discovery run, and a call as a captured child process.
#include "tools/discovery/discovered_tool.h"

#include "tools/process/captured_run.h"
#include "tools/process/secret_environment.h"

namespace lathe::tools::discovery {
namespace {

constexpr size_t kMaxNameLength = 63;
constexpr size_t kStderrShown = 4000;

// Secrets stay with Lathe: the commands come from settings, not from the person's shell.
process::EnvironmentChanges commandEnvironment() {
  process::EnvironmentChanges env;
  env.unset = process::secretVariableNames();
  return env;
}

std::string lastPart(const std::string& text) {
  return text.size() <= kStderrShown ? text : "..." + text.substr(text.size() - kStderrShown);
}

std::string howItEnded(const process::CapturedRun& run, std::chrono::milliseconds timeout) {
  if (run.timedOut) return "it did not finish within " + std::to_string(timeout.count() / 1000) + " s and was stopped";
  if (run.outputTooLarge) return "it printed more than allowed and was stopped";
  if (run.exit.signal) return "it was ended by signal " + std::to_string(run.exit.signal);
  return "it exited with code " + std::to_string(run.exit.exitCode.value_or(-1));
}

class DiscoveredInvocation final : public ToolInvocation {
 public:
  DiscoveredInvocation(const DiscoveryOptions& options, std::string name, std::string args)
      : options_(options), name_(std::move(name)), args_(std::move(args)) {}

  std::string description() const override { return args_; }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    InfoConfirmation info;
    info.prompt = "Run the project's tool command `" + options_.callCommand + " " + name_ +
                  "` in the workspace, with these arguments on its input:\n" + args_;
    return std::optional<ConfirmationDetails>(std::move(info));
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    process::CapturedRunSpec spec;
    // The name travels as $1, never spliced into the command line.
    spec.argv = {"bash", "-c", options_.callCommand + " \"$1\"", "lathe-call", name_};
    spec.cwd = options_.cwd;
    spec.env = commandEnvironment();
    spec.input = args_;
    spec.timeout = options_.callTimeout;
    auto run = process::runCaptured(spec, cancel);
    if (!run) return ToolResult::failure(ErrorType::execution_failed, "the call command could not start: " + run.error().message);
    if (run->cancelled) return ToolResult::failure(ErrorType::cancelled, "cancelled");
    if (!run->ok()) {
      std::string message = "The tool command failed: " + howItEnded(*run, options_.callTimeout) + ".";
      message += "\nStdout: " + (run->out.empty() ? std::string("(empty)") : lastPart(run->out));
      message += "\nStderr: " + (run->err.empty() ? std::string("(empty)") : lastPart(run->err));
      return ToolResult::failure(ErrorType::execution_failed, message);
    }
    return ToolResult::text(run->out, run->out);
  }

 private:
  DiscoveryOptions options_;  // a copy: an invocation never depends on its tool staying alive
  std::string name_;
  std::string args_;
};

class DiscoveredTool final : public Tool {
 public:
  DiscoveredTool(ToolInfo info, std::string originalName, DiscoveryOptions options)
      : Tool(std::move(info)), originalName_(std::move(originalName)), options_(std::move(options)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    return {std::make_unique<DiscoveredInvocation>(options_, originalName_, json::stringify(params)), std::nullopt};
  }

 private:
  std::string originalName_;
  DiscoveryOptions options_;
};

}  // namespace

std::string discoveredToolName(const std::string& name) {
  std::string out = "discovered_tool_" + name;
  for (char& c : out) {
    bool fine = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                c == '.' || c == ':';
    if (!fine) c = '_';
  }
  if (out.size() > kMaxNameLength) out.resize(kMaxNameLength);
  return out;
}

std::unique_ptr<Tool> makeDiscoveredTool(const Declaration& declaration, const DiscoveryOptions& options) {
  ToolInfo info{.name = discoveredToolName(declaration.name),
                .displayName = declaration.name,
                .description = declaration.description + (declaration.description.empty() ? "" : "\n\n") +
                               "A tool of this project, found by its discovery command. A call runs `" +
                               options.callCommand + " " + declaration.name +
                               "` in the project root with the arguments as JSON on its input; what it prints is the "
                               "result, and when it fails you get its exit status, output and errors.",
                .kind = Kind::other,
                .parametersSchema = declaration.schema,
                .isOutputMarkdown = false};
  return std::make_unique<DiscoveredTool>(std::move(info), declaration.name, options);
}

Result<std::vector<std::unique_ptr<Tool>>> discoverTools(const DiscoveryOptions& options, const CancelToken& cancel) {
  process::CapturedRunSpec spec;
  spec.argv = {"bash", "-c", options.discoveryCommand};
  spec.cwd = options.cwd;
  spec.env = commandEnvironment();
  spec.timeout = options.discoveryTimeout;
  auto run = process::runCaptured(spec, cancel);
  std::string what = "The tool discovery command `" + options.discoveryCommand + "`";
  if (!run) return makeError(Errc::internal, what + " could not start: " + run.error().message);
  if (run->cancelled) return makeError(Errc::cancelled, what + " was cancelled");
  if (!run->ok()) {
    std::string message = what + " failed: " + howItEnded(*run, options.discoveryTimeout) + ".";
    if (!run->err.empty()) message += " Its errors:\n" + lastPart(run->err);
    return makeError(Errc::internal, message);
  }
  auto declarations = parseDeclarations(run->out);
  if (!declarations) return makeError(Errc::invalid_params, what + " printed something unusable: " + declarations.error().message);
  std::vector<std::unique_ptr<Tool>> tools;
  for (const auto& declaration : *declarations) tools.push_back(makeDiscoveredTool(declaration, options));
  return tools;
}

}  // namespace lathe::tools::discovery
