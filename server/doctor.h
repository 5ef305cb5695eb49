// `lathe doctor`: checks what a person's setup needs and prints one line per
// check, with a fix for each that fails: the settings files, the model
// credentials in effect and whether the endpoint answers (within a bound),
// bubblewrap for sealed runs, ripgrep, the MCP servers the user's settings
// start, the state directory. doctor.cpp runs and prints them; the checks
// that reach out (model endpoint, MCP servers) are in doctor_remote.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/config/settings.h"
#include "engine/model/provider_setup.h"

namespace lathe::server {

// The model a session would use, and how it is reached.
struct ModelInEffect {
  engine::ProviderOptions provider;
  std::string model;
  bool pinned = false;  // named by a flag or the API's variable, not by settings
};

enum class CheckOutcome { ok, warn, fail };

struct CheckResult {
  std::string name;
  CheckOutcome outcome = CheckOutcome::ok;
  std::string detail;
  std::string fix;  // what to do, when it did not pass
};

// One line: "ok   name: detail", "FAIL name: detail; fix: ...".
std::string formatCheck(const CheckResult& check);

struct SettingsFileToCheck {
  std::string path;  // empty or missing: skipped
  engine::SettingsScope scope;
};

struct DoctorSetup {
  std::vector<SettingsFileToCheck> settingsFiles;
  std::optional<engine::Settings> settings;  // merged user + --settings; none when a file is broken
  std::optional<ModelInEffect> model;        // none when settings are broken or modelError says why
  std::string modelError;
  std::string stateDir;
  std::string cwd;
};

// Runs every check, printing each line as it finishes; 1 when any failed.
int runDoctor(const DoctorSetup& setup);

// The credentials in effect (never the key itself), then whether the endpoint
// answers a minimal request within the provider's timeouts.
std::vector<CheckResult> checkModel(const ModelInEffect& model);

// Starts each MCP server the user's settings name and lists its tools.
std::vector<CheckResult> checkMcpServers(const engine::Settings& settings, const std::string& cwd);

}  // namespace lathe::server
