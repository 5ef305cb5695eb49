// save_memory: adds one fact to the person's global memory file
// (~/.gemini/GEMINI.md), which every later session loads as context. The
// file lies outside the workspace on purpose: this tool writes only that one
// path, fixed when the session starts, never one the model names. Asks first
// (kind other), showing the exact line. Runs on a worker thread.
#include "tools/memory/memory_file.h"
#include "tools/memory/memory_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "fact": {"type": "string", "description": "The fact to remember: one self-contained sentence on a single line."}
  },
  "required": ["fact"]
})";

class SaveMemoryInvocation final : public ToolInvocation {
 public:
  SaveMemoryInvocation(std::string file, std::string fact, std::string entry)
      : file_(std::move(file)), fact_(std::move(fact)), entry_(std::move(entry)) {}

  std::string description() const override { return "remember: " + entry_.substr(2); }
  std::vector<Location> locations() const override { return {Location{file_, std::nullopt}}; }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken&) override {
    InfoConfirmation info;
    info.prompt = "Add this line to your global memory file " + file_ + " (under \"" +
                  std::string(kMemorySectionHeader) + "\"), loaded by every later session:\n\n" + entry_;
    return std::optional<ConfirmationDetails>{std::move(info)};
  }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    auto added = addMemoryFact(file_, fact_, cancel);
    if (!added) {
      auto type = added.error().code == Errc::cancelled ? ErrorType::cancelled : ErrorType::execution_failed;
      return ToolResult::failure(type, added.error().message);
    }
    return ToolResult::text("Saved to the global memory file " + file_ + ": " + *added,
                            "Added to " + file_ + ":\n\n" + *added);
  }

 private:
  std::string file_;
  std::string fact_;
  std::string entry_;
};

class SaveMemoryTool final : public Tool {
 public:
  explicit SaveMemoryTool(std::string file)
      : Tool(ToolInfo{
            .name = "save_memory",
            .displayName = "SaveMemory",
            .description = "Saves one fact to the user's global memory file (" + file +
                           "), which is loaded as context in every later session, in every project. Use it only "
                           "when the user asks you to remember something, or states a lasting preference about "
                           "how you should work with them. Not for project notes, not for what matters only to "
                           "this conversation. The fact must be one short line.",
            .kind = Kind::other,
            .parametersSchema = kSchema}),
        file_(std::move(file)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string fact = r.str("fact");
    if (!r.ok()) return invalidParams(r.error().message);
    auto entry = memoryEntryFor(fact);
    if (!entry) return invalidParams("params/fact: " + entry.error().message);
    return {std::make_unique<SaveMemoryInvocation>(file_, std::move(fact), std::move(entry).value()), std::nullopt};
  }

 private:
  std::string file_;
};

}  // namespace

std::unique_ptr<Tool> makeSaveMemoryTool(const std::string& globalMemoryFile) {
  return std::make_unique<SaveMemoryTool>(globalMemoryFile);
}

void registerMemoryTools(ToolRegistry& registry, const ToolContext& context) {
  if (!context.globalMemoryFile.empty()) (void)registry.add(makeSaveMemoryTool(context.globalMemoryFile));
}

}  // namespace lathe::tools
