#include "engine/rewind/file_restore.h"

#include <filesystem>
#include <map>

namespace lathe::engine {

std::vector<RestoreStep> stepsToUndo(const std::vector<PromptRecord>& prompts) {
  std::map<std::string, RestoreStep> steps;
  for (const auto& prompt : prompts) {
    for (const auto& file : prompt.files) {
      auto [at, fresh] = steps.try_emplace(file.path, RestoreStep{file.path, file.after, file.before});
      if (!fresh) at->second.expected = file.after;
    }
  }
  std::vector<RestoreStep> out;
  for (auto& [path, step] : steps) {
    if (step.expected != step.target) out.push_back(std::move(step));
  }
  return out;
}

std::vector<RestoreStep> stepsToRedo(const std::vector<tools::FileChange>& rewound) {
  std::vector<RestoreStep> out;
  for (const auto& file : rewound) out.push_back({file.path, file.before, file.after});
  return out;
}

Result<std::string> FileRestore::currentBlob(const std::string& path, bool binary, const CancelToken& cancel) {
  // Binary files never go through the editor, which holds text.
  auto text = binary ? tools::makeDiskFileStore()->readText(path, cancel) : files_.readText(path, cancel);
  if (!text && text.error().code == Errc::not_found) return std::string();
  if (!text) return makeError(text.error().code, workspace_.relative(path) + ": " + text.error().message);
  return blobs_.keep(path, *text);
}

Result<std::vector<FileNow>> FileRestore::look(const std::vector<RestoreStep>& steps, const CancelToken& cancel) {
  std::vector<FileNow> out;
  for (const auto& step : steps) {
    auto inside = workspace_.resolve(step.path);
    if (!inside || *inside != step.path) {
      return makeError(Errc::forbidden, step.path + " is no longer a file inside the workspace");
    }
    const bool binary = blobs_.binary(step.path, step.expected) || blobs_.binary(step.path, step.target);
    auto current = currentBlob(step.path, binary, cancel);
    if (!current) return current.error();
    FileNow now{step, *current, false, false, binary};
    now.done = now.current == step.target;
    now.changedElsewhere = !now.done && now.current != step.expected;
    out.push_back(std::move(now));
  }
  return out;
}

Status FileRestore::write(const FileNow& file, const CancelToken& cancel) {
  const RestoreStep& step = file.step;
  if (step.target.empty()) {
    std::error_code ec;
    if (!std::filesystem::remove(step.path, ec) && ec) return makeError(Errc::io, ec.message());
    return {};
  }
  auto bytes = blobs_.read(step.path, step.target);
  if (!bytes) return bytes.error();
  if (file.binary) return tools::makeDiskFileStore()->writeTextExact(step.path, *bytes, cancel);
  return files_.writeTextExact(step.path, *bytes, cancel);
}

RestoreOutcome FileRestore::apply(const std::vector<FileNow>& files, bool overwrite, const CancelToken& cancel) {
  RestoreOutcome out;
  for (const auto& file : files) {
    const std::string shown = workspace_.relative(file.step.path);
    if (file.done) continue;
    if (file.changedElsewhere && !overwrite) {
      out.leftAlone.push_back(shown);
      continue;
    }
    if (cancel.cancelled()) {
      out.cancelled = true;
      return out;
    }
    // Checked again just before writing: what it holds now is what was looked at.
    auto current = currentBlob(file.step.path, file.binary, cancel);
    if (!current) {
      out.failed.push_back(current.error().message);
      continue;
    }
    if (*current != file.current) {
      out.leftAlone.push_back(shown + " (it changed while Lathe was restoring)");
      continue;
    }
    if (Status written = write(file, cancel); !written) {
      out.failed.push_back(shown + ": " + written.error().message);
      continue;
    }
    out.written.push_back({file.step.path, file.step.target, file.current});
  }
  return out;
}

}  // namespace lathe::engine
