// Credentials on disk: {"method": ..., "apiKey": ..., "baseUrl": ..., "headers": {...}}.
#include "engine/model/credential_store.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/base/json.h"
#include "protocol/base/private_file.h"

namespace lathe::engine {

Result<std::optional<Credentials>> CredentialStore::load() const {
  if (path_.empty()) return std::optional<Credentials>{};
  std::ifstream in(path_);
  if (!in) return std::optional<Credentials>{};
  struct stat st{};
  // Readable by others means someone else may have written it too: not trusted.
  if (::stat(path_.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    return makeError(Errc::auth_required, "the stored credentials " + path_ +
                                              " can be read by other users; remove the file and log in again");
  }
  std::stringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  if (!doc || !doc->IsObject()) {
    return makeError(Errc::auth_required, "the stored credentials " + path_ + " are damaged; log in again");
  }
  Credentials out;
  out.method = json::getStr(*doc, "method").value_or("");
  out.apiKey = json::getStr(*doc, "apiKey").value_or("");
  out.baseUrl = json::getStr(*doc, "baseUrl").value_or("");
  if (const json::Value* headers = json::find(*doc, "headers"); headers && headers->IsObject()) {
    for (const auto& member : headers->GetObject()) {
      if (!member.value.IsString()) continue;
      out.headers.emplace_back(std::string(member.name.GetString(), member.name.GetStringLength()),
                               std::string(member.value.GetString(), member.value.GetStringLength()));
    }
  }
  if (out.method.empty()) return makeError(Errc::auth_required, "the stored credentials " + path_ + " name no method; log in again");
  return std::optional<Credentials>(std::move(out));
}

Status CredentialStore::save(const Credentials& credentials) const {
  if (path_.empty()) return makeError(Errc::internal, "Lathe has no state directory to keep credentials in");
  std::error_code ec;
  const auto dir = std::filesystem::path(path_).parent_path();
  std::filesystem::create_directories(dir, ec);
  if (ec) return makeError(Errc::internal, "cannot create " + dir.string() + ": " + ec.message());
  std::string text = json::buildObject([&](json::Writer& w) {
    json::put(w, "method", credentials.method);
    if (!credentials.apiKey.empty()) json::put(w, "apiKey", credentials.apiKey);
    if (!credentials.baseUrl.empty()) json::put(w, "baseUrl", credentials.baseUrl);
    if (!credentials.headers.empty()) {
      json::object(w, "headers", [&] {
        for (const auto& [name, value] : credentials.headers) json::put(w, name, value);
      });
    }
  });
  return writePrivateFile(path_, text + "\n");
}

Status CredentialStore::remove() const {
  if (path_.empty()) return {};
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) {
    return makeError(Errc::internal, "cannot remove " + path_ + ": " + std::strerror(errno));
  }
  return {};
}

}  // namespace lathe::engine
