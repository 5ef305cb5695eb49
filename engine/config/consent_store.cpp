// Workspace consent records.
#include "engine/config/consent_store.h"

#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/base/enum_names.h"
#include "protocol/base/file_lock.h"
#include "protocol/base/json.h"
#include "protocol/base/private_file.h"

namespace lathe::engine {
namespace {

// The answers as the file spells them; unknown is never written.
constexpr EnumName<Consent> kAnswers[] = {{Consent::allowed, "allowed"}, {Consent::refused, "refused"}};

// The records as they are on disk; an unreadable or broken file counts as
// empty (the person is asked again: the safe side).
json::Document readRecords(const std::string& path) {
  json::Document doc;
  std::ifstream in(path);
  std::stringstream text;
  if (in) text << in.rdbuf();
  auto parsed = json::parse(text.str());
  if (parsed && parsed->IsObject()) doc = std::move(parsed).value();
  if (!doc.IsObject()) doc.SetObject();
  const json::Value* workspaces = json::find(doc, "workspaces");
  if (!workspaces || !workspaces->IsObject()) {
    doc.RemoveMember("workspaces");
    doc.AddMember("workspaces", json::Value(rapidjson::kObjectType), doc.GetAllocator());
  }
  return doc;
}

// The workspaces object (readRecords made sure it is one).
json::Value& workspacesOf(json::Document& doc) { return doc.FindMember("workspaces")->value; }

}  // namespace

std::string sha256Hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

Consent ConsentStore::lookup(const std::string& workspace, std::string_view configText) const {
  if (dir_.empty()) return Consent::unknown;
  FileLock lock(filePath() + ".lock");
  json::Document doc = readRecords(filePath());
  const json::Value* entry = json::find(workspacesOf(doc), workspace.c_str());
  if (!entry || !entry->IsObject()) return Consent::unknown;
  if (json::getStr(*entry, "sha256") != sha256Hex(configText)) return Consent::unknown;
  return valueOf(kAnswers, json::getStr(*entry, "answer").value_or("")).value_or(Consent::unknown);
}

Status ConsentStore::record(const std::string& workspace, std::string_view configText, Consent answer) {
  if (dir_.empty() || answer == Consent::unknown) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return makeError(Errc::internal, "cannot create " + dir_ + ": " + ec.message());
  FileLock lock(filePath() + ".lock");
  if (!lock.held()) return makeError(Errc::internal, "cannot lock " + filePath() + ".lock");
  json::Document doc = readRecords(filePath());
  auto& alloc = doc.GetAllocator();
  json::Value entry(rapidjson::kObjectType);
  std::string hash = sha256Hex(configText);
  entry.AddMember("sha256", json::Value(hash.c_str(), static_cast<rapidjson::SizeType>(hash.size()), alloc), alloc);
  entry.AddMember("answer", json::Value(rapidjson::StringRef(nameOf(kAnswers, answer))), alloc);
  json::Value& workspaces = workspacesOf(doc);
  workspaces.RemoveMember(workspace.c_str());
  workspaces.AddMember(json::Value(workspace.c_str(), static_cast<rapidjson::SizeType>(workspace.size()), alloc),
                       entry, alloc);
  return writePrivateFile(filePath(), json::stringify(doc) + "\n");
}

}  // namespace lathe::engine
