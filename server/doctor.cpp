// `lathe doctor`: the local checks and the report.
#include "server/doctor.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tools/shell/sandbox.h"

namespace lathe::server {
namespace {

namespace fs = std::filesystem;

CheckResult ok(std::string name, std::string detail) { return {std::move(name), CheckOutcome::ok, std::move(detail), {}}; }

CheckResult failed(std::string name, std::string detail, std::string fix, CheckOutcome outcome = CheckOutcome::fail) {
  return {std::move(name), outcome, std::move(detail), std::move(fix)};
}

std::vector<CheckResult> checkSettingsFiles(const DoctorSetup& setup) {
  std::vector<CheckResult> checks;
  std::error_code ec;
  for (const auto& file : setup.settingsFiles) {
    if (file.path.empty() || !fs::exists(file.path, ec)) continue;
    engine::Settings scratch;
    if (auto status = engine::mergeSettingsFile(file.path, scratch, file.scope); !status) {
      checks.push_back(failed("settings", status.error().message, "correct " + file.path + " (JSON; // comments allowed)"));
    } else {
      checks.push_back(ok("settings", file.path + " parses"));
    }
  }
  if (checks.empty()) checks.push_back(ok("settings", "no settings files; the defaults apply"));
  return checks;
}

CheckResult checkBubblewrap() {
  if (!tools::shell::findInPath("bwrap")) {
    return failed("bubblewrap", "bwrap is not on PATH: read-only command lines cannot run sealed, so each is asked",
                  "install bubblewrap (sudo apt install bubblewrap)");
  }
  const char* fix = "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu "
                    "24.04 an AppArmor profile for bwrap), or run outside a container that forbids them";
  if (auto sealed = tools::shell::probeSealedNow(); !sealed) {
    return failed("bubblewrap", "bwrap cannot make the read-only sandbox, so read-only command lines are asked: " +
                                    sealed.error().message, fix);
  }
  if (auto sandbox = tools::shell::probeSandboxNow(); !sandbox) {
    return failed("bubblewrap", "bwrap cannot make the --sandbox sandbox: " + sandbox.error().message, fix);
  }
  return ok("bubblewrap", "sandboxes work (sealed runs and --sandbox)");
}

CheckResult checkRipgrep() {
  auto rg = tools::shell::findInPath("rg");
  if (!rg) {
    return failed("ripgrep", "rg is not on PATH: the model's shell searches fall back to grep",
                  "install ripgrep (sudo apt install ripgrep)", CheckOutcome::warn);
  }
  return ok("ripgrep", *rg);
}

CheckResult checkStateDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string probe = dir + "/.doctor-" + std::to_string(::getpid());
  bool written = !ec && static_cast<bool>(std::ofstream(probe) << "ok\n");
  fs::remove(probe, ec);
  if (!written) {
    return failed("state directory", dir + " is not writable: consent and sessions cannot be kept",
                  "make it writable, or set XDG_STATE_HOME to a writable directory");
  }
  return ok("state directory", dir + " is writable");
}

void print(const CheckResult& check, bool& anyFailed) {
  std::printf("%s\n", formatCheck(check).c_str());  // stdout-ok: doctor's report
  std::fflush(stdout);
  anyFailed = anyFailed || check.outcome == CheckOutcome::fail;
}

}  // namespace

std::string formatCheck(const CheckResult& check) {
  const char* tag = check.outcome == CheckOutcome::ok ? "ok  " : check.outcome == CheckOutcome::warn ? "warn" : "FAIL";
  std::string line = std::string(tag) + " " + check.name + ": " + check.detail;
  if (check.outcome != CheckOutcome::ok && !check.fix.empty()) line += "; fix: " + check.fix;
  return line;
}

int runDoctor(const DoctorSetup& setup) {
  bool anyFailed = false;
  for (const auto& check : checkSettingsFiles(setup)) print(check, anyFailed);
  if (setup.model) {
    for (const auto& check : checkModel(*setup.model)) print(check, anyFailed);
  } else if (!setup.modelError.empty()) {
    print(failed("model", setup.modelError, "see `lathe --help` for the model flags and variables"), anyFailed);
  } else {
    print(failed("model", "not checked: the settings above do not parse", "correct the settings file"), anyFailed);
  }
  print(checkBubblewrap(), anyFailed);
  print(checkRipgrep(), anyFailed);
  if (setup.settings) {
    for (const auto& check : checkMcpServers(*setup.settings, setup.cwd)) print(check, anyFailed);
  }
  print(checkStateDir(setup.stateDir), anyFailed);
  return anyFailed ? 1 : 0;
}

}  // namespace lathe::server
