// Sets environment variables for one test and restores them after (the
// proxy variables, SSL_CERT_FILE). Test-only; tests that use it change the
// process's environment, so they keep to one thread while setting it.
#pragma once

#include <stdlib.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lathe::testing {

struct ScopedEnv {
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  void set(const std::string& name, const std::string& value) {
    const char* old = ::getenv(name.c_str());
    saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->second) {
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        ::unsetenv(it->first.c_str());
      }
    }
  }
};

}  // namespace lathe::testing
