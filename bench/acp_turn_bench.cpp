// acp_turn_bench: times an ACP agent through one read_file turn against an
// in-process fake Gemini server, N times, and prints median/min/max of the
// time to answer initialize, session/new and the turn, peak RSS and CPU time.
// Single-threaded driver; the fake server and the ACP client run their own threads.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/memory_sampler.h"
#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/subprocess.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using Clock = std::chrono::steady_clock;

namespace {

struct BenchOptions {
  int iterations = 5;
  int warmup = 1;
  std::string label;
  std::chrono::seconds timeout{120};
  std::vector<std::pair<std::string, std::string>> env;
  bool tsv = false;
  bool keep = false;
  bool verbose = false;
  std::vector<std::string> agent;
};

struct Sample {
  double initializeMs = 0;
  double sessionNewMs = 0;
  double turnMs = 0;
  double peakRssMb = 0;      // the largest VmHWM of one process in the agent's group
  double peakTreeRssMb = 0;  // sampled peak of the RSS summed over its process group
  double cpuSeconds = 0;
  double modelRequests = 0;
  double toolCalls = 0;
};

struct Metric {
  const char* name;
  const char* unit;
  std::function<double(const Sample&)> get;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> all = {
      {"initialize", "ms", [](const Sample& s) { return s.initializeMs; }},
      {"session_new", "ms", [](const Sample& s) { return s.sessionNewMs; }},
      {"turn_end", "ms", [](const Sample& s) { return s.turnMs; }},
      {"peak_rss", "MB", [](const Sample& s) { return s.peakRssMb; }},
      {"peak_tree_rss", "MB", [](const Sample& s) { return s.peakTreeRssMb; }},
      {"cpu", "s", [](const Sample& s) { return s.cpuSeconds; }},
      {"model_requests", "", [](const Sample& s) { return s.modelRequests; }},
      {"tool_calls", "", [](const Sample& s) { return s.toolCalls; }},
  };
  return all;
}

int usage() {
  std::fprintf(stderr,
               "usage: acp_turn_bench [options] -- AGENT [ARGS...]\n"
               "  --iterations N   measured runs (default 5)\n"
               "  --warmup N       unmeasured runs first (default 1)\n"
               "  --label NAME     name shown in the output (default: the agent command)\n"
               "  --timeout SEC    limit for each step (default 120)\n"
               "  --env K=V        extra environment for the agent (repeatable)\n"
               "  --tsv            print 'label<TAB>metric<TAB>median<TAB>min<TAB>max' rows\n"
               "  --keep           keep the temporary workspaces\n"
               "  --verbose        print the agent's stderr after each run\n"
               "example: acp_turn_bench -- build/server/lathe --acp\n");
  return 2;
}

std::optional<BenchOptions> parseArgs(int argc, char** argv) {
  BenchOptions o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    if (arg == "--") {
      ++i;
      break;
    }
    std::optional<std::string> v;
    if (arg == "--tsv") {
      o.tsv = true;
    } else if (arg == "--keep") {
      o.keep = true;
    } else if (arg == "--verbose") {
      o.verbose = true;
    } else if (!(v = value())) {
      return std::nullopt;
    } else if (arg == "--iterations") {
      o.iterations = std::max(1, std::atoi(v->c_str()));
    } else if (arg == "--warmup") {
      o.warmup = std::max(0, std::atoi(v->c_str()));
    } else if (arg == "--label") {
      o.label = *v;
    } else if (arg == "--timeout") {
      o.timeout = std::chrono::seconds(std::max(1, std::atoi(v->c_str())));
    } else if (arg == "--env") {
      size_t eq = v->find('=');
      if (eq == std::string::npos) return std::nullopt;
      o.env.emplace_back(v->substr(0, eq), v->substr(eq + 1));
    } else {
      return std::nullopt;
    }
  }
  // The agent runs in a temporary workspace: make relative paths to existing
  // files (the program, a script) absolute so they still resolve there.
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    std::error_code ec;
    if (arg.find('/') != std::string::npos && arg.front() != '/' && fs::exists(arg, ec)) {
      arg = fs::absolute(arg, ec).lexically_normal().string();
    }
    o.agent.push_back(arg);
  }
  if (o.agent.empty()) return std::nullopt;
  if (o.label.empty()) {
    for (const auto& a : o.agent) o.label += (o.label.empty() ? "" : " ") + a;
  }
  return o;
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string tail(const std::string& text, size_t bytes) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

// A fresh home and workspace: nothing from the user's own setup leaks in, and
// Gemini CLI finds its auth choice and no usage-statistics upload.
fs::path makeSandbox() {
  std::string templ = (fs::temp_directory_path() / "acp-bench-XXXXXX").string();
  char* made = mkdtemp(templ.data());
  if (!made) return {};
  fs::path root(made);
  writeFile(root / "ws" / "hello.txt", "Hello from the benchmark workspace.\nSecond line.\n");
  writeFile(root / "ws" / "README.md", "# bench workspace\n");
  writeFile(root / "home" / ".gemini" / "settings.json",
            R"({"privacy":{"usageStatisticsEnabled":false},"security":{"auth":{"selectedType":"gemini-api-key"}},)"
            R"("general":{"disableAutoUpdate":true}})"
            "\n");
  return root;
}

size_t countToolCalls(const std::vector<Message>& updates) {
  size_t n = 0;
  for (const auto& m : updates) {
    const json::Value* params = json::find(*m, "params");
    const json::Value* update = params ? json::find(*params, "update") : nullptr;
    if (update && json::getStr(*update, "sessionUpdate").value_or("") == "tool_call") ++n;
  }
  return n;
}

// One run; the error says which step failed.
Result<Sample> runOnce(const BenchOptions& options) {
  fs::path root = makeSandbox();
  if (root.empty()) return makeError(Errc::io, "mkdtemp failed");
  fs::path ws = root / "ws";
  struct Cleanup {
    fs::path root;
    bool keep;
    ~Cleanup() {
      std::error_code ec;
      if (!keep) fs::remove_all(root, ec);
    }
  } cleanup{root, options.keep};

  FakeGeminiOptions serverOptions;
  serverOptions.fallback = FallbackMode::autoTool;
  serverOptions.autoReadPath = (ws / "hello.txt").string();
  FakeGeminiServer server(serverOptions);
  if (auto started = server.start(); !started) return started.error();

  SubprocessOptions spawn;
  spawn.argv = options.agent;
  spawn.cwd = ws.string();
  spawn.env = {
      {"GOOGLE_GEMINI_BASE_URL", server.baseUrl()},
      {"GEMINI_API_KEY", "dummy"},
      {"GEMINI_MODEL", "gemini-2.5-flash"},
      {"HOME", (root / "home").string()},
      {"GEMINI_CLI_HOME", (root / "home").string()},
      {"NO_COLOR", "1"},
  };
  for (const auto& kv : options.env) spawn.env.push_back(kv);
  spawn.unsetEnv = {"GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"};

  Clock::time_point start = Clock::now();
  auto spawned = Subprocess::spawn(spawn);
  if (!spawned) return spawned.error();
  Subprocess& agent = **spawned;
  bench::MemorySampler memory(agent.pid(), std::chrono::milliseconds(20));
  AcpClientOptions clientOptions;
  clientOptions.timeout = options.timeout;
  clientOptions.permissionKind = "allow_once";
  AcpTestClient client(agent, clientOptions);

  auto fail = [&](const std::string& step) -> Error {
    agent.kill();
    agent.wait(std::chrono::seconds(5));
    std::string message = step + " failed";
    for (const auto& v : server.violations()) message += "\n  model-side violation: " + v;
    message += "\n  agent stderr: " + tail(agent.stderrText(), 1500);
    return makeError(Errc::internal, message);
  };

  Sample sample;
  Message init = client.initialize();
  if (!init || !json::find(*init, "result")) return fail("initialize");
  sample.initializeMs = msSince(start);

  std::string sessionId = client.newSession(ws.string());
  if (sessionId.empty()) return fail("session/new");
  sample.sessionNewMs = msSince(start);

  PromptOutcome turn = client.prompt(sessionId, "Read hello.txt and tell me what it says.");
  if (turn.stopReason.empty()) return fail("session/prompt (" + turn.error.value_or("no stopReason") + ")");
  sample.turnMs = msSince(start);
  sample.modelRequests = static_cast<double>(server.generateRequests().size());
  sample.toolCalls = static_cast<double>(countToolCalls(turn.updates));
  if (!server.violations().empty()) return fail("history check");
  if (turn.stopReason != "end_turn") return fail("turn ended with " + turn.stopReason);
  if (sample.modelRequests < 2 || sample.toolCalls < 1) {
    std::fprintf(stderr, "warning: the turn made %.0f model request(s) and %.0f tool call(s); expected 2 and 1\n",
                 sample.modelRequests, sample.toolCalls);
  }

  // End of input should end the agent; give it a moment, then insist.
  memory.sampleNow();
  agent.closeStdin();
  std::optional<ExitStatus> status = agent.wait(std::chrono::seconds(10));
  if (!status) {
    agent.kill(SIGTERM);
    status = agent.wait(std::chrono::seconds(3));
  }
  if (!status) {
    agent.kill();
    status = agent.wait(std::chrono::seconds(5));
  }
  if (!status) return fail("exit");
  memory.stop();
  sample.peakTreeRssMb = static_cast<double>(memory.groupPeakKb()) / 1024.0;
  sample.peakRssMb = static_cast<double>(memory.processPeakKb()) / 1024.0;
  sample.cpuSeconds = status->userSeconds + status->systemSeconds;
  if (options.verbose) {
    std::fprintf(stderr, "--- agent stderr (%s) ---\n%s\n", status->describe().c_str(),
                 tail(agent.stderrText(), 4000).c_str());
  }
  return sample;
}

struct Stats {
  double median, min, max;
};

Stats stats(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, values.front(), values.back()};
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = parseArgs(argc, argv);
  if (!parsed) return usage();
  const BenchOptions& options = *parsed;

  std::vector<Sample> samples;
  int failures = 0;
  for (int i = 0; i < options.warmup + options.iterations; ++i) {
    bool warm = i < options.warmup;
    auto sample = runOnce(options);
    if (!sample) {
      ++failures;
      std::fprintf(stderr, "run %d: %s\n", i + 1, sample.error().message.c_str());
      continue;
    }
    std::fprintf(stderr,
                 "run %d%s: initialize %.1f ms, session/new %.1f ms, turn %.1f ms, %.1f MB (tree %.1f MB), %.2f s CPU\n",
                 i + 1, warm ? " (warm-up)" : "", sample->initializeMs, sample->sessionNewMs, sample->turnMs,
                 sample->peakRssMb, sample->peakTreeRssMb, sample->cpuSeconds);
    if (!warm) samples.push_back(*sample);
  }
  if (samples.empty()) {
    std::fprintf(stderr, "acp_turn_bench: every run failed\n");
    return 1;
  }

  if (options.tsv) {
    for (const auto& m : metrics()) {
      std::vector<double> values;
      for (const auto& s : samples) values.push_back(m.get(s));
      Stats st = stats(values);
      std::printf("%s\t%s\t%.3f\t%.3f\t%.3f\n", options.label.c_str(), m.name, st.median, st.min, st.max);
    }
  } else {
    std::printf("%s: %zu run(s), %d failed (times from spawn)\n", options.label.c_str(), samples.size(), failures);
    std::printf("%-18s %12s %12s %12s\n", "metric", "median", "min", "max");
    for (const auto& m : metrics()) {
      std::vector<double> values;
      for (const auto& s : samples) values.push_back(m.get(s));
      Stats st = stats(values);
      std::string name = std::string(m.name) + (*m.unit ? std::string(" (") + m.unit + ")" : "");
      std::printf("%-18s %12.1f %12.1f %12.1f\n", name.c_str(), st.median, st.min, st.max);
    }
  }
  std::fflush(stdout);
  return failures == 0 ? 0 : 3;
}
