// A resolver for web tests that answers from a table, at once; a name not in
// the table does not resolve. Test-only.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/http/resolver.h"

namespace lathe::testing {

class TableResolver final : public http::Resolver {
 public:
  explicit TableResolver(std::map<std::string, http::Addresses> table) : table_(std::move(table)) {}
  void lookup(const std::string& host, Answer answer) override {
    {
      std::lock_guard lock(mutex_);
      asked_.push_back(host);
    }
    auto it = table_.find(host);
    if (it == table_.end()) return answer(makeError(Errc::io, "Could not resolve " + host + ": not in the table"));
    answer(it->second);
  }
  std::vector<std::string> asked() {
    std::lock_guard lock(mutex_);
    return asked_;
  }

 private:
  std::map<std::string, http::Addresses> table_;
  std::mutex mutex_;
  std::vector<std::string> asked_;
};

}  // namespace lathe::testing
