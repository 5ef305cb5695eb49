// The answers a person gave to "may this workspace's settings start
// programs?", remembered per workspace folder and per exact configuration
// (the SHA-256 of its text): a changed configuration is a new question.
// Kept in <stateDir>/workspace-consent.json; read-modify-write under an
// flock on a lock file beside it, replaced atomically (temporary, fsync,
// rename). Any thread; separate processes share it safely.
#pragma once

#include <string>
#include <string_view>

#include "protocol/base/result.h"

namespace lathe::engine {

enum class Consent { unknown, allowed, refused };

class ConsentStore {
 public:
  // An empty stateDir remembers nothing (every lookup is unknown).
  explicit ConsentStore(std::string stateDir) : dir_(std::move(stateDir)) {}

  Consent lookup(const std::string& workspace, std::string_view configText) const;
  // Replaces what was remembered for the workspace.
  Status record(const std::string& workspace, std::string_view configText, Consent answer);

  std::string filePath() const { return dir_ + "/workspace-consent.json"; }

 private:
  std::string dir_;
};

// Lower-case hex SHA-256.
std::string sha256Hex(std::string_view text);

}  // namespace lathe::engine
