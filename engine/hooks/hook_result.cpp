// Judging a hook's run.
#include "engine/hooks/hook_result.h"

#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

constexpr size_t kShownChars = 300;  // of a failing hook's output, for the person

std::string trimmed(std::string_view text) { return std::string(text::trim(text)); }

std::string shortened(std::string_view text) {
  std::string t = trimmed(text);
  return t.size() <= kShownChars ? t : t.substr(0, kShownChars) + "…";
}

// stdout as Gemini CLI reads it: a JSON object, or a JSON string holding one.
std::shared_ptr<const json::Document> objectOf(const std::string& text) {
  auto doc = json::parseShared(text);
  if (!doc) return nullptr;
  if ((*doc)->IsString()) doc = json::parseShared(std::string((*doc)->GetString(), (*doc)->GetStringLength()));
  if (!doc || !(*doc)->IsObject()) return nullptr;
  return *doc;
}

}  // namespace

std::string HookResult::text(const char* field) const {
  if (!output) return {};
  return json::getStr(*output, field).value_or("");
}

bool HookResult::flag(const char* field, bool otherwise) const {
  if (!output) return otherwise;
  return json::getBool(*output, field).value_or(otherwise);
}

const json::Value* HookResult::specific() const {
  if (!output) return nullptr;
  const json::Value* value = json::find(*output, "hookSpecificOutput");
  return value && value->IsObject() ? value : nullptr;
}

std::string HookResult::specificText(const char* field) const {
  const json::Value* s = specific();
  return s ? json::getStr(*s, field).value_or("") : "";
}

HookResult judgeHookRun(const FinishedRun& run, std::chrono::milliseconds timeout) {
  HookResult result;
  auto fail = [&](std::string why) {
    result.kind = HookResult::Kind::failed;
    result.why = std::move(why);
    return result;
  };
  if (!run.startError.empty()) return fail("could not start: " + run.startError);
  if (run.cancelled) {
    result.kind = HookResult::Kind::cancelled;
    result.why = "cancelled";
    return result;
  }
  if (run.timedOut) return fail("timed out after " + std::to_string(timeout.count()) + " ms and was stopped");
  if (run.outputTooLarge) return fail("printed more output than a hook may (1 MB)");
  if (!run.exitCode) return fail("was killed by signal " + std::to_string(run.signal));
  const std::string out = trimmed(run.out);
  if (*run.exitCode == 2) {
    // A block whatever it printed; its words, if any, say why.
    result.kind = HookResult::Kind::blocked;
    result.output = out.empty() ? nullptr : objectOf(out);
    std::string reason = result.text("reason");
    if (reason.empty()) reason = shortened(run.err);
    if (reason.empty()) reason = result.text("stopReason");
    result.why = reason.empty() ? "it exited with status 2" : reason;
    return result;
  }
  if (*run.exitCode != 0) {
    std::string said = shortened(run.err.empty() ? run.out : run.err);
    return fail("exited with status " + std::to_string(*run.exitCode) + (said.empty() ? "" : ": " + said));
  }
  if (out.empty()) return result;
  result.output = objectOf(out);
  if (!result.output) return fail("printed what is not a JSON object: " + shortened(out));
  return result;
}

}  // namespace lathe::engine
