// `wait_for_previous`, the parameter Gemini CLI adds to every tool whose
// schema is an object (models trained on it send it): "wait for all
// previously requested tools in this turn to complete before starting".
// Every declaration gets it, every tool accepts it (it is taken out of the
// arguments before validation, so a schema that forbids other properties,
// an MCP server's, still passes, and the server never sees it), and the
// scheduler starts a call that sets it only after the calls before it have
// finished. Pure; any thread.
#pragma once

#include <string>

#include "protocol/base/json.h"

namespace lathe::tools {

inline constexpr const char* kWaitForPrevious = "wait_for_previous";

// The schema (JSON text) with the wait_for_previous property added when it
// is an object schema without one; otherwise unchanged.
std::string withWaitForPrevious(const std::string& schema);

// Whether the arguments ask to wait (wait_for_previous: true).
bool waitsForPrevious(const json::Value& args);
bool waitsForPrevious(const std::string& argsJson);

}  // namespace lathe::tools
