// A certificate authority of its own and a server certificate it signed, for
// 127.0.0.1, localhost and the test names model.invalid and docs.invalid, made with OpenSSL when a test starts (valid for a
// day) and written as PEM files into a temporary folder. Clients trust it
// through SSL_CERT_FILE = caFile. Test-only.
#pragma once

#include <string>

#include "tests/support/temp_dir.h"

namespace lathe::testing {

struct TestCertificates {
  TempDir dir;
  std::string caFile;    // the authority's certificate
  std::string certFile;  // the server's certificate
  std::string keyFile;   // the server's private key
};

// Throws std::runtime_error when OpenSSL cannot make them.
const TestCertificates& testCertificates();

}  // namespace lathe::testing
