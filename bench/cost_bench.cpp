// cost_bench: what a turn costs, through the real agent over ACP, for one or
// more lathe binaries side by side (e.g. the previous build and this one):
//   tls        20 sequential model requests over TLS to a local fake server
//              (19 read_file calls and an answer): the turn's time and the
//              connections it opened
//   title      the first prompt answered, the title call taking 400 ms
//   modes      500 session/set_mode calls (each used to rewrite meta.json)
//   reads      10 parallel read_file calls of 1 MB files in one turn: the
//              turn's time, the bytes the editor received, the record's growth
//   idle       resident memory of one process with 1,000 idle sessions
//   replace    one replace in a 5 MB file through ACP (asked and allowed):
//              the turn's time and the permission request's size; the turn
//              with an editor that reads and writes files (fs/*); and the
//              bare read, replace, write with fsync for scale
//   cancel     a command running sealed (bubblewrap) cancelled: from
//              session/cancel until every process it started is gone (zombies
//              count as there)
// Usage: cost_bench [--runs N] [--only NAME[,NAME]] LATHE [LATHE...]
// Prints the median of N runs (default 5) per binary. Figures only.
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "protocol/base/json.h"
#include "tests/support/acp_client.h"
#include "tests/support/fake_gemini_server.h"
#include "tests/support/gemini_chunks.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

struct Agent {
  TempDir home;
  std::unique_ptr<Subprocess> process;
  std::unique_ptr<AcpTestClient> client;
  std::string sid;
};

std::unique_ptr<Agent> startAgent(const std::string& binary, const FakeGeminiServer& fake, const fs::path& ws,
                                  std::vector<std::pair<std::string, std::string>> env = {},
                                  AcpClientOptions clientOptions = {}) {
  auto agent = std::make_unique<Agent>();
  SubprocessOptions spawn;
  spawn.argv = {binary, "--acp"};
  spawn.cwd = ws.string();
  spawn.env = {{"GEMINI_API_KEY", "dummy"}, {"GOOGLE_GEMINI_BASE_URL", fake.baseUrl()},
               {"GEMINI_MODEL", "gemini-bench"}, {"HOME", agent->home.str()},
               {"XDG_STATE_HOME", (agent->home.path / "state").string()}};
  spawn.env.insert(spawn.env.end(), env.begin(), env.end());
  spawn.unsetEnv = {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"};
  auto process = Subprocess::spawn(spawn);
  if (!process) {
    std::fprintf(stderr, "cannot start %s: %s\n", binary.c_str(), process.error().message.c_str());
    std::exit(1);
  }
  agent->process = std::move(process).value();
  agent->client = std::make_unique<AcpTestClient>(*agent->process, clientOptions);
  agent->client->initialize();
  agent->sid = agent->client->newSession(ws.string());
  return agent;
}

void stopAgent(Agent& agent, bool failed = false) {
  if (failed) std::fprintf(stderr, "the agent's stderr:\n%s\n", agent.process->stderrText().c_str());
  agent.process->closeStdin();
  if (!agent.process->wait(10s)) agent.process->kill(9);
}

std::string readCall(const std::string& path) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", path);
    w.EndObject();
  });
}

size_t bytesOf(const std::vector<Message>& messages, size_t from) {
  size_t n = 0;
  for (size_t i = from; i < messages.size(); ++i) n += json::stringify(*messages[i]).size();
  return n;
}

long rssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

// Every process below `root` (by parent pid), zombies included.
std::vector<pid_t> descendants(pid_t root) {
  std::map<pid_t, pid_t> parent;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    pid_t pid = std::atoi(entry.path().filename().c_str());
    if (pid <= 0) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    size_t close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    parent[pid] = ppid;
  }
  std::vector<pid_t> out;
  for (auto [pid, ppid] : parent) {
    for (pid_t up = ppid; up > 1; up = parent.count(up) ? parent[up] : 0) {
      if (up == root) {
        out.push_back(pid);
        break;
      }
    }
  }
  return out;
}

// One scenario's figures for one run: name -> value.
using Figures = std::map<std::string, double>;

struct Scenario {
  std::string name;
  std::vector<std::string> rows;  // figure names in print order, with their unit after a '|'
  std::function<Figures(const std::string& binary, int run)> measure;
};

// A self-signed certificate for 127.0.0.1 (openssl), made once.
struct Certificate {
  TempDir dir;
  std::string cert, key;
  bool ok = false;
  Certificate() {
    cert = (dir.path / "cert.pem").string();
    key = (dir.path / "key.pem").string();
    std::string command = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
                          "-addext subjectAltName=IP:127.0.0.1 -keyout " + key + " -out " + cert + " 2>/dev/null";
    ok = std::system(command.c_str()) == 0;
  }
};

Figures tlsScenario(const std::string& binary, int) {
  static Certificate certificate;
  if (!certificate.ok) return {};
  TempDir ws;
  for (int i = 0; i < 19; ++i) std::ofstream(ws.path / ("a" + std::to_string(i) + ".txt")) << "alpha\n";
  FakeGeminiOptions options;
  options.tlsCertFile = certificate.cert;
  options.tlsKeyFile = certificate.key;
  FakeGeminiServer fake(options);
  if (!fake.start()) return {};
  auto agent = startAgent(binary, fake, ws.path, {{"SSL_CERT_FILE", certificate.cert}});
  // A first turn warms up what a process does once (and names the session).
  fake.push(ScriptedReply::text("Hello."));
  agent->client->prompt(agent->sid, "hi");
  size_t before = fake.generateRequests().size();
  // Different calls: the same one five times in a row would be stopped as a loop.
  for (int i = 0; i < 19; ++i) fake.push(ScriptedReply::functionCall("read_file", readCall("a" + std::to_string(i) + ".txt")));
  fake.push(ScriptedReply::text("Done."));
  auto start = Clock::now();
  auto turn = agent->client->prompt(agent->sid, "read the 19 files, one after the other");
  double ms = msSince(start);
  auto requests = fake.generateRequests();
  std::set<int> ports;
  for (size_t i = before; i < requests.size(); ++i) ports.insert(requests[i].remotePort);
  const bool failed = turn.stopReason != "end_turn" || requests.size() - before != 20;
  if (failed) {
    std::fprintf(stderr, "tls: stop reason \"%s\" (%s), %zu requests\n", turn.stopReason.c_str(),
                 turn.error.value_or("").c_str(), requests.size() - before);
  }
  stopAgent(*agent, failed);
  if (failed) return {};
  return {{"turn of 20 requests", ms}, {"connections opened", static_cast<double>(ports.size())}};
}

Figures titleScenario(const std::string& binary, int) {
  TempDir ws;
  FakeGeminiOptions options;
  options.titleDelay = 400ms;
  FakeGeminiServer fake(options);
  if (!fake.start()) return {};
  fake.push(ScriptedReply::text("Let us look."));
  auto agent = startAgent(binary, fake, ws.path);
  auto start = Clock::now();
  auto turn = agent->client->prompt(agent->sid, "Fix the parser crash", 20s);
  double ms = msSince(start);
  stopAgent(*agent, turn.stopReason != "end_turn");
  if (turn.stopReason != "end_turn") return {};
  return {{"first prompt answered", ms}};
}

Figures modesScenario(const std::string& binary, int) {
  TempDir ws;
  FakeGeminiServer fake;
  if (!fake.start()) return {};
  fake.push(ScriptedReply::text("Planned."));
  auto agent = startAgent(binary, fake, ws.path);
  agent->client->prompt(agent->sid, "plan it");
  const char* modes[] = {"yolo", "plan", "autoEdit", "default"};
  auto start = Clock::now();
  for (int i = 0; i < 500; ++i) {
    agent->client->call("session/set_mode", R"({"sessionId":")" + agent->sid + R"(","modeId":")" + modes[i % 4] + "\"}");
  }
  double ms = msSince(start);
  stopAgent(*agent);
  return {{"500 set_mode calls", ms}};
}

Figures readsScenario(const std::string& binary, int) {
  TempDir ws;
  std::string big;
  const std::string filler(500, 'x');  // about 2,000 lines: read_file reads them whole
  for (int i = 0; big.size() < 1'000'000; ++i) big += "line " + std::to_string(i) + " " + filler + "\n";
  std::vector<Chunk> calls;
  for (int i = 0; i < 10; ++i) {
    std::ofstream(ws.path / ("big" + std::to_string(i) + ".log")) << big;
    calls.push_back(functionCallChunk("read_file", readCall("big" + std::to_string(i) + ".log")));
  }
  FakeGeminiServer fake;
  if (!fake.start()) return {};
  fake.push(ScriptedReply::text("Hello."));
  auto agent = startAgent(binary, fake, ws.path);
  agent->client->prompt(agent->sid, "hi");
  calls.push_back(finishChunk());
  fake.push(ScriptedReply::stream(calls));
  fake.push(ScriptedReply::text("Read them."));
  const fs::path record = agent->home.path / "state" / "lathe" / "sessions" / agent->sid / "record.jsonl";
  std::error_code ec;
  uintmax_t recordBefore = fs::file_size(record, ec);
  size_t from = agent->client->messages().size();
  auto start = Clock::now();
  auto turn = agent->client->prompt(agent->sid, "read the ten logs");
  double ms = msSince(start);
  double sent = static_cast<double>(bytesOf(agent->client->messages(), from)) / 1024.0;
  stopAgent(*agent, turn.stopReason != "end_turn");
  double recorded = static_cast<double>(fs::file_size(record, ec) - recordBefore) / 1024.0;
  if (turn.stopReason != "end_turn") return {};
  return {{"turn with 10 parallel 1 MB reads", ms}, {"sent to the editor", sent}, {"appended to the record", recorded}};
}

Figures idleScenario(const std::string& binary, int) {
  TempDir ws;
  FakeGeminiServer fake;
  if (!fake.start()) return {};
  auto agent = startAgent(binary, fake, ws.path);
  std::this_thread::sleep_for(200ms);
  long one = rssKb(agent->process->pid());
  for (int i = 1; i < 1000; ++i) agent->client->newSession(ws.str());
  std::this_thread::sleep_for(300ms);
  long all = rssKb(agent->process->pid());
  stopAgent(*agent);
  return {{"RSS with 1,000 idle sessions", all / 1024.0}, {"per session", (all - one) / 999.0}};
}

// One replace through ACP; `editorFiles`: the editor reads and writes the file (fs/*).
Figures replaceTurn(const std::string& binary, bool editorFiles) {
  TempDir ws;
  std::string text;
  for (int i = 0; text.size() < 5'000'000; ++i) text += "int value" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  std::ofstream(ws.path / "big.cpp") << text;
  FakeGeminiServer fake;
  if (!fake.start()) return {};
  fake.push(ScriptedReply::text("Hello."));
  AcpClientOptions clientOptions;
  clientOptions.readTextFile = clientOptions.writeTextFile = editorFiles;
  auto agent = startAgent(binary, fake, ws.path, {}, clientOptions);
  agent->client->prompt(agent->sid, "hi");
  fake.push(ScriptedReply::functionCall("replace", json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", (ws.path / "big.cpp").string());
    json::put(w, "old_string", "int value40000 = 40000;");
    json::put(w, "new_string", "int value40000 = 7;");
    json::put(w, "instruction", "Set value40000 to 7.");
    w.EndObject();
  })));
  fake.push(ScriptedReply::text("Changed."));
  size_t from = agent->client->messages().size();
  auto start = Clock::now();
  auto turn = agent->client->prompt(agent->sid, "set value40000 to 7");
  double ms = msSince(start);
  double ask = 0;
  auto messages = agent->client->messages();
  for (size_t i = from; i < messages.size(); ++i) {
    if (json::getStr(*messages[i], "method").value_or("") == "session/request_permission") {
      ask = static_cast<double>(json::stringify(*messages[i]).size()) / 1024.0;
    }
  }
  stopAgent(*agent, turn.stopReason != "end_turn");
  if (turn.stopReason != "end_turn") return {};
  if (editorFiles) return {{"turn, the editor reads and writes", ms}};
  return {{"turn with a replace in a 5 MB file", ms}, {"permission request", ask}};
}

// The bare operation for scale: read the file, replace once, write it back with fsync.
double bareReplace() {
  TempDir ws;
  std::string text;
  for (int i = 0; text.size() < 5'000'000; ++i) text += "int value" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  const fs::path path = ws.path / "big.cpp";
  std::ofstream(path) << text;
  auto start = Clock::now();
  std::ifstream in(path, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "int value40000 = 40000;";
  content.replace(content.find(from), from.size(), "int value40000 = 7;");
  FILE* out = std::fopen((path.string() + ".new").c_str(), "wb");
  if (!out) return -1;
  std::fwrite(content.data(), 1, content.size(), out);
  std::fflush(out);
  ::fsync(fileno(out));
  std::fclose(out);
  fs::rename(path.string() + ".new", path);
  return msSince(start);
}

Figures replaceScenario(const std::string& binary, int) {
  Figures figures = replaceTurn(binary, false);
  Figures viaEditor = replaceTurn(binary, true);
  figures.insert(viaEditor.begin(), viaEditor.end());
  figures["bare read, replace, write + fsync"] = bareReplace();
  return figures;
}

Figures cancelScenario(const std::string& binary, int) {
  TempDir ws;
  std::ofstream(ws.path / "log.txt") << "a line\n";
  FakeGeminiServer fake;
  if (!fake.start()) return {};
  fake.push(ScriptedReply::text("Hello."));
  auto agent = startAgent(binary, fake, ws.path);
  agent->client->prompt(agent->sid, "hi");
  fake.push(ScriptedReply::functionCall("run_shell_command", R"({"command":"tail -f log.txt"})"));
  fake.push(ScriptedReply::text("Stopped."));
  int64_t id = agent->client->request("session/prompt", R"({"sessionId":")" + agent->sid +
                                                            R"(","prompt":[{"type":"text","text":"follow the log"}]})");
  // Running: bubblewrap and tail are up.
  std::vector<pid_t> tree;
  auto guard = Clock::now() + 10s;
  while (Clock::now() < guard) {
    tree = descendants(agent->process->pid());
    bool tail = false;
    for (pid_t pid : tree) {
      std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
      std::string name;
      comm >> name;
      tail = tail || name == "tail";
    }
    if (tail) break;
    std::this_thread::sleep_for(2ms);
  }
  bool asked = false;
  for (const auto& m : agent->client->messages()) {
    asked = asked || json::getStr(*m, "method").value_or("") == "session/request_permission";
  }
  auto start = Clock::now();
  agent->client->cancel(agent->sid);
  auto gone = [&] {
    for (pid_t pid : tree) {
      if (fs::exists("/proc/" + std::to_string(pid))) return false;
    }
    return true;
  };
  while (!gone() && msSince(start) < 10'000) std::this_thread::sleep_for(1ms);
  double ms = msSince(start);
  agent->client->waitResponse(id, 10s);
  stopAgent(*agent);
  if (asked) std::fprintf(stderr, "cancel: the command was asked about (it did not run sealed)\n");
  return {{"cancel -> its processes all gone", ms}, {"processes in the tree", static_cast<double>(tree.size())}};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? -1 : values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::set<std::string> only;
  std::vector<std::string> binaries;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--only" && i + 1 < argc) {
      std::stringstream names(argv[++i]);
      for (std::string name; std::getline(names, name, ',');) only.insert(name);
    } else {
      binaries.push_back(fs::absolute(arg).string());
    }
  }
  if (binaries.empty()) {
    std::fprintf(stderr, "usage: cost_bench [--runs N] [--only tls,title,modes,reads,idle,replace,cancel] LATHE...\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  const std::vector<Scenario> scenarios = {
      {"tls", {"turn of 20 requests|ms", "connections opened|"}, tlsScenario},
      {"title", {"first prompt answered|ms"}, titleScenario},
      {"modes", {"500 set_mode calls|ms"}, modesScenario},
      {"reads", {"turn with 10 parallel 1 MB reads|ms", "sent to the editor|KB", "appended to the record|KB"}, readsScenario},
      {"idle", {"RSS with 1,000 idle sessions|MB", "per session|KB"}, idleScenario},
      {"replace",
       {"turn with a replace in a 5 MB file|ms", "permission request|KB", "turn, the editor reads and writes|ms",
        "bare read, replace, write + fsync|ms"},
       replaceScenario},
      {"cancel", {"cancel -> its processes all gone|ms", "processes in the tree|"}, cancelScenario},
  };
  std::printf("cost_bench: medians of %d runs\n", runs);
  for (size_t b = 0; b < binaries.size(); ++b) std::printf("  #%zu %s\n", b + 1, binaries[b].c_str());
  std::printf("%-42s", "");
  for (size_t b = 0; b < binaries.size(); ++b) std::printf(" %21s%zu", "#", b + 1);
  std::printf("\n");
  for (const auto& scenario : scenarios) {
    if (!only.empty() && !only.count(scenario.name)) continue;
    std::map<std::string, std::vector<std::vector<double>>> values;  // row -> binary -> runs
    for (int run = 0; run < runs; ++run) {
      for (size_t b = 0; b < binaries.size(); ++b) {  // interleaved: the machine's load hits both alike
        Figures figures = scenario.measure(binaries[b], run);
        for (const auto& row : scenario.rows) {
          std::string name = row.substr(0, row.find('|'));
          auto& perBinary = values[name];
          perBinary.resize(binaries.size());
          if (figures.count(name)) perBinary[b].push_back(figures[name]);
        }
      }
    }
    for (const auto& row : scenario.rows) {
      std::string name = row.substr(0, row.find('|'));
      std::string unit = row.substr(row.find('|') + 1);
      std::printf("%-9s %-32s", scenario.name.c_str(), name.c_str());
      for (size_t b = 0; b < binaries.size(); ++b) {
        const auto& runsOf = values[name][b];
        if (runsOf.empty()) {
          std::printf(" %22s", "failed");
        } else {
          char cell[64];
          std::snprintf(cell, sizeof cell, "%.1f %s", median(runsOf), unit.c_str());
          std::printf(" %22s", cell);
        }
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return 0;
}
