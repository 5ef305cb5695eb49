// Command-line and environment parsing into one Options value. Pure apart
// from reading the environment passed in.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/provider_setup.h"
#include "protocol/base/result.h"
#include "protocol/base/log.h"

namespace lathe::server {

enum class Mode { acp, run, doctor, extensions, help, version };

struct Options {
  Mode mode = Mode::acp;
  std::string prompt;  // run
  std::vector<std::string> extensionArgs;  // extensions: what follows the word
  std::string cwd;     // run, doctor; empty: the current directory
  std::optional<std::string> model;  // -m; else the API's variable, settings, default
  std::optional<std::string> modelApi;      // --provider; else settings model.provider; else gemini
  std::optional<std::string> geminiModel;   // $GEMINI_MODEL
  std::optional<std::string> openaiModel;   // $OPENAI_MODEL
  int maxTurnRequests = 100;
  LogLevel logLevel = LogLevel::warn;
  std::optional<std::string> approvalMode;  // validated by the engine
  std::string settingsPath;                 // extra settings file, read last
  bool sandbox = false;                     // --sandbox
  bool sandboxNetwork = false;              // --sandbox-network
  bool trustWorkspace = false;              // --trust-workspace
  engine::ProviderOptions provider;
};

using GetEnv = std::function<std::optional<std::string>(const char*)>;

inline constexpr const char* kDefaultModel = "gemini-2.5-pro";

Result<Options> parseCommandLine(const std::vector<std::string>& args, const GetEnv& getenv);

std::string usageText();

}  // namespace lathe::server
