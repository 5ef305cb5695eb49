// Running a command hook.
#include "engine/hooks/hook_runner.h"

#include <chrono>

#include "tools/process/captured_run.h"
#include "tools/process/process_runner.h"
#include "tools/process/secret_environment.h"

namespace lathe::engine {
namespace {

constexpr size_t kMaxHookOutput = 1024 * 1024;  // per stream

// One word for bash, whatever it holds.
std::string singleQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void replaceAll(std::string& text, std::string_view name, const std::string& value) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size())) {
    text.replace(at, name.size(), value);
  }
}

}  // namespace

std::string expandHookCommand(const std::string& command, const HookPlace& place) {
  std::string out = command;
  const std::string dir = singleQuoted(place.projectDir);
  replaceAll(out, "$GEMINI_PROJECT_DIR", dir);
  replaceAll(out, "$CLAUDE_PROJECT_DIR", dir);
  replaceAll(out, "$GEMINI_SESSION_ID", singleQuoted(place.sessionId));
  replaceAll(out, "$GEMINI_CWD", dir);
  replaceAll(out, "$GEMINI_PLANS_DIR", singleQuoted(place.plansDir));
  return out;
}

HookResult runHook(const HookDefinition& hook, const std::string& inputJson, const HookPlace& place,
                   const CancelToken& cancel) {
  const auto started = std::chrono::steady_clock::now();
  tools::process::CapturedRunSpec spec;
  spec.argv = tools::process::bashArgv(expandHookCommand(hook.command, place));
  spec.cwd = place.projectDir;
  spec.env.unset = tools::process::secretVariableNames();
  spec.env.set = {{"GEMINI_PROJECT_DIR", place.projectDir},
                  {"GEMINI_CWD", place.projectDir},
                  {"GEMINI_SESSION_ID", place.sessionId},
                  {"CLAUDE_PROJECT_DIR", place.projectDir}};
  if (!place.plansDir.empty()) spec.env.set.emplace_back("GEMINI_PLANS_DIR", place.plansDir);
  spec.env.set.insert(spec.env.set.end(), hook.env.begin(), hook.env.end());
  spec.input = inputJson;
  spec.timeout = hook.timeout;
  spec.maxOutputBytes = kMaxHookOutput;
  FinishedRun finished;
  if (auto run = tools::process::runCaptured(spec, cancel)) {
    finished.exitCode = run->exit.exitCode;
    finished.signal = run->exit.signal;
    finished.timedOut = run->timedOut;
    finished.cancelled = run->cancelled;
    finished.outputTooLarge = run->outputTooLarge;
    finished.out = std::move(run->out);
    finished.err = std::move(run->err);
  } else {
    finished.startError = run.error().message;
  }
  HookResult result = judgeHookRun(finished, hook.timeout);
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  return result;
}

}  // namespace lathe::engine
