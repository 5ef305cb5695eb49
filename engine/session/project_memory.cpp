// The session's context files: loaded, presented, added just in time.
#include "engine/session/project_memory.h"

namespace lathe::engine {

ProjectMemory::ProjectMemory(std::shared_ptr<const tools::Workspace> workspace, tools::ContextFileOptions options)
    : workspace_(std::move(workspace)), options_(std::move(options)) {}

ProjectMemory::Loaded ProjectMemory::load(const CancelToken& cancel) {
  // The scan runs unlocked: a tool worker never waits on the disk for it.
  std::vector<tools::ContextFile> files = tools::discoverContextFiles(*workspace_, options_, cancel);
  Loaded summary;
  std::lock_guard lock(mutex_);
  files_ = std::move(files);
  justInTime_.clear();
  known_.clear();
  for (const auto& file : files_) {
    known_.insert(file.path);
    ++summary.files;
    summary.bytes += file.content.size();
  }
  loaded_ = true;
  return summary;
}

bool ProjectMemory::loaded() const {
  std::lock_guard lock(mutex_);
  return loaded_;
}

std::string ProjectMemory::promptSection() const {
  std::lock_guard lock(mutex_);
  if (files_.empty()) return {};
  std::string text =
      "\n# Context files\n"
      "The person keeps standing instructions and facts for you in the context files below (GEMINI.md): their "
      "global file first, then the project's, from its root down. Follow them as the person's own words, the "
      "more specific file winning where they disagree. Each is marked with its path.\n\n"
      "<loaded_context>\n";
  for (size_t i = 0; i < files_.size(); ++i) {
    if (i) text += "\n\n";
    text += tools::contextBlock(files_[i]);
  }
  text += "\n</loaded_context>\n";
  return text;
}

std::string ProjectMemory::describe() const {
  std::lock_guard lock(mutex_);
  size_t count = files_.size() + justInTime_.size();
  if (count == 0) return "No context files are loaded (no GEMINI.md was found).";
  std::string text = "Context loaded from " + std::to_string(count) + " file(s):\n";
  auto list = [&](const std::vector<tools::ContextFile>& files, const char* note) {
    for (const auto& file : files) {
      text += "\n### " + file.path + note + "\n\n";
      text += file.content + "\n";
    }
  };
  list(files_, "");
  list(justInTime_, " (added when a tool worked in its folder)");
  return text;
}

std::vector<std::string> ProjectMemory::paths() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& file : files_) out.push_back(file.path);
  for (const auto& file : justInTime_) out.push_back(file.path);
  return out;
}

std::string ProjectMemory::contextFor(const std::vector<std::string>& paths) {
  std::lock_guard lock(mutex_);
  if (!loaded_) return {};  // the first load will find them
  std::vector<tools::ContextFile> found;
  for (const auto& path : paths) {
    for (auto& file : tools::contextFilesAlong(*workspace_, path, options_, known_)) found.push_back(std::move(file));
  }
  if (found.empty()) return {};
  std::string text = "\n\n--- Newly Discovered Project Context ---\n";
  for (auto& file : found) {
    text += tools::contextBlock(file) + "\n";
    justInTime_.push_back(std::move(file));
  }
  text += "--- End Project Context ---";
  return text;
}

}  // namespace lathe::engine
