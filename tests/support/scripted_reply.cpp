// Scripted reply constructors and the fake-responses JSON-lines reader. Pure
// (the reader touches only the given file); any thread.
#include "tests/support/scripted_reply.h"

#include <fstream>

#include "protocol/base/json.h"
#include "tests/support/gemini_chunks.h"

namespace lathe::testing {

ScriptedReply ScriptedReply::stream(std::vector<Chunk> chunks) {
  ScriptedReply r;
  r.kind = Kind::stream;
  r.chunks = std::move(chunks);
  return r;
}

ScriptedReply ScriptedReply::error(int status, std::string body, std::optional<std::string> retryAfter) {
  ScriptedReply r;
  r.kind = Kind::error;
  r.status = status;
  r.body = std::move(body);
  r.retryAfter = std::move(retryAfter);
  return r;
}

ScriptedReply ScriptedReply::hang(std::vector<Chunk> firstChunks) {
  ScriptedReply r;
  r.kind = Kind::hang;
  r.chunks = std::move(firstChunks);
  return r;
}

ScriptedReply ScriptedReply::text(std::string_view text) { return stream({textChunk(text), finishChunk()}); }

ScriptedReply ScriptedReply::functionCall(std::string_view name, std::string_view argsJson, std::string_view id) {
  return stream({functionCallChunk(name, argsJson, id), finishChunk()});
}

Result<std::vector<ScriptedReply>> loadReplayFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return makeError(Errc::io, "cannot open " + path);
  std::vector<ScriptedReply> replies;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = path + ":" + std::to_string(lineNo);
    auto doc = json::parse(line);
    if (!doc) return makeError(Errc::parse_error, where + ": " + doc.error().message);
    if (!doc->IsObject()) return makeError(Errc::parse_error, where + ": expected an object");
    ScriptedReply reply;
    reply.method = json::getStr(*doc, "method").value_or("");
    if (reply.method.empty()) return makeError(Errc::parse_error, where + ": no \"method\"");
    const json::Value* response = json::find(*doc, "response");
    if (!response) return makeError(Errc::parse_error, where + ": no \"response\"");
    if (response->IsArray()) {
      for (const auto& chunk : response->GetArray()) reply.chunks.emplace_back(json::stringify(chunk));
    } else {
      reply.chunks.emplace_back(json::stringify(*response));
    }
    replies.push_back(std::move(reply));
  }
  return replies;
}

}  // namespace lathe::testing
