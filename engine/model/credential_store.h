// The credentials a person gave Lathe through their editor (ACP
// authenticate), kept for the next runs in one file only they can read
// (mode 600) under Lathe's state directory; logout removes it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::engine {

struct Credentials {
  std::string method;  // the auth method id: gemini-api-key, gateway, openai-api-key
  std::string apiKey;  // may be empty for a gateway
  std::string baseUrl;  // a gateway's endpoint
  std::vector<std::pair<std::string, std::string>> headers;  // a gateway's extra request headers
};

class CredentialStore {
 public:
  // `path` empty: nothing is kept (no state directory).
  explicit CredentialStore(std::string path) : path_(std::move(path)) {}

  // nullopt when none are kept; an error naming the file when it is broken.
  Result<std::optional<Credentials>> load() const;
  Status save(const Credentials& credentials) const;
  Status remove() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace lathe::engine
