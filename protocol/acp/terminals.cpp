// ACP terminal/* encoders and decoders.
#include "protocol/acp/terminals.h"

namespace lathe::acp {
namespace {

// exitCode and signal may be null or absent (the schema's defaults on error).
TerminalExitStatus exitStatusOf(const json::Value& value) {
  TerminalExitStatus status;
  if (auto code = json::getInt(value, "exitCode")) status.exitCode = *code;
  if (auto signal = json::getStr(value, "signal")) status.signal = *signal;
  return status;
}

}  // namespace

json::Raw CreateTerminalRequest::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sessionId);
    json::put(w, "command", command);
    json::array(w, "args", [&] {
      for (const auto& arg : args) json::str(w, arg);
    });
    json::array(w, "env", [&] {
      for (const auto& [name, value] : env) {
        json::object(w, [&] {
          json::put(w, "name", name);
          json::put(w, "value", value);
        });
      }
    });
    json::put(w, "cwd", cwd);
    if (outputByteLimit) json::put(w, "outputByteLimit", *outputByteLimit);
  })};
}

Result<std::string> createTerminalResult(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  std::string id = r.str("terminalId");
  if (r.ok() && id.empty()) r.fail("result.terminalId", "must not be empty");
  return finish(r, std::move(id));
}

json::Raw TerminalRef::toJson() const {
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "sessionId", sessionId);
    json::put(w, "terminalId", terminalId);
  })};
}

Result<TerminalExitStatus> terminalExitResult(const json::Value& result) {
  if (!result.IsObject()) return makeError(Errc::invalid_params, "result: expected an object");
  return exitStatusOf(result);
}

Result<TerminalOutput> terminalOutputResult(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  TerminalOutput out;
  out.output = r.str("output");
  out.truncated = r.optBool("truncated").value_or(false);
  const json::Value* exit = result.IsObject() ? json::find(result, "exitStatus") : nullptr;
  if (exit && exit->IsObject()) out.exitStatus = exitStatusOf(*exit);
  return finish(r, std::move(out));
}

}  // namespace lathe::acp
