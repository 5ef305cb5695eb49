// The ACP shapes of a tool call, for the scheduler: its kind, the content
// items of its updates, what a permission request shows, and the response
// JSON the model reads. Pure; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/acp/tool_call.h"
#include "protocol/base/json.h"
#include "tools/core/tool.h"

namespace lathe::engine {

acp::ToolKind toAcpKind(tools::Kind kind);
// {"<field>": text}: a function response's body.
json::Raw responseJson(const char* field, const std::string& text);
acp::ToolCallContent textContent(std::string text);
// A diff item; a large file's texts are cut to the changed region.
acp::ToolCallContent diffContent(tools::FileDiff diff);
// The 1-based line where a diff's first change is, so the editor can jump there.
int64_t firstChangedLine(const tools::FileDiff& diff);
// What the person sees in a permission request for each confirmation type.
// An edit's texts move into the request (cut to the changed region when the
// file is large; needed nowhere else once shown); its path stays for the
// approval that follows.
std::vector<acp::ToolCallContent> confirmationContent(tools::ConfirmationDetails& details);
// The top-level keys whose values differ between two argument objects.
std::vector<std::string> changedKeys(const json::Raw& before, const json::Value& after);

}  // namespace lathe::engine
