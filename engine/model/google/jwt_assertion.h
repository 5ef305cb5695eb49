// A JWT-bearer assertion (RFC 7523) for a Google service account: header and
// claims signed RS256 with the account's private key through OpenSSL. Pure.
#pragma once

#include <chrono>
#include <string>

#include "protocol/base/result.h"

namespace lathe::engine::google {

struct AssertionClaims {
  std::string issuer;    // the service account's client_email
  std::string audience;  // the key file's token_uri
  std::string scope;     // space-separated
  std::string keyId;     // private_key_id, in the header when known
  std::chrono::system_clock::time_point issuedAt;
  std::chrono::seconds lifetime{3600};
};

// Errors name what was wrong with the key (never the key itself).
Result<std::string> signAssertion(const AssertionClaims& claims, const std::string& privateKeyPem);

// Base64url without padding (RFC 7515 section 2).
std::string base64Url(std::string_view bytes);

}  // namespace lathe::engine::google
