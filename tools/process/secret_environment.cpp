// Secret environment variables, by name and by value shape.
#include "tools/process/secret_environment.h"

#include <unistd.h>

#include <cctype>

namespace lathe::tools::process {
namespace {

bool nameSaysSecret(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.starts_with("GEMINI_")) return true;  // Lathe's own model settings and key
  for (std::string_view word : {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "AUTH", "CREDENTIAL", "CREDS",
                                "PRIVATE", "CERT"}) {
    if (upper.find(word) != std::string::npos) return true;
  }
  return false;
}

bool allOf(std::string_view text, int (*test)(int)) {
  for (char c : text) {
    if (!test(static_cast<unsigned char>(c))) return false;
  }
  return !text.empty();
}

bool valueLooksLikeKey(std::string_view value) {
  if (value.starts_with("-----BEGIN") && value.find("PRIVATE KEY") != std::string_view::npos) return true;
  for (std::string_view prefix : {"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-",
                                  "xoxa-", "xoxs-", "sk-", "AIza"}) {
    if (value.starts_with(prefix) && value.size() >= prefix.size() + 16) return true;
  }
  // AWS access key ids: AKIA/ASIA and 16 upper-case letters or digits.
  if (value.size() == 20 && (value.starts_with("AKIA") || value.starts_with("ASIA")) &&
      allOf(value.substr(4), [](int c) { return std::isupper(c) || std::isdigit(c) ? 1 : 0; })) {
    return true;
  }
  // A URL with a password in it: scheme://user:password@host/...
  if (size_t scheme = value.find("://"); scheme != std::string_view::npos) {
    std::string_view authority = value.substr(scheme + 3);
    authority = authority.substr(0, authority.find('/'));
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos) return true;
  }
  // A JSON Web Token: three base64url parts, the first a JSON object.
  if (value.starts_with("eyJ")) {
    size_t first = value.find('.');
    size_t second = first == std::string_view::npos ? first : value.find('.', first + 1);
    if (second != std::string_view::npos && value.find_first_of(" \t\n") == std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool isSecretVariable(std::string_view name, std::string_view value) {
  return nameSaysSecret(name) || valueLooksLikeKey(value);
}

std::vector<std::string> secretVariableNames() {
  std::vector<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view text(*entry);
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    if (isSecretVariable(text.substr(0, equals), text.substr(equals + 1))) names.emplace_back(text.substr(0, equals));
  }
  return names;
}

}  // namespace lathe::tools::process
