// A workspace (and a directory outside it) for running tools through the Tool
// API in unit tests: build from JSON arguments, then execute.
#pragma once

#include <memory>
#include <string>

#include "protocol/base/json.h"
#include "tests/support/temp_dir.h"
#include "tools/core/tool.h"
#include "tools/core/tool_context.h"
#include "tools/core/workspace.h"

namespace lathe::testing {

struct ToolFixture {
  TempDir root;
  TempDir outside;
  tools::ToolContext context;

  ToolFixture() {
    context.workspace = std::make_shared<const tools::Workspace>(tools::Workspace::create(root.path.string()).value());
  }

  // Builds and runs one call; a build error comes back as a failed result.
  tools::ToolResult run(const tools::Tool& tool, const std::string& args) {
    auto doc = json::parse(args).value();
    auto built = tool.build(doc);
    if (!built.invocation) return tools::ToolResult::failure(built.error->type, built.error->message);
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }
};

// The text the model would read.
inline std::string llmText(const tools::ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

}  // namespace lathe::testing
