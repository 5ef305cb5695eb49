// addons_bench: what a person's Gemini CLI setup costs a session's start.
// Starts the real agent against an empty home, then against a home with 20
// agent skills, 10 custom commands and 3 extensions (each with a context
// file, a command and a skill), and prints the medians of session/new
// (answered, with the commands announced: the session is assembled then)
// for the first session of a process and for one more in the same process,
// and the extra time over the empty home.
//   addons_bench [--iterations N] LATHE_BINARY
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using Clock = std::chrono::steady_clock;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

void populate(const fs::path& home) {
  const fs::path gemini = home / ".gemini";
  for (int i = 0; i < 20; ++i) {
    std::string name = "skill-" + std::to_string(i);
    write(gemini / "skills" / name / "SKILL.md", "---\nname: " + name + "\ndescription: Does task " + std::to_string(i) +
                                                     " when the person asks for it: with steps and checks\n---\n# " +
                                                     name + "\n\nStep one.\nStep two.\n");
    write(gemini / "skills" / name / "scripts" / "run.sh", "echo run\n");
  }
  for (int i = 0; i < 10; ++i) {
    write(gemini / "commands" / (i % 2 ? "git" : "review") / ("cmd" + std::to_string(i) + ".toml"),
          "description = \"Command " + std::to_string(i) + "\"\nprompt = \"\"\"Do thing " + std::to_string(i) +
              " with {{args}}.\n!{git status}\n@{README.md}\n\"\"\"\n");
  }
  for (int i = 0; i < 3; ++i) {
    std::string name = "ext-" + std::to_string(i);
    fs::path dir = gemini / "extensions" / name;
    write(dir / "gemini-extension.json", "{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"contextFileName\": \"GEMINI.md\", "
                                         "\"excludeTools\": [], \"settings\": [{\"name\": \"K\", \"envVar\": \"K_" +
                                             std::to_string(i) + "\"}]}\n");
    write(dir / "GEMINI.md", "Extension " + name + " context: prefer small diffs.\n");
    write(dir / "commands" / "do.toml", "prompt = \"Use " + name + "\"\n");
    write(dir / "skills" / "own" / "SKILL.md", "---\nname: own\ndescription: The extension's own skill\n---\nBody\n");
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// session/new, answered with the session's commands announced.
double timeNewSession(AcpTestClient& client, const std::string& ws) {
  auto start = Clock::now();
  auto response = client.call("session/new", "{\"cwd\": \"" + ws + "\", \"mcpServers\": []}");
  double ms = msSince(start);
  const json::Value* result = response ? json::find(*response, "result") : nullptr;
  std::string sid = result ? json::getStr(*result, "sessionId").value_or("") : "";
  // Announced once the answer is out: waited for so the next call starts clean.
  client.waitFor([&](const json::Value& m) {
    std::string text = json::stringify(m);
    return text.find("available_commands_update") != std::string::npos && text.find(sid) != std::string::npos;
  });
  return ms;
}

struct Figures {
  double first = 0;
  double second = 0;
};

Figures run(const std::string& binary, int iterations, bool withAddOns) {
  std::vector<double> first, second;
  for (int i = 0; i < iterations + 1; ++i) {
    TempDir home, ws, state;
    if (withAddOns) populate(home.path);
    write(ws.path / "README.md", "# Project\n");
    SubprocessOptions spawn;
    spawn.argv = {binary, "--acp"};
    spawn.env = {{"HOME", home.str()}, {"GEMINI_CLI_HOME", home.str()}, {"XDG_STATE_HOME", state.str()},
                 {"GEMINI_API_KEY", "dummy"}, {"GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9"}};
    auto agent = Subprocess::spawn(spawn);
    if (!agent) return {};
    AcpTestClient client(**agent);
    client.initialize();
    double a = timeNewSession(client, ws.str());
    double b = timeNewSession(client, ws.str());
    if (i > 0) {  // the first run warms the disk cache
      first.push_back(a);
      second.push_back(b);
    }
    (*agent)->closeStdin();
    (void)(*agent)->wait(std::chrono::seconds(10));
  }
  return {median(first), median(second)};
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 15;
  std::string binary;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--iterations" && i + 1 < argc) {
      iterations = std::max(1, std::atoi(argv[++i]));
    } else {
      binary = arg;
    }
  }
  if (binary.empty()) {
    std::fprintf(stderr, "usage: addons_bench [--iterations N] LATHE_BINARY\n");
    return 2;
  }
  Figures empty = run(binary, iterations, false);
  Figures full = run(binary, iterations, true);
  std::printf("session/new answered (median of %d)    first session   another session\n", iterations);
  std::printf("empty home                            %8.2f ms     %8.2f ms\n", empty.first, empty.second);
  std::printf("20 skills, 10 commands, 3 extensions  %8.2f ms     %8.2f ms\n", full.first, full.second);
  std::printf("extra                                 %8.2f ms     %8.2f ms\n", full.first - empty.first,
              full.second - empty.second);
  return 0;
}
