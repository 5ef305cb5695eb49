#include "engine/rewind/rewind_log.h"

#include <filesystem>

#include "engine/persistence/content_codec.h"
#include "protocol/base/json.h"
#include "protocol/base/private_file.h"
#include "tools/core/file_store.h"

namespace lathe::engine {
namespace {

constexpr const char* kLogFile = "/rewind.json";
constexpr const char* kRedoFile = "/redo.json";

void writeFiles(json::Writer& w, const std::vector<tools::FileChange>& files) {
  json::array(w, "files", [&] {
    for (const auto& file : files) {
      json::object(w, [&] {
        json::put(w, "path", file.path);
        json::put(w, "before", file.before);
        json::put(w, "after", file.after);
      });
    }
  });
}

void writePrompts(json::Writer& w, const std::vector<PromptRecord>& prompts) {
  json::array(w, "prompts", [&] {
    for (const auto& prompt : prompts) {
      json::object(w, [&] {
        json::put(w, "text", prompt.text);
        json::put(w, "historyAt", static_cast<int64_t>(prompt.historyAt));
        json::put(w, "historyParts", static_cast<int64_t>(prompt.historyParts));
        json::put(w, "compressed", prompt.compressed);
        writeFiles(w, prompt.files);
      });
    }
  });
}

std::vector<tools::FileChange> readFiles(json::Reader& r) {
  std::vector<tools::FileChange> files;
  for (auto& file : r.array("files")) files.push_back({file.str("path"), file.str("before"), file.str("after")});
  return files;
}

std::vector<PromptRecord> readPrompts(json::Reader& r) {
  std::vector<PromptRecord> prompts;
  for (auto& item : r.array("prompts")) {
    PromptRecord prompt;
    prompt.text = item.str("text");
    prompt.historyAt = static_cast<size_t>(item.int64("historyAt"));
    prompt.historyParts = static_cast<size_t>(item.int64("historyParts"));
    prompt.compressed = item.boolean("compressed");
    prompt.files = readFiles(item);
    prompts.push_back(std::move(prompt));
  }
  return prompts;
}

Result<std::optional<std::string>> readIfThere(const std::string& path) {
  auto text = tools::makeDiskFileStore()->readText(path, CancelToken{});
  if (!text && text.error().code == Errc::not_found) return std::optional<std::string>{};
  if (!text) return text.error();
  return std::optional<std::string>{std::move(text).value()};
}

Result<std::vector<Content>> readRedoHistory(const std::string& path) {
  auto text = readIfThere(path);
  if (!text) return text.error();
  if (!*text) return makeError(Errc::not_found, path + " is missing");
  auto doc = json::parse(**text);
  if (!doc) return makeError(Errc::invalid_params, path + ": " + doc.error().message);
  json::Reader r = json::Reader::root(*doc, path);
  std::vector<Content> contents;
  for (auto& item : r.array("history")) contents.push_back(persist::readContent(item));
  if (!r.ok()) return r.error();
  return contents;
}

}  // namespace

Result<RewindLog> RewindLog::load(const std::string& folder) {
  const std::string path = folder + kLogFile;
  auto text = readIfThere(path);
  if (!text) return text.error();
  RewindLog log;
  if (!*text) return log;
  auto doc = json::parse(**text);
  if (!doc) return makeError(Errc::invalid_params, path + ": " + doc.error().message);
  json::Reader r = json::Reader::root(*doc, path);
  log.prompts = readPrompts(r);
  if (auto undone = r.optObject("undone")) {
    UndoneRecord record;
    record.prompts = readPrompts(*undone);
    record.files = readFiles(*undone);
    auto history = readRedoHistory(folder + kRedoFile);
    if (!history) return history.error();
    record.history = std::move(history).value();
    log.undone = std::move(record);
  }
  if (!r.ok()) return r.error();
  return log;
}

Status RewindLog::save(const std::string& folder) const {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  // Written every turn: not synced (rename keeps it whole; a power cut may cost the last turn's).
  // The conversation /redo needs is written first: the log that names it must never come without it.
  if (undone) {
    std::string redo = json::buildObject([&](json::Writer& w) {
      json::key(w, "history");
      persist::writeContents(w, undone->history, 0, 0);
    });
    if (auto written = writePrivateFile(folder + kRedoFile, redo, false); !written) return written;
  }
  std::string text = json::buildObject([&](json::Writer& w) {
    json::put(w, "version", 1);
    writePrompts(w, prompts);
    if (undone) {
      json::object(w, "undone", [&] {
        writePrompts(w, undone->prompts);
        writeFiles(w, undone->files);
      });
    }
  });
  if (auto written = writePrivateFile(folder + kLogFile, text, false); !written) return written;
  if (!undone) std::filesystem::remove(folder + kRedoFile, ec);
  return {};
}

}  // namespace lathe::engine
