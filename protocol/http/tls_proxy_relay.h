// TLS to an https:// proxy. cpp-httplib talks to a proxy over plain TCP only,
// so a client meant for an https:// proxy is pointed at a relay of this
// process instead: an abstract unix socket that only this process may use
// (each connection's peer pid is checked), whose connections are each carried
// over TLS to the proxy (its certificate checked against the system's
// authorities, or SSL_CERT_FILE / SSL_CERT_DIR, and against its name).
// Whatever the client then says to the proxy (an absolute-form request, or
// CONNECT and TLS to the target inside) passes through unchanged. Connecting
// and the handshake run on a worker; the bytes then move on the executor's
// reactor, with no thread per connection. One relay per proxy, kept for the
// process's life. Any thread.
#pragma once

#include <string>

namespace lathe::http {

// The relay's socket name for the proxy at host:port (an abstract address:
// it starts with '\0'), listening from the first call on; empty when it
// cannot listen (the reason is logged).
std::string tlsProxyRelay(const std::string& host, int port);

}  // namespace lathe::http
