// The test proxy: blocking sockets, a thread per connection, OpenSSL on the
// client side when asked.
#include "tests/support/test_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "tests/support/test_certificates.h"

namespace lathe::testing {
namespace {

// One side of the proxy's client connection: plain or TLS.
struct Conn {
  int fd = -1;
  SSL* ssl = nullptr;
  ssize_t read(char* buffer, size_t size) const {
    return ssl ? SSL_read(ssl, buffer, static_cast<int>(size)) : ::recv(fd, buffer, size, 0);
  }
  bool write(const std::string& data) const {
    size_t sent = 0;
    while (sent < data.size()) {
      ssize_t n = ssl ? SSL_write(ssl, data.data() + sent, static_cast<int>(data.size() - sent))
                      : ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  bool pending() const { return ssl && SSL_pending(ssl) > 0; }
};

bool sendAll(int fd, const std::string& data) {
  return Conn{fd, nullptr}.write(data);
}

int connectLocal(const std::string& hostPort) {
  size_t colon = hostPort.rfind(':');
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(std::stoi(hostPort.substr(colon + 1))));
  ::inet_pton(AF_INET, hostPort.substr(0, colon).c_str(), &address.sin_addr);
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Carries bytes both ways until one side ends.
void relay(const Conn& client, int upstream) {
  char buffer[16 * 1024];
  for (;;) {
    bool fromClient = client.pending();
    if (!fromClient) {
      pollfd fds[2] = {{client.fd, POLLIN, 0}, {upstream, POLLIN, 0}};
      if (::poll(fds, 2, -1) <= 0) return;
      fromClient = fds[0].revents != 0;
      if (fds[1].revents) {
        ssize_t n = ::recv(upstream, buffer, sizeof buffer, 0);
        if (n <= 0 || !client.write(std::string(buffer, static_cast<size_t>(n)))) return;
      }
    }
    if (fromClient) {
      ssize_t n = client.read(buffer, sizeof buffer);
      if (n <= 0 || !sendAll(upstream, std::string(buffer, static_cast<size_t>(n)))) return;
    }
  }
}

std::string headerValue(const std::string& head, const std::string& name) {
  size_t at = 0;
  while ((at = head.find("\r\n", at)) != std::string::npos) {
    at += 2;
    if (::strncasecmp(head.c_str() + at, (name + ":").c_str(), name.size() + 1) == 0) {
      size_t start = head.find_first_not_of(' ', at + name.size() + 1);
      return head.substr(start, head.find("\r\n", start) - start);
    }
  }
  return "";
}

}  // namespace

TestProxy::TestProxy(Options options) : options_(std::move(options)) {
  if (options_.tls) {
    const auto& certs = testCertificates();
    SSL_CTX* context = SSL_CTX_new(TLS_server_method());
    if (SSL_CTX_use_certificate_file(context, certs.certFile.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_use_PrivateKey_file(context, certs.keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
      throw std::runtime_error("test proxy: cannot load its certificate");
    }
    context_ = context;
  }
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int yes = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener_, 16) != 0) {
    throw std::runtime_error("test proxy: cannot listen");
  }
  socklen_t size = sizeof address;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size);
  port_ = ntohs(address.sin_port);
  if (::pipe2(wake_, O_CLOEXEC) != 0) throw std::runtime_error("test proxy: no pipe");
  acceptor_ = std::thread([this] { acceptLoop(); });
}

TestProxy::~TestProxy() {
  (void)!::write(wake_[1], "x", 1);
  acceptor_.join();
  {
    std::lock_guard lock(mutex_);
    for (int fd : open_) ::shutdown(fd, SHUT_RDWR);
  }
  for (auto& connection : connections_) connection.join();
  ::close(listener_);
  ::close(wake_[0]);
  ::close(wake_[1]);
  if (context_) SSL_CTX_free(static_cast<SSL_CTX*>(context_));
}

std::string TestProxy::url() const { return std::string(options_.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_); }

std::vector<std::string> TestProxy::requestLines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

std::vector<std::string> TestProxy::authorizations() const {
  std::lock_guard lock(mutex_);
  return authorizations_;
}

void TestProxy::acceptLoop() {
  for (;;) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) <= 0 || fds[1].revents) return;
    int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    std::lock_guard lock(mutex_);
    open_.push_back(client);
    connections_.emplace_back([this, client] { serve(client); });
  }
}

void TestProxy::serve(int client) {
  Conn conn{client, nullptr};
  if (context_) {
    conn.ssl = SSL_new(static_cast<SSL_CTX*>(context_));
    SSL_set_fd(conn.ssl, client);
    if (SSL_accept(conn.ssl) == 1) ++handshakes_; else conn.ssl = (SSL_free(conn.ssl), nullptr);
  }
  if (!context_ || conn.ssl) {
    std::string head;
    char buffer[4096];
    size_t end;
    while ((end = head.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = conn.read(buffer, sizeof buffer);
      if (n <= 0) break;
      head.append(buffer, static_cast<size_t>(n));
    }
    if (end != std::string::npos) {
      std::string rest = head.substr(end + 4);
      head.resize(end + 2);
      std::string line = head.substr(0, head.find("\r\n"));
      {
        std::lock_guard lock(mutex_);
        lines_.push_back(line.substr(0, line.rfind(' ')));
        authorizations_.push_back(headerValue(head, "Proxy-Authorization"));
      }
      std::string method = line.substr(0, line.find(' '));
      std::string target = line.substr(method.size() + 1, line.rfind(' ') - method.size() - 1);
      std::string host = target, path = "/";
      if (method != "CONNECT") {
        host = target.substr(target.find("://") + 3);
        if (size_t slash = host.find('/'); slash != std::string::npos) {
          path = host.substr(slash);
          host.resize(slash);
        }
      }
      auto route = options_.routes.find(host.substr(0, host.rfind(':') == std::string::npos ? host.size() : host.rfind(':')));
      int upstream = route == options_.routes.end() ? -1 : connectLocal(route->second);
      if (upstream < 0) {
        conn.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      } else if (method == "CONNECT") {
        if (conn.write("HTTP/1.1 200 Connection established\r\n\r\n")) relay(conn, upstream);
      } else {
        // Origin-form to the server, which closes after its answer.
        std::string forwarded = method + " " + path + " HTTP/1.1\r\n";
        size_t at = head.find("\r\n") + 2;
        while (at < head.size()) {
          size_t next = head.find("\r\n", at);
          std::string header = head.substr(at, next - at);
          at = next + 2;
          if (::strncasecmp(header.c_str(), "Proxy-", 6) == 0 || ::strncasecmp(header.c_str(), "Connection:", 11) == 0) continue;
          forwarded += header + "\r\n";
        }
        forwarded += "Connection: close\r\n\r\n" + rest;
        if (sendAll(upstream, forwarded)) relay(conn, upstream);
      }
      if (upstream >= 0) ::close(upstream);
    }
  }
  if (conn.ssl) SSL_free(conn.ssl);
  std::lock_guard lock(mutex_);
  ::shutdown(client, SHUT_RDWR);
  ::close(client);
  std::erase(open_, client);
}

}  // namespace lathe::testing
