// Tools found by running the configured discovery command (settings
// tools.discoveryCommand) in the workspace; a call runs `callCommand <name>`
// with the JSON arguments on stdin, stdout is the result and a non-zero exit
// is an error the model reads (with stderr). Kind other: every call asks,
// unless the person allowed the tool. Discovery runs on the calling thread
// (the session's first turn); tools are immutable and shared like any other.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "tools/core/tool.h"
#include "tools/discovery/declarations.h"

namespace lathe::tools::discovery {

struct DiscoveryOptions {
  std::string discoveryCommand;  // a bash command line
  std::string callCommand;       // a bash command line; the tool's name follows as one more argument
  std::string cwd;               // the workspace root
  std::chrono::milliseconds discoveryTimeout{30'000};
  std::chrono::milliseconds callTimeout{600'000};
};

// The name the model calls a discovered tool by: `discovered_tool_` and its
// own name, cleaned to what model APIs accept, at most 63 characters.
std::string discoveredToolName(const std::string& name);

std::unique_ptr<Tool> makeDiscoveredTool(const Declaration& declaration, const DiscoveryOptions& options);

// Runs the discovery command and builds its tools. The error is a sentence
// for the person: the command failed (with its stderr), timed out, or
// printed something that is not a list of declarations.
Result<std::vector<std::unique_ptr<Tool>>> discoverTools(const DiscoveryOptions& options, const CancelToken& cancel);

}  // namespace lathe::tools::discovery
