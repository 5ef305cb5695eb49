// Recording streamed replies as `--record-responses` JSON lines. Like Gemini
// CLI's RecordingContentGenerator, a stream is appended only once it has been
// consumed to the end: a failed or cancelled call writes nothing. Unlike it,
// each chunk is kept whole (Gemini CLI keeps only candidates and
// usageMetadata), so promptFeedback survives a replay. Runs on the calling
// thread; writes are serialised by a mutex.
#include "engine/model/recording_provider.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

// The chunk as one compact GenerateContentResponse: the provider's own JSON
// when it is an object, else one rebuilt from the parsed chunk.
std::string compactChunk(const ModelChunk& chunk) {
  if (!chunk.rawJson.empty()) {
    auto doc = json::parse(chunk.rawJson);
    if (doc && doc->IsObject()) return json::stringify(*doc);
  }
  return gemini::buildResponseChunk(chunk);
}

}  // namespace

RecordingProvider::RecordingProvider(std::shared_ptr<ModelProvider> inner, std::string path, std::FILE* file)
    : inner_(std::move(inner)), path_(std::move(path)), file_(file) {}

RecordingProvider::~RecordingProvider() { std::fclose(file_); }

Result<std::unique_ptr<RecordingProvider>> RecordingProvider::open(std::shared_ptr<ModelProvider> inner,
                                                                   const std::string& path) {
  if (!inner) return makeError(Errc::internal, "RecordingProvider needs a provider to wrap");
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (!file) {
    return makeError(Errc::io, "Cannot open the --record-responses file " + path + ": " + std::strerror(errno));
  }
  return std::unique_ptr<RecordingProvider>(new RecordingProvider(std::move(inner), path, file));
}

Result<ModelReply> RecordingProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                             const CancelToken& cancel) {
  std::vector<std::string> seen;  // compact chunks
  auto reply = inner_->stream(
      request,
      [&](const ModelChunk& chunk) {
        seen.push_back(compactChunk(chunk));
        if (onChunk) onChunk(chunk);
      },
      cancel);
  if (!reply) return reply;

  std::string line = json::buildObject([&](json::Writer& w) {
    json::put(w, "method", "generateContentStream");
    json::array(w, "response", [&] {
      for (const std::string& compact : seen) w.RawValue(compact.data(), compact.size(), rapidjson::kObjectType);
    });
  });
  if (auto status = append(line); !status) return status.error();
  return reply;
}

Result<ModelReply> RecordingProvider::generate(const ModelRequest& request, const CancelToken& cancel) {
  auto reply = inner_->generate(request, cancel);
  if (!reply) return reply;
  ModelChunk whole;
  whole.parts = reply->content.parts;
  whole.finishReason = reply->finishReason;
  whole.usage = reply->usage;
  std::string compact = compactChunk(whole);
  std::string line = json::buildObject([&](json::Writer& w) {
    json::put(w, "method", "generateContent");
    json::key(w, "response");
    w.RawValue(compact.data(), compact.size(), rapidjson::kObjectType);
  });
  if (auto status = append(line); !status) return status.error();
  return reply;
}

std::optional<Result<int64_t>> RecordingProvider::countTokens(const ModelRequest& request, const CancelToken& cancel) {
  auto count = inner_->countTokens(request, cancel);
  if (!count || !*count) return count;
  std::string line = json::buildObject([&](json::Writer& w) {
    json::put(w, "method", "countTokens");
    json::object(w, "response", [&] { json::put(w, "totalTokens", **count); });
  });
  if (auto status = append(line); !status) return Result<int64_t>(status.error());
  return count;
}

Status RecordingProvider::append(std::string line) {
  line += '\n';
  std::lock_guard lock(mutex_);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    return makeError(Errc::io, "Cannot append to the --record-responses file " + path_ + ": " + std::strerror(errno));
  }
  return {};
}

}  // namespace lathe::engine
