// Plan mode's folder, its plan files and its mode switch.
#include "tools/plan/plan_mode.h"

#include <cctype>
#include <filesystem>

namespace lathe::tools {
namespace fs = std::filesystem;
namespace {

// Gemini CLI's plan names: letters, digits, '_' and '-', then ".md".
bool planName(const std::string& name) {
  if (name.size() <= 3 || !name.ends_with(".md")) return false;
  for (size_t i = 0; i + 3 < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c) && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace

PlanMode::PlanMode(std::string directory, std::string projectRoot)
    : directory_(std::move(directory)), projectRoot_(std::move(projectRoot)) {}

void PlanMode::setSwitch(Switch change) {
  std::lock_guard lock(mutex_);
  switch_ = std::move(change);
}

void PlanMode::switchTo(const std::string& modeId) const {
  Switch change;
  {
    std::lock_guard lock(mutex_);
    change = switch_;
  }
  if (change) change(modeId);
}

Result<std::shared_ptr<const Workspace>> PlanMode::folder() const {
  std::lock_guard lock(mutex_);
  if (folder_) return folder_;
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) return makeError(Errc::io, "cannot create the plans folder " + directory_ + ": " + ec.message());
  auto made = Workspace::create(directory_);
  if (!made) return made.error();
  folder_ = std::make_shared<const Workspace>(std::move(made).value());
  return folder_;
}

Result<std::string> PlanMode::resolve(std::string_view name) const {
  auto root = folder();
  if (!root) return root.error();
  const std::string& plans = (*root)->cwd();
  const std::string given(name);
  auto refused = [&] {
    return makeError(Errc::forbidden, "In plan mode only plans may be written: Markdown files directly in the plans "
                                      "folder " + plans + ", named with letters, digits, '_' or '-' (feature-x.md); \"" +
                                      given + "\" is not one.");
  };
  if (given.empty()) return refused();
  // Absolute, or from the workspace root, when that leads into the folder;
  // anything else is named within the folder.
  fs::path path(given);
  std::string candidate;
  if (path.is_absolute()) {
    candidate = given;
  } else if (auto fromRoot = (fs::path(projectRoot_) / path).lexically_normal().string();
             fromRoot.starts_with(directory_ + "/")) {
    candidate = fromRoot;
  } else {
    candidate = plans + "/" + given;
  }
  auto resolved = (*root)->resolve(candidate);
  if (!resolved) return refused();
  fs::path file(*resolved);
  if (file.parent_path().string() != plans || !planName(file.filename().string())) return refused();
  return *resolved;
}

}  // namespace lathe::tools
