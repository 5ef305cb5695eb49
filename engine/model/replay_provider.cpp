// Loading and replaying a `--fake-responses` file, with Gemini CLI's order
// rules (see FakeContentGenerator in gemini-cli-core): strict mode walks the
// records in file order with one cursor for all methods, and a record of the
// wrong method is an error that still uses it up (except token counts, which
// are optional: an agent counts only where it needs to); non-strict mode takes
// the first unused record of the asked method. Any thread; the cursor is locked.
#include "engine/model/replay_provider.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/base/json.h"

namespace lathe::engine {
namespace {

constexpr const char* kStreamMethod = "generateContentStream";
constexpr const char* kGenerateMethod = "generateContent";
constexpr const char* kCountMethod = "countTokens";

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r\n") == std::string_view::npos; }

const char* flagFor(ReplayProvider::Order order) {
  return order == ReplayProvider::Order::strict ? "--fake-responses" : "--fake-responses-non-strict";
}

Result<ModelChunk> readChunk(const json::Value& value, const std::string& where) {
  if (!value.IsObject()) return makeError(Errc::parse_error, where + ": expected a GenerateContentResponse object");
  auto chunk = gemini::parseResponseChunk(json::stringify(value));
  if (!chunk) return makeError(Errc::parse_error, where + ": " + chunk.error().message);
  return chunk;
}

}  // namespace

ReplayProvider::ReplayProvider(std::string path, Options options, std::vector<Record> records)
    : path_(std::move(path)), options_(options), records_(std::move(records)), consumed_(records_.size(), false) {}

Result<std::unique_ptr<ReplayProvider>> ReplayProvider::open(const std::string& path, Options options) {
  const char* flag = flagFor(options.order);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return makeError(Errc::not_found,
                     std::string("Cannot read the ") + flag + " file " + path + ": " + std::strerror(errno));
  }
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return makeError(Errc::io, std::string("Cannot read the ") + flag + " file " + path);
  const std::string text = content.str();

  std::vector<Record> records;
  size_t lineNo = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (blank(line)) continue;

    const std::string where = path + ":" + std::to_string(lineNo);
    auto doc = json::parse(line);
    if (!doc) return makeError(Errc::parse_error, where + ": not a JSON record (" + doc.error().message + ")");
    if (!doc->IsObject()) return makeError(Errc::parse_error, where + ": expected a {\"method\", \"response\"} object");
    Record record;
    record.line = lineNo;
    auto method = json::getStr(*doc, "method");
    if (!method) return makeError(Errc::parse_error, where + ": the record has no \"method\" string");
    record.method = std::move(*method);
    const json::Value* response = json::find(*doc, "response");
    if (!response) return makeError(Errc::parse_error, where + ": the record has no \"response\"");

    if (record.method == kStreamMethod) {
      if (!response->IsArray()) {
        return makeError(Errc::parse_error, where + ": a generateContentStream response must be an array of chunks");
      }
      for (rapidjson::SizeType i = 0; i < response->Size(); ++i) {
        auto chunk = readChunk((*response)[i], where + ": response[" + std::to_string(i) + "]");
        if (!chunk) return chunk.error();
        record.chunks.push_back(std::move(chunk).value());
      }
    } else if (record.method == kGenerateMethod) {
      auto chunk = readChunk(*response, where + ": response");
      if (!chunk) return chunk.error();
      record.chunks.push_back(std::move(chunk).value());
    } else if (record.method == kCountMethod) {
      const json::Value* total = response->IsObject() ? json::find(*response, "totalTokens") : nullptr;
      if (!total || !total->IsInt64() || total->GetInt64() < 0) {
        return makeError(Errc::parse_error, where + ": a countTokens response needs a totalTokens number");
      }
      record.totalTokens = total->GetInt64();
    }
    // embedContent and unknown methods are kept for ordering only.
    records.push_back(std::move(record));
  }
  return std::unique_ptr<ReplayProvider>(new ReplayProvider(path, options, std::move(records)));
}

Result<const ReplayProvider::Record*> ReplayProvider::take(const std::string& method) {
  std::lock_guard lock(mutex_);
  const char* flag = flagFor(options_.order);
  if (options_.order == Order::strict) {
    // A count the recorder's agent asked for and this one did not is skipped.
    while (cursor_ < records_.size() && records_[cursor_].method == kCountMethod) ++cursor_;
    if (cursor_ >= records_.size()) {
      return makeError(Errc::model, std::string(flag) + " " + path_ + " has no more recorded model replies (" +
                                        std::to_string(used_) + " used)");
    }
    const Record& record = records_[cursor_];
    consumed_[cursor_] = true;
    ++cursor_;
    ++used_;
    if (record.method != method) {
      return makeError(Errc::model, path_ + ":" + std::to_string(record.line) + ": the next recorded reply is for " +
                                        record.method + ", but the call was " + method + " (" + flag +
                                        " replays records in file order)");
    }
    return &record;
  }
  for (size_t i = 0; i < records_.size(); ++i) {
    if (consumed_[i] || records_[i].method != method) continue;
    consumed_[i] = true;
    ++used_;
    return &records_[i];
  }
  return makeError(Errc::model, std::string(flag) + " " + path_ + " has no more recorded " + method +
                                    " replies (" + std::to_string(used_) + " used)");
}

const ReplayProvider::Record* ReplayProvider::takeCount() {
  std::lock_guard lock(mutex_);
  if (options_.order == Order::strict) {
    if (cursor_ >= records_.size() || records_[cursor_].method != kCountMethod) return nullptr;
    consumed_[cursor_] = true;
    ++used_;
    return &records_[cursor_++];
  }
  for (size_t i = 0; i < records_.size(); ++i) {
    if (consumed_[i] || records_[i].method != kCountMethod) continue;
    consumed_[i] = true;
    ++used_;
    return &records_[i];
  }
  return nullptr;
}

std::optional<Result<int64_t>> ReplayProvider::countTokens(const ModelRequest&, const CancelToken&) {
  const Record* record = takeCount();
  if (!record) return std::nullopt;
  return Result<int64_t>(record->totalTokens);
}

Result<ModelReply> ReplayProvider::stream(const ModelRequest&, const ChunkSink& onChunk, const CancelToken& cancel) {
  if (cancel.cancelled()) return makeError(Errc::cancelled, "The model request was cancelled.");
  auto record = take(kStreamMethod);
  if (!record) return record.error();
  ReplyAccumulator reply;
  for (const ModelChunk& chunk : (*record)->chunks) {
    if (cancel.cancelled()) return makeError(Errc::cancelled, "The model request was cancelled.");
    reply.add(chunk);
    if (onChunk) onChunk(chunk);
  }
  return reply.take();
}

Result<ModelReply> ReplayProvider::generate(const ModelRequest&, const CancelToken& cancel) {
  if (cancel.cancelled()) return makeError(Errc::cancelled, "The model request was cancelled.");
  auto record = take(kGenerateMethod);
  if (!record) return record.error();
  ReplyAccumulator reply;
  for (const ModelChunk& chunk : (*record)->chunks) reply.add(chunk);
  return reply.take();
}

size_t ReplayProvider::used() const {
  std::lock_guard lock(mutex_);
  return used_;
}

size_t ReplayProvider::remaining() const {
  std::lock_guard lock(mutex_);
  return records_.size() - used_;
}

}  // namespace lathe::engine
