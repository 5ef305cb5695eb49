// The kept answers' files.
#include "engine/config/kept_answers_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/config/consent_store.h"
#include "engine/config/kept_rules.h"
#include "protocol/base/file_lock.h"
#include "protocol/base/private_file.h"
#include "protocol/formats/toml.h"

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

PolicyTier tierOf(Lasting where) { return where == Lasting::everywhere ? PolicyTier::user : PolicyTier::workspace; }

std::string headerFor(const std::string& root) {
  return "# \"Always allow\" answers Lathe keeps for the workspace " + root +
         ",\n# as Gemini CLI policy rules. /permissions lists them; /permissions revoke N removes one.\n\n";
}

// A file name that says which workspace, and cannot collide: "lathe-3f2a9c0d1e4b5a67.toml".
std::string workspaceFileName(const std::string& root) {
  std::string name = fs::path(root).filename().string();
  std::string safe;
  for (char c : name) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  if (safe.empty()) safe = "root";
  return safe + "-" + sha256Hex(root).substr(0, 16) + ".toml";
}

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file the person's answers go in must be theirs alone: Lathe's own
// (per workspace) may not even be a link or shared with a group; the one
// Gemini CLI shares (every workspace) may not be changed by anyone else.
std::string unsafeFile(const std::string& path, PolicyTier tier) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "";
  const bool ours = tier == PolicyTier::workspace;
  if (ours && S_ISLNK(st.st_mode)) return path + " is a symbolic link";
  if (!ours && ::stat(path.c_str(), &st) != 0) return "";
  if (st.st_uid != ::getuid()) return path + " belongs to another user";
  if (st.st_mode & (ours ? (S_IWGRP | S_IWOTH) : S_IWOTH)) return path + " may be changed by others";
  return "";
}

std::string where(Lasting lasting, const std::string& file) {
  return lasting == Lasting::everywhere ? "in every workspace (" + file + ")" : "in this workspace";
}

}  // namespace

KeptAnswersStore::Files KeptAnswersStore::filesFor(const std::string& root, const PolicyFolders& folders) {
  Files files;
  files.workspaceRoot = root;
  files.everywhere = folders.keptEverywhere;
  if (!folders.keptDir.empty()) {
    files.workspace = folders.keptDir + "/" + workspaceFileName(root);
    files.lock = folders.keptDir + "/.lock";
  }
  return files;
}

KeptAnswersStore::KeptAnswersStore(Files files) : files_(std::move(files)) {}

bool KeptAnswersStore::refreshOne(const std::string& path, PolicyTier tier, Loaded& loaded) {
  struct stat st {};
  bool present = !path.empty() && ::stat(path.c_str(), &st) == 0;
  auto same = [](const struct timespec& a, const struct timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; };
  if (present == loaded.present &&
      (!present || (st.st_ino == loaded.inode && st.st_size == loaded.size && same(st.st_mtim, loaded.modified) &&
                    same(st.st_ctim, loaded.changed)))) {
    return false;
  }
  loaded = Loaded{};
  loaded.present = present;
  if (!present) return true;
  loaded.inode = st.st_ino;
  loaded.size = st.st_size;
  loaded.modified = st.st_mtim;
  loaded.changed = st.st_ctim;
  auto text = readText(path);
  if (!text) {
    loaded.problem = path + ": cannot be read";
    return true;
  }
  if (std::string unsafe = unsafeFile(path, tier); !unsafe.empty()) {
    loaded.problem = path + ": left out: " + unsafe;
    return true;
  }
  auto rules = parsePolicyFile(*text, path, tier);
  if (rules) {
    loaded.rules = std::move(rules).value();
    for (auto& rule : loaded.rules.rules) rule.origin.kept = true;
  } else {
    loaded.problem = rules.error().message;
  }
  return true;
}

void KeptAnswersStore::refreshLocked() {
  bool changed = refreshOne(files_.workspace, PolicyTier::workspace, workspace_);
  changed = refreshOne(files_.everywhere, PolicyTier::user, everywhere_) || changed;
  if (!changed && snapshot_) return;
  auto both = std::make_shared<PolicyRules>(workspace_.rules);
  both->rules.insert(both->rules.end(), everywhere_.rules.rules.begin(), everywhere_.rules.rules.end());
  snapshot_ = std::move(both);
}

std::shared_ptr<const PolicyRules> KeptAnswersStore::rules() {
  std::lock_guard lock(mutex_);
  refreshLocked();
  return snapshot_;
}

std::vector<std::string> KeptAnswersStore::problems() {
  std::lock_guard lock(mutex_);
  refreshLocked();
  std::vector<std::string> out;
  for (const Loaded* loaded : {&workspace_, &everywhere_}) {
    if (!loaded->problem.empty()) out.push_back(loaded->problem);
  }
  return out;
}

std::vector<KeptAnswersStore::Entry> KeptAnswersStore::list() {
  std::lock_guard lock(mutex_);
  refreshLocked();
  std::vector<Entry> out;
  for (const auto& [lasting, loaded] : {std::pair{Lasting::workspace, &workspace_}, std::pair{Lasting::everywhere, &everywhere_}}) {
    for (const auto& rule : loaded->rules.rules) {
      if (rule.decision == PolicyDecision::allow) out.push_back({lasting, rule});
    }
  }
  return out;
}

// Reads the file (a new one when absent), lets `change` edit its rules, and
// writes it back whole if it changed. Never writes over a file it cannot read.
Result<std::string> KeptAnswersStore::rewrite(
    const std::string& path, PolicyTier tier,
    const std::function<Result<bool>(json::Value& rules, json::Document& doc)>& change) {
  std::string lockPath = files_.lock.empty() ? path + ".lock" : files_.lock;
  for (const auto& folder : {fs::path(path).parent_path(), fs::path(lockPath).parent_path()}) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) return makeError(Errc::internal, "cannot create " + folder.string() + ": " + ec.message());
  }
  FileLock lock(lockPath);
  if (!lock.held()) return makeError(Errc::internal, "cannot lock " + lockPath);
  if (std::string unsafe = unsafeFile(path, tier); !unsafe.empty()) {
    return makeError(Errc::invalid_params, unsafe);
  }
  json::Document doc;
  doc.SetObject();
  if (auto text = readText(path)) {
    auto parsed = formats::parseToml(*text, path);
    if (!parsed) return makeError(Errc::invalid_params, "it is not valid TOML (" + parsed.error().message + "), so it was left as it is");
    static_cast<json::Value&>(doc).CopyFrom(parsed->value, doc.GetAllocator());
  }
  if (!json::find(doc, "rule")) doc.AddMember("rule", json::Value(rapidjson::kArrayType), doc.GetAllocator());
  json::Value& rules = doc.FindMember("rule")->value;
  if (!rules.IsArray()) return makeError(Errc::invalid_params, path + ": `rule` is not a list of tables, so it was left as it is");
  auto changed = change(rules, doc);
  if (!changed) return changed.error();
  if (!*changed) return std::string();
  auto toml = formats::writeToml(doc);
  if (!toml) return toml.error();
  std::string text = (tier == PolicyTier::workspace ? headerFor(files_.workspaceRoot) : "") + *toml;
  // What is written must read back as the rules meant, by Lathe and Gemini CLI's format alike.
  if (auto check = parsePolicyFile(text, path, tier); !check) return check.error();
  if (auto status = writePrivateFile(path, text); !status) return status.error();
  return std::string();
}

bool KeptAnswersStore::canKeep(Lasting where) const {
  return where == Lasting::everywhere ? !files_.everywhere.empty() : where == Lasting::workspace && !files_.workspace.empty();
}

Result<std::string> KeptAnswersStore::keep(const KeptAnswer& answer) {
  const std::string& path = answer.where == Lasting::everywhere ? files_.everywhere : files_.workspace;
  if (answer.where == Lasting::session || path.empty()) return makeError(Errc::invalid_params, "there is no file to keep it in");
  auto ruleText = keptRuleFor(answer);
  if (!ruleText) return ruleText.error();
  auto rule = json::parse(*ruleText);
  if (!rule) return rule.error();
  std::string words;
  auto written = rewrite(path, tierOf(answer.where), [&](json::Value& rules, json::Document& doc) -> Result<bool> {
    for (const auto& existing : rules.GetArray()) {
      if (stableArgs(existing) == stableArgs(*rule)) return false;  // kept already
    }
    rules.PushBack(json::Value(*rule, doc.GetAllocator()), doc.GetAllocator());
    return true;
  });
  if (!written) return makeError(written.error().code, path + ": " + written.error().message);
  std::lock_guard lock(mutex_);
  refreshLocked();
  const PolicyRules& kept = answer.where == Lasting::everywhere ? everywhere_.rules : workspace_.rules;
  for (const auto& one : kept.rules) {
    if (stableArgs(one.asWritten) == stableArgs(*rule)) words = describeRule(one);
  }
  return "Kept: " + (words.empty() ? std::string("this answer") : words) + " allowed " + where(answer.where, path) +
         " from now on. /permissions lists what is allowed; /permissions revoke N removes one.";
}

Result<std::string> KeptAnswersStore::revoke(const Entry& entry) {
  const std::string& path = entry.rule.origin.file;
  if (path != files_.workspace && path != files_.everywhere) {
    return makeError(Errc::invalid_params, "only kept answers can be revoked here");
  }
  auto written = rewrite(path, entry.rule.origin.tier, [&](json::Value& rules, json::Document&) -> Result<bool> {
    const auto index = static_cast<rapidjson::SizeType>(entry.rule.origin.number - 1);
    if (index >= rules.Size() || json::stringify(rules[index]) != entry.rule.asWritten) {
      return makeError(Errc::invalid_params, "the file changed since it was listed; run /permissions again");
    }
    rules.Erase(rules.Begin() + index);
    return true;
  });
  if (!written) return makeError(written.error().code, path + ": " + written.error().message);
  std::lock_guard lock(mutex_);
  refreshLocked();
  return "Revoked: " + describeRule(entry.rule) + " " + where(entry.where, path) + " is asked about again.";
}

}  // namespace lathe::engine
