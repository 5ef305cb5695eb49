// shell_judge_bench: the time to parse and judge a shell command line (the
// tree-sitter-bash parse, the walk with wrappers looked through, the
// read-only verdict and the root commands), for short lines, a 5,000-char
// pipeline, 200 chained commands and here-doc-heavy scripts. Prints the
// median, min and max of N runs per case. Single-threaded.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tools/shell/shell_analysis.h"

using namespace lathe::tools::shell;
using Clock = std::chrono::steady_clock;

namespace {

struct Case {
  const char* label;
  std::string line;
};

std::string longPipeline() {
  std::string line = "cat input.log";
  for (int i = 0; line.size() < 5000; ++i) line += " | grep -v 'pattern number " + std::to_string(i) + "'";
  return line + " | sort | uniq -c | sort -rn | head -n 20";
}

std::string chained(int count) {
  std::string line;
  for (int i = 0; i < count; ++i) {
    if (i) line += i % 3 == 0 ? " ; " : (i % 3 == 1 ? " && " : " || ");
    line += "test -d dir" + std::to_string(i) + " && ls -la \"dir" + std::to_string(i) + "\"";
  }
  return line;
}

std::string heredocScript() {
  std::string line = "cat <<EOF > report.txt\n";
  for (int i = 0; i < 200; ++i) line += "row " + std::to_string(i) + ": $(date +%s) ${USER} `whoami`\n";
  line += "EOF\nbash <<'EOF'\nset -e\n";
  for (int i = 0; i < 300; ++i) {
    line += "if [ -f file" + std::to_string(i) + " ]; then grep -c x file" + std::to_string(i) +
            " | tee -a counts.txt; fi\n";
  }
  return line + "EOF\n";
}

struct Verdict {
  size_t commands = 0;
  size_t roots = 0;
  bool readOnly = false;
};

// Everything the approval path does with a line.
double judgeMicros(const std::string& line, Verdict& verdict) {
  auto start = Clock::now();
  ShellAnalysis analysis = analyzeShellCommand(line);
  verdict.readOnly = isReadOnly(analysis);
  verdict.roots = rootCommands(analysis).size();
  verdict.commands = analysis.commands.size();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 101;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: shell_judge_bench [--runs N]\n");
      return 2;
    }
  }
  const std::vector<Case> cases = {
      {"short: git status && ls | grep", "git status && ls -la | grep -n foo"},
      {"short: wrappers and quoting",
       "sudo -u bob env LANG=C bash -c 'rm -rf build; make' && eval \"git log -5\" | xargs -n1 echo \"$(date)\""},
      {"5,000-char pipeline", longPipeline()},
      {"200 chained commands", chained(100)},
      {"here-docs (200 + 300 lines)", heredocScript()},
  };
  std::printf("%-34s %7s %9s %6s %11s %9s %9s\n", "case", "chars", "commands", "roots", "median us", "min", "max");
  for (const auto& c : cases) {
    std::vector<double> times;
    Verdict verdict;
    judgeMicros(c.line, verdict);  // warm-up
    for (int i = 0; i < runs; ++i) times.push_back(judgeMicros(c.line, verdict));
    std::sort(times.begin(), times.end());
    std::printf("%-34s %7zu %9zu %6zu %11.1f %9.1f %9.1f%s\n", c.label, c.line.size(), verdict.commands, verdict.roots,
                times[times.size() / 2], times.front(), times.back(), verdict.readOnly ? "  read-only" : "");
  }
  return 0;
}
