// Recognising secret-shaped files by name. Pure; any thread.
#include "tools/files/secret_files.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace lathe::tools {
namespace {

struct Shape {
  std::string_view name;  // whole file name, or a suffix when it starts with '.' and `suffix` is set
  bool suffix;
  std::string_view why;
};

constexpr std::array<Shape, 22> kShapes{{
    {".env", false, "an environment file"},
    {".envrc", false, "an environment file"},
    {".pem", true, "a key or certificate file"},
    {".key", true, "a private key file"},
    {".p12", true, "a key store"},
    {".pfx", true, "a key store"},
    {".jks", true, "a key store"},
    {".keystore", true, "a key store"},
    {".kdbx", true, "a password database"},
    {"id_rsa", false, "an SSH private key"},
    {"id_dsa", false, "an SSH private key"},
    {"id_ecdsa", false, "an SSH private key"},
    {"id_ed25519", false, "an SSH private key"},
    {".netrc", false, "a credential store"},
    {".git-credentials", false, "a credential store"},
    {".npmrc", false, "a registry configuration that may hold tokens"},
    {".pypirc", false, "a registry configuration that may hold tokens"},
    {"credentials", false, "a credential store"},
    {"credentials.json", false, "a credential store"},
    {"application_default_credentials.json", false, "a credential store"},
    {".htpasswd", false, "a password file"},
    {"secrets.json", false, "a secrets file"},
}};

// Templates committed next to the real file hold no secrets.
constexpr std::array<std::string_view, 5> kTemplates{".example", ".sample", ".template", ".dist", ".defaults"};

}  // namespace

std::string secretFileReason(const std::string& path) {
  std::string_view name(path);
  name = name.substr(name.find_last_of('/') + 1);
  if (std::any_of(kTemplates.begin(), kTemplates.end(), [&](std::string_view t) { return name.ends_with(t); })) {
    return "";
  }
  // .env.local, .env.production: still environment files.
  if (name.starts_with(".env.")) return std::string("an environment file (") + std::string(name) + ")";
  for (const auto& shape : kShapes) {
    if (shape.suffix ? name.ends_with(shape.name) && name.size() > shape.name.size() : name == shape.name) {
      return std::string(shape.why) + " (" + std::string(name) + ")";
    }
  }
  return "";
}

const std::vector<std::string>& secretFilePatterns() {
  static const std::vector<std::string> patterns = [] {
    std::vector<std::string> out{".env.*"};
    for (const auto& shape : kShapes) out.push_back((shape.suffix ? "*" : "") + std::string(shape.name));
    for (const auto& t : kTemplates) out.push_back("!*" + std::string(t));
    return out;
  }();
  return patterns;
}

}  // namespace lathe::tools
