// The authority and the server certificate, made once per test program.
#include "tests/support/test_certificates.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <mutex>
#include <stdexcept>

namespace lathe::testing {
namespace {

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test certificates: ") + what);
}

void extend(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
  check(extension != nullptr, "extension");
  X509_add_ext(cert, extension, -1);
  X509_EXTENSION_free(extension);
}

X509* certificate(EVP_PKEY* key, const char* commonName, X509* issuer, EVP_PKEY* issuerKey, long serial, bool authority) {
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(commonName), -1, -1, 0);
  X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name);
  X509* signer = issuer ? issuer : cert;
  if (authority) {
    extend(cert, signer, NID_basic_constraints, "critical,CA:TRUE");
    extend(cert, signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    extend(cert, signer, NID_basic_constraints, "CA:FALSE");
    extend(cert, signer, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost,DNS:model.invalid,DNS:docs.invalid");
    extend(cert, signer, NID_ext_key_usage, "serverAuth");
  }
  check(X509_sign(cert, issuerKey ? issuerKey : key, EVP_sha256()) > 0, "signing");
  return cert;
}

void writePem(const std::string& path, X509* cert, EVP_PKEY* key) {
  FILE* out = std::fopen(path.c_str(), "w");
  check(out != nullptr, "opening a PEM file");
  bool ok = cert ? PEM_write_X509(out, cert) == 1 : PEM_write_PrivateKey(out, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  std::fclose(out);
  check(ok, "writing a PEM file");
}

void make(TestCertificates* out) {
  EVP_PKEY* caKey = EVP_RSA_gen(2048);
  EVP_PKEY* serverKey = EVP_RSA_gen(2048);
  check(caKey && serverKey, "keys");
  X509* ca = certificate(caKey, "Lathe test authority", nullptr, nullptr, 1, true);
  X509* server = certificate(serverKey, "127.0.0.1", ca, caKey, 2, false);
  out->caFile = (out->dir.path / "ca.pem").string();
  out->certFile = (out->dir.path / "server.pem").string();
  out->keyFile = (out->dir.path / "server-key.pem").string();
  writePem(out->caFile, ca, nullptr);
  writePem(out->certFile, server, nullptr);
  writePem(out->keyFile, nullptr, serverKey);
  X509_free(server);
  X509_free(ca);
  EVP_PKEY_free(serverKey);
  EVP_PKEY_free(caKey);
}

}  // namespace

const TestCertificates& testCertificates() {
  static TestCertificates made;  // its folder goes when the program ends
  static std::once_flag once;
  std::call_once(once, [] { make(&made); });
  return made;
}

}  // namespace lathe::testing
