// search_bench: times grep_search (literal and regex) and glob through the
// tool API, in process, against ripgrep and find on the same tree, and prints
// medians side by side with ratios. The tree (>= 50,000 files, >= 500 MB of
// source-like text, with a .gitignore and ignored folders) is generated once
// and cached under build/bench-tree or $LATHE_BENCH_TREE. Never asserts.
// Single-threaded driver; the tools run their own walker threads.
//
//   cmake --build build --target search_bench
//   build/bench/search_bench [--runs 5] [--tree DIR] [--packages 60] [--regenerate]
//                            [--threads N] [--cold] [--grep-only]
//
// --threads sets the tools' walker threads (0: the default). --cold drops the
// page, dentry and inode caches (`sync; echo 3 > /proc/sys/vm/drop_caches`,
// needs root) before every timed run of either side, for cold-cache figures.
//
// grep cases ask for every match (total_max_matches huge, context 0) and rg
// gets the same semantics (-i, --hidden, .gitignore honoured); rg's output
// goes to a pipe the driver drains. The glob cases compare with find (the
// ignored folders pruned by hand) and `rg --files --iglob`.
#include "bench/bench_tree.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tools/search/search_tools.h"
#include "tools/core/workspace.h"
#include "tools/search/file_walker.h"

namespace fs = std::filesystem;
using namespace lathe;
using namespace lathe::tools;
using Clock = std::chrono::steady_clock;
using namespace lathe::bench;

extern char** environ;

namespace {


struct Options {
  std::string tree;
  int runs = 5;
  int packages = 60;  // x 25 modules x 40 files = 60,000 files
  bool regenerate = false;
  unsigned threads = 0;  // walker threads; 0: the tools' default
  bool cold = false;     // drop the caches before each timed run
  bool grepOnly = false; // skip the glob cases
};

bool gCold = false;  // set once from --cold before any timing

// Before a timed run: drop every cache when cold figures are wanted.
void prepareRun() {
  if (!gCold) return;
  ::sync();
  std::FILE* f = std::fopen("/proc/sys/vm/drop_caches", "w");
  if (!f || std::fputs("3\n", f) < 0 || std::fclose(f) != 0) {
    std::fprintf(stderr, "search_bench: cannot drop the caches (needs root)\n");
    std::exit(2);
  }
}

// ------------------------------------------------------------------- timing

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Runs a command with stdout into a pipe the driver drains; returns wall
// milliseconds and the number of output lines.
std::pair<double, size_t> runCommand(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) return {0, 0};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  auto start = Clock::now();
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  size_t lines = 0;
  if (rc == 0) {
    char buffer[65536];
    ssize_t n;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) lines += static_cast<size_t>(std::count(buffer, buffer + n, '\n'));
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
  ::close(fds[0]);
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return {ms, lines};
}

struct Measured {
  double ms = 0;
  std::string note;  // result size, for a sanity check
};

Measured timeTool(const Tool& tool, const std::string& args, int runs) {
  auto doc = json::parse(args).value();
  std::vector<double> times;
  std::string first;
  for (int i = 0; i <= runs; ++i) {  // the first run warms the cache
    auto built = tool.build(doc);
    if (!built.invocation) return {0, "build failed: " + built.error->message};
    if (i > 0) prepareRun();
    auto start = Clock::now();
    auto result = built.invocation->execute(CancelToken(), [](const std::string&) {});
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (i > 0) times.push_back(ms);
    if (i == 0) {
      if (result.error) return {0, "error: " + result.error->message};
      const std::string& text = result.llmContent.front().text;
      first = text.substr(0, text.find_first_of(":\n"));
    }
  }
  return {median(times), first};
}

Measured timeCommand(const std::vector<std::string>& argv, int runs) {
  std::vector<double> times;
  size_t lines = 0;
  for (int i = 0; i <= runs; ++i) {
    if (i > 0) prepareRun();
    auto [ms, n] = runCommand(argv);
    if (i > 0) times.push_back(ms);
    lines = n;
  }
  return {median(times), std::to_string(lines) + " output lines"};
}

void printRow(const std::string& name, const Measured& lathe, const std::string& peerName, const Measured& peer) {
  if (peer.ms <= 0) {
    std::printf("%-34s %9.1f %9s  %-14s %7s   %s\n", name.c_str(), lathe.ms, "-", peerName.c_str(), "-", lathe.note.c_str());
    return;
  }
  std::printf("%-34s %9.1f %9.1f  %-14s %6.2fx   %s | %s\n", name.c_str(), lathe.ms, peer.ms, peerName.c_str(),
              lathe.ms / peer.ms, lathe.note.c_str(), peer.note.c_str());
}

bool haveCommand(const char* name) {
  auto [ms, lines] = runCommand({"sh", "-c", std::string("command -v ") + name});
  (void)ms;
  return lines > 0;
}

Options parseArgs(int argc, char** argv) {
  Options options;
  const char* env = std::getenv("LATHE_BENCH_TREE");
  options.tree = env && *env ? env : LATHE_BENCH_DEFAULT_TREE;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--runs") options.runs = std::max(1, std::atoi(value().c_str()));
    else if (a == "--tree") options.tree = value();
    else if (a == "--packages") options.packages = std::max(1, std::atoi(value().c_str()));
    else if (a == "--regenerate") options.regenerate = true;
    else if (a == "--threads") options.threads = static_cast<unsigned>(std::max(0, std::atoi(value().c_str())));
    else if (a == "--cold") options.cold = true;
    else if (a == "--grep-only") options.grepOnly = true;
    else {
      std::fprintf(stderr,
                   "usage: search_bench [--runs N] [--tree DIR] [--packages N (x1000 files)] [--regenerate] "
                   "[--threads N] [--cold] [--grep-only]\n");
      std::exit(a == "--help" ? 0 : 2);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseArgs(argc, argv);
  auto tree = options.regenerate ? std::nullopt : cachedTree(options.tree);
  if (!tree) {
    std::fprintf(stderr, "search_bench: generating the tree in %s (once)...\n", options.tree.c_str());
    auto start = Clock::now();
    tree = generateTree(options.tree, options.packages);
    std::fprintf(stderr, "search_bench: %zu files, %.0f MB in %.1f s\n", tree->files, tree->bytes / 1e6,
                 std::chrono::duration<double>(Clock::now() - start).count());
  }
  const std::string root = fs::canonical(options.tree).string();
  ToolContext context;
  context.workspace = std::make_shared<const Workspace>(Workspace::create(root).value());
  context.limits.walkThreads = options.threads;
  gCold = options.cold;
  auto grep = makeGrepSearchTool(context);
  auto glob = makeGlobTool(context);
  const int runs = options.runs;

  WalkOptions walk;
  walk.threads = options.threads;
  std::printf("tree: %s, %zu source files, %.0f MB (+ ignored folders); %u cores, %u walker threads; median of %d %s "
              "runs\n\n",
              root.c_str(), tree->files, tree->bytes / 1e6, std::max(1u, std::thread::hardware_concurrency()),
              walkThreads(walk), runs, options.cold ? "cold-cache" : "warm");
  std::printf("%-34s %9s %9s  %-14s %7s   %s\n", "case", "lathe ms", "peer ms", "peer", "ratio", "results (lathe | peer)");

  const bool rg = haveCommand("rg");
  struct GrepCase {
    const char* name;
    const char* pattern;
    bool fixed;
  };
  const GrepCase cases[] = {
      {"grep literal", "ConnectionPool", true},
      {"grep regex, literal inside", "validate_\\w+\\(\\w+, \\w+\\)", false},
      {"grep regex, no literal", "\\d{4}-\\d{2}-\\d{2}", false},
  };
  for (const auto& c : cases) {
    std::string pattern = json::build([&](json::Writer& w) { json::str(w, c.pattern); });
    std::string args = std::string(R"({"pattern": )") + pattern + R"(, "total_max_matches": 1000000000, "context": 0)" +
                       (c.fixed ? R"(, "fixed_strings": true})" : "}");
    Measured lathe = timeTool(*grep, args, runs);
    Measured peer;
    if (rg) {
      std::vector<std::string> command = {"rg", "--hidden", "-i", "-n", "--no-heading"};
      if (c.fixed) command.push_back("-F");
      command.insert(command.end(), {"-e", c.pattern, root});
      peer = timeCommand(command, runs);
    }
    printRow(c.name, lathe, rg ? "rg -i" : "(no rg)", peer);
  }
  {
    // The default: stop after 100 matches (what the model usually gets).
    Measured lathe = timeTool(*grep, R"({"pattern": "ConnectionPool"})", runs);
    printRow("grep literal, default 100 limit", lathe, "(none)", Measured{0, "-"});
  }

  if (options.grepOnly) return 0;
  Measured lathe = timeTool(*glob, R"({"pattern": "**/*.py"})", runs);
  Measured find = timeCommand({"find", root, "(", "-path", root + "/.git", "-o", "-path", root + "/generated", "-o",
                               "-path", root + "/logs", ")", "-prune", "-o", "-type", "f", "-iname", "*.py", "-print"},
                              runs);
  printRow("glob **/*.py", lathe, "find -prune", find);
  if (rg) {
    Measured files = timeCommand({"rg", "--files", "--hidden", "--iglob", "*.py", root}, runs);
    printRow("glob **/*.py", lathe, "rg --files", files);
  }
  lathe = timeTool(*glob, R"({"pattern": "src/pkg1*/mod2/*.{cpp,h}"})", runs);
  find = timeCommand({"find", root + "/src", "-type", "f", "(", "-iname", "*.cpp", "-o", "-iname", "*.h", ")", "-ipath",
                      "*/pkg1*/mod2/*"},
                     runs);
  printRow("glob src/pkg1*/mod2/*.{cpp,h}", lathe, "find", find);
  std::printf("\nratio = lathe / peer (below 1 means Lathe is faster). rg prints to a pipe the driver drains.\n");
  return 0;
}
