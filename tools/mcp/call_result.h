// Turns an MCP `tools/call` result into what the model and the person see:
// text (marked as coming from the server, so the model reads it as data),
// images and audio as inline data (the model wire decides what its provider
// can take), other blobs, embedded resources and resource links described in
// text, structuredContent as JSON text when there is nothing
// else, and `isError` as a tool error the model reads. Pure; any thread.
#pragma once

#include <string>

#include "protocol/base/json.h"
#include "tools/core/tool.h"

namespace lathe::tools::mcp {

// `result` is the JSON-RPC result object of tools/call.
ToolResult mapCallResult(const json::Value& result, const std::string& server, const std::string& tool);

// A resources/read result ({contents:[{uri, mimeType?, text | blob}]}).
ToolResult mapReadResult(const json::Value& result, const std::string& server, const std::string& uri);

// The line put before text an MCP server wrote, in what the model reads.
std::string untrustedServerNote(const std::string& server);

}  // namespace lathe::tools::mcp
