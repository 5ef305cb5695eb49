// RS256 signing with OpenSSL's EVP interface.
#include "engine/model/google/jwt_assertion.h"

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

#include "protocol/base/base64.h"
#include "protocol/base/json.h"

namespace lathe::engine::google {
namespace {

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using MdContextPtr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

int64_t secondsOf(std::chrono::system_clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
}

}  // namespace

std::string base64Url(std::string_view bytes) {
  std::string out = base64Encode(bytes);
  for (char& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  while (!out.empty() && out.back() == '=') out.pop_back();
  return out;
}

Result<std::string> signAssertion(const AssertionClaims& claims, const std::string& privateKeyPem) {
  BioPtr bio(BIO_new_mem_buf(privateKeyPem.data(), static_cast<int>(privateKeyPem.size())), &BIO_free);
  KeyPtr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
  if (!key) return makeError(Errc::auth_required, "the private_key is not a PEM private key");
  if (EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA) return makeError(Errc::auth_required, "the private_key is not an RSA key");

  std::string header = json::buildObject([&](json::Writer& w) {
    json::put(w, "alg", "RS256");
    json::put(w, "typ", "JWT");
    if (!claims.keyId.empty()) json::put(w, "kid", claims.keyId);
  });
  const int64_t issued = secondsOf(claims.issuedAt);
  std::string body = json::buildObject([&](json::Writer& w) {
    json::put(w, "iss", claims.issuer);
    json::put(w, "scope", claims.scope);
    json::put(w, "aud", claims.audience);
    json::put(w, "iat", issued);
    json::put(w, "exp", issued + static_cast<int64_t>(claims.lifetime.count()));
  });
  std::string signingInput = base64Url(header) + "." + base64Url(body);

  MdContextPtr context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  size_t length = 0;
  if (!context || EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(context.get(), nullptr, &length,
                     reinterpret_cast<const unsigned char*>(signingInput.data()), signingInput.size()) != 1) {
    return makeError(Errc::auth_required, "the private_key could not sign (OpenSSL refused it)");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(signingInput.data()), signingInput.size()) != 1) {
    return makeError(Errc::auth_required, "the private_key could not sign (OpenSSL refused it)");
  }
  signature.resize(length);
  return signingInput + "." + base64Url(signature);
}

}  // namespace lathe::engine::google
