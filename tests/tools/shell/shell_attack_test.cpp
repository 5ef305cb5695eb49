// The attack table: shell lines that try to write, run code or read outside
// the workspace while looking read-only (abbreviated GNU options, variable
// assignments, configuration files, here-docs, sed scripts, wrappers). Under
// every mode but yolo (where the person chose to allow everything), each line
// is either asked about (or refused), or runs sealed with no side effect:
// checked on disk (no new or changed file in the workspace, nothing in a
// folder outside it, nothing new in HOME) and in the output (no secret read).
// A control run without the seal proves most lines really do harm.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <map>

#include "engine/scheduler/approval_policy.h"
#include "tests/support/temp_dir.h"
#include "tools/shell/shell_tools.h"
#include "tools/core/workspace.h"
#include "tools/shell/sandbox.h"

using namespace lathe;
using namespace lathe::engine;
namespace fs = std::filesystem;
using lathe::testing::readFile;
using lathe::testing::TempDir;

namespace {

constexpr const char* kSecret = "outside-secret-4711";

// Every regular file below dir with its content (a change anywhere shows).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::string rel = it->path().lexically_relative(dir).string();
    files[rel] = it->is_regular_file() ? readFile(it->path()) : std::string("<dir or link>");
  }
  return files;
}

std::set<std::string> pwnedInHome() {
  std::set<std::string> names;
  const char* home = std::getenv("HOME");
  std::error_code ec;
  for (auto it = fs::directory_iterator(home ? home : "/nonexistent", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.find("pwned") != std::string::npos) names.insert(name);
  }
  return names;
}

// A workspace full of bait: a git repository whose config runs a command,
// scripts and config files that run commands when read.
struct Bait {
  TempDir root;
  TempDir outside{"/var/tmp"};
  Bait() {
    root.write("README", "a line\ntouch pwned-e-flag\n");
    root.write("list", "pwned-list\n");
    root.write("evil.sh", "#!/bin/sh\ntouch pwned-evil-script\ncat \"$@\" 2>/dev/null\n");
    fs::permissions(root.path / "evil.sh", fs::perms::owner_all);
    root.write("evil.rgrc", "--pre=./evil.sh\n");
    root.write("evil.gitconfig", "[core]\n\tfsmonitor = touch pwned-global-config\n");
    root.write(".gitconfig", "[core]\n\tfsmonitor = touch pwned-home-config\n");
    root.write("evil.awk", "BEGIN { system(\"touch pwned-awk-file\") }\n");
    int rc = std::system(("cd '" + root.str() + "' && git init -q && git -c user.email=a@b -c user.name=a add README "
                          "&& git -c user.email=a@b -c user.name=a commit -qm init && git config core.fsmonitor "
                          "'touch pwned-repo-config'")
                             .c_str());
    REQUIRE(rc == 0);
    outside.write("secret.txt", std::string(kSecret) + "\n");
  }
};

std::string lineFor(std::string line, const Bait& bait) {
  const std::string key = "$OUT";
  for (size_t at; (at = line.find(key)) != std::string::npos;) line.replace(at, key.size(), bait.outside.str());
  return line;
}

// The lines. $OUT is a folder outside the workspace holding secret.txt.
const char* const kAttacks[] = {
    // GNU long options abbreviated, and options that write
    "sort --o=pwned-1 README", "sort --outp pwned-2 README", "sort -o pwned-3 README", "sort -opwned-4 README",
    "sort --compress-p=./evil.sh -S 1 README", "env --s='touch pwned-6'", "env -S 'touch pwned-7'",
    "git log --output=pwned-8", "git diff --outp=pwned-9 HEAD", "git --no-pager log --output pwned-10",
    "git grep --open-files-in-pager='touch pwned-11' line", "git grep --open='touch pwned-12' line",
    "find . -fprint pwned-13", "find . -fprintf pwned-14 '%p'", "find . -fls pwned-15",
    "find . -exec touch pwned-16 \\;", "find . -execdir touch pwned-17 \\;", "find . -delete -name nothing",
    // sed: in-place, w and e flags and commands
    "sed -i s/a/b/ README", "sed --in-place=.bak s/a/b/ README", "sed --in s/a/b/ README", "sed -n 'w pwned-22' README",
    "sed 's/a/b/w pwned-23' README", "sed '1e touch pwned-24' README", "sed -n '/line/w pwned-25' README",
    "sed 's/^touch.*/&/e' README", "sed -n 'W pwned-27' README", "sed --expression='1e touch pwned-28' README",
    "sed -s -n '1w pwned-29' README",
    // variable assignments and env
    "BASH_ENV=./evil.sh bash -c ls", "ENV=./evil.sh sh -i -c ls", "GIT_CONFIG_GLOBAL=evil.gitconfig git status",
    "HOME=. git status", "GIT_DIR=.git GIT_WORK_TREE=. git status", "PAGER='touch pwned-35' git -p log",
    "GIT_PAGER='touch pwned-36' git -p log", "LESSOPEN='|touch pwned-37 %s' less README",
    "RIPGREP_CONFIG_PATH=evil.rgrc rg line", "XDG_CONFIG_HOME=. git status", "env HOME=. git status",
    "env -i PATH=/usr/bin:/bin touch pwned-41",
    // programs whose configuration runs commands
    "git status", "git -c core.fsmonitor='touch pwned-43' status", "rg --pre ./evil.sh line", "rg --pre=./evil.sh line",
    "bash --rcfile evil.sh -i -c ls", "bash -l -c ls", "awk -f evil.awk", "awk 'BEGIN{system(\"touch pwned-49\")}'",
    "awk '{print > \"pwned-50\"}' README", "man -P 'touch pwned-51' ls",
    // here-docs, substitutions, redirections, wrappers
    "cat <<EOF\n$(touch pwned-52)\nEOF", "cat <<'EOF'\n$(touch pwned-53)\nEOF", "cat <<E\"O\"F > pwned-54\nx\nEOF",
    "echo $(touch pwned-55)", "ls `touch pwned-56`", "ls <(touch pwned-57)", "ls | tee pwned-58",
    "ls > pwned-59", ": > pwned-60", "ls &> pwned-61", "exec 3>pwned-62", "command touch pwned-63",
    "builtin eval 'touch pwned-64'", "eval 'touch pwned-65'", "nice touch pwned-66", "timeout 5 touch pwned-67",
    "xargs -a list touch", "echo pwned-69 | xargs touch", "python3 -c 'open(\"pwned-70\", \"w\")'",
    "dd if=README of=pwned-71", "split -l 1 README pwned-72-", "git format-patch -1 -o pwned-73",
    "git bundle create pwned-74 HEAD", "tar -cf pwned-75.tar README",
    // reads outside the workspace
    "cat $OUT/secret.txt", "head -c 100 $OUT/secret.txt", "grep -r outside $OUT", "git -C $OUT status; cat $OUT/*",
    "find $OUT -type f -exec cat {} +", "ls $OUT && cat $OUT/secret.txt",
    // sed read as GNU sed reads it: labels end at blanks, classes hold the
    // delimiter, blanks before flags, -e pieces joined
    "sed -n 'b x w pwned-82\n:x' README", "sed -n 's/[[:alpha:]/]/;\\,/w pwned-83,p' README",
    "sed 's/a/b/ w pwned-84' README", "sed -e p -e 'w pwned-85' README",
    // here-docs whose end bash reads differently from the parser
    "cat <<E\"O\"F\nEOF\ntouch pwned-86\nE\"O\"F", "cat <<$'EOF'\nEOF\ntouch pwned-87\n$'EOF'",
};

std::string jsonArgs(const std::string& command) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "command", command);
    w.EndObject();
  });
}

tools::ToolContext contextFor(const Bait& bait) {
  tools::ToolContext context;
  context.workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(bait.root.str()).value());
  return context;
}

tools::ShellSetup shellFor() {
  tools::ShellSetup shell;
  shell.options.inactivitySeconds = 20;
  return shell;
}

std::string runLine(const Bait& bait, const std::string& line, tools::Approval approval) {
  auto tool = tools::makeRunShellCommandTool(contextFor(bait), shellFor());
  auto built = tool->build(json::parse(jsonArgs(line)).value());
  REQUIRE(built.invocation);
  built.invocation->setApproval(approval);
  auto result = built.invocation->execute(CancelToken(), [](const std::string&) {});
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

struct Harm {
  bool wroteInside = false;
  bool wroteOutside = false;
  bool wroteHome = false;
  bool leaked = false;
  bool any() const { return wroteInside || wroteOutside || wroteHome || leaked; }
};

Harm harmOf(const Bait& bait, const std::string& line, tools::Approval approval) {
  auto before = snapshot(bait.root.path);
  auto outsideBefore = snapshot(bait.outside.path);
  auto homeBefore = pwnedInHome();
  std::string output = runLine(bait, line, approval);
  Harm harm;
  harm.wroteInside = snapshot(bait.root.path) != before;
  harm.wroteOutside = snapshot(bait.outside.path) != outsideBefore;
  harm.wroteHome = pwnedInHome() != homeBefore;
  harm.leaked = output.find(kSecret) != std::string::npos;
  return harm;
}

}  // namespace

TEST_CASE("attack table: every line is asked about or runs sealed without a side effect") {
  REQUIRE(tools::shell::probeSealed().ok());
  REQUIRE(std::size(kAttacks) >= 60);
  size_t asked = 0, sealed = 0, harmfulUnsealed = 0;
  std::string caughtBySeal;  // lines the judgement let through that do harm unsealed
  for (const char* raw : kAttacks) {
    Bait bait;
    const std::string line = lineFor(raw, bait);
    INFO("line: " << line);
    auto tool = tools::makeRunShellCommandTool(contextFor(bait), shellFor());
    auto built = tool->build(json::parse(jsonArgs(line)).value());
    REQUIRE(built.invocation);
    auto details = built.invocation->shouldConfirmExecute(CancelToken());
    REQUIRE(details);
    REQUIRE(details->has_value());
    bool runsSealed = false;
    for (ApprovalMode mode : {ApprovalMode::standard, ApprovalMode::autoEdit, ApprovalMode::plan}) {
      Decision decision = decideApproval(mode, {"run_shell_command", tools::Kind::execute, &**details}, {}).verdict;
      INFO("mode: " << toString(mode));
      CHECK(decision != Decision::allow);  // nobody approved it: never unsealed
      if (decision == Decision::allowSealed) runsSealed = true;
    }
    if (!runsSealed) {
      ++asked;
      continue;
    }
    ++sealed;
    Harm harm = harmOf(bait, line, tools::Approval::judged);
    CHECK_FALSE(harm.wroteInside);
    CHECK_FALSE(harm.wroteOutside);
    CHECK_FALSE(harm.wroteHome);
    CHECK_FALSE(harm.leaked);
    // The control: the same line approved (unsealed) in a fresh workspace.
    Bait control;
    if (harmOf(control, lineFor(raw, control), tools::Approval::person).any()) {
      ++harmfulUnsealed;
      caughtBySeal += std::string("\n  ") + raw;
    }
  }
  WARN("attack table: " << asked << " asked, " << sealed << " ran sealed (" << harmfulUnsealed
                        << " of those do harm when run unsealed, stopped by the seal:" << caughtBySeal << ")");
  CHECK(asked + sealed == std::size(kAttacks));
}
