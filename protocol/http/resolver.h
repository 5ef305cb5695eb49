// Host name lookups behind a seam: web_fetch resolves names through a
// Resolver, so that tests can put in one that answers what they choose, or
// never answers. A lookup may take long or never end; waiting for one stops
// when its token is cancelled (the person's cancel, or a deadline's).
// Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"

namespace lathe::http {

using Addresses = std::vector<std::string>;  // IP literals, v4 or v6 (no brackets)

class Resolver {
 public:
  using Answer = std::function<void(Result<Addresses>)>;
  virtual ~Resolver() = default;
  // Starts looking host up. answer is called at most once, on any thread,
  // with the addresses in the resolver's order, or Errc::io when the name
  // does not resolve. It may never be called.
  virtual void lookup(const std::string& host, Answer answer) = 0;
};

// An IPv4 or IPv6 address (no brackets), not a name.
bool isIpLiteral(const std::string& text);

// The system's resolver (getaddrinfo). IP literals are answered at once; a
// name is looked up as blocking work on the process's executor (a worker of
// its own while it blocks, so one that hangs holds up no other lookup).
std::shared_ptr<Resolver> systemResolver();

// Looks host up and waits for the answer; Errc::cancelled when the token is
// cancelled first (the lookup may go on, and its answer is dropped).
Result<Addresses> resolveHost(Resolver& resolver, const std::string& host, const CancelToken& cancel);

}  // namespace lathe::http
