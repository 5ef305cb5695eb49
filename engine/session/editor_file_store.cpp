// Editor-backed file access.
#include "engine/session/editor_file_store.h"

#include <sys/stat.h>

#include <filesystem>

namespace lathe::engine {
namespace {

class EditorFileStore final : public tools::FileStore {
 public:
  EditorFileStore(EditorClient& editor, std::string sessionId)
      : editor_(editor), sessionId_(std::move(sessionId)), disk_(tools::makeDiskFileStore()) {}

  Result<std::string> readText(const std::string& path, const CancelToken& cancel) override {
    if (!editor_.capabilities().readTextFile) return disk_->readText(path, cancel);
    // Clients word "no such file" differently (or fail on it): a file that is
    // not on disk is new, whatever the client would say.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return makeError(Errc::not_found, "File not found: " + path);
    return editor_.readTextFile(sessionId_, path, cancel);
  }

  // Without the editor's writes, the disk's: without following links.
  Status writeTextExact(const std::string& path, const std::string& content, const CancelToken& cancel) override {
    if (!editor_.capabilities().writeTextFile) return disk_->writeTextExact(path, content, cancel);
    return writeText(path, content, cancel);
  }
  Status writeText(const std::string& path, const std::string& content, const CancelToken& cancel) override {
    if (!editor_.capabilities().writeTextFile) return disk_->writeText(path, content, cancel);
    // Editors create the file but not always its folders: make those first
    // (the path is already confined to the workspace).
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) return makeError(Errc::io, "cannot create the folder for " + path + ": " + ec.message());
    return editor_.writeTextFile(sessionId_, path, content, cancel);
  }

 private:
  EditorClient& editor_;
  std::string sessionId_;
  std::shared_ptr<tools::FileStore> disk_;
};

}  // namespace

std::shared_ptr<tools::FileStore> makeEditorFileStore(EditorClient& editor, std::string sessionId) {
  return std::make_shared<EditorFileStore>(editor, std::move(sessionId));
}

}  // namespace lathe::engine
