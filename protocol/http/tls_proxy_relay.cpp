// Each relayed connection is a Tunnel: the client's end of the unix socket and
// a TLS session to the proxy, both non-blocking once set up, with a bounded
// buffer each way. pump() moves what it can on the reactor and then waits,
// through one-shot FdWatches, for whatever would let it move more.
#include "protocol/http/tls_proxy_relay.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "protocol/base/log.h"
#include "protocol/exec/executor.h"
#include "protocol/exec/fd_watch.h"

namespace lathe::http {
namespace {

constexpr size_t kBuffer = 64 * 1024;  // bytes held each way before the other side must drain them
constexpr int kSetupSeconds = 10;      // to connect to the proxy and finish the handshake

exec::Executor& executor() { return exec::Executor::shared(); }

std::string sslError() {
  unsigned long code = ERR_get_error();
  if (code == 0) return std::strerror(errno);
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

void setTimeouts(int fd, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// A blocking TCP connection to host:port, bounded by the setup time; -1 on failure (errno says why).
int connectTo(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    errno = EHOSTUNREACH;
    return -1;
  }
  int fd = -1;
  for (addrinfo* at = found; at && fd < 0; at = at->ai_next) {
    fd = ::socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC, at->ai_protocol);
    if (fd < 0) continue;
    setTimeouts(fd, kSetupSeconds);
    if (::connect(fd, at->ai_addr, at->ai_addrlen) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  return fd;
}

class Tunnel : public std::enable_shared_from_this<Tunnel> {
 public:
  Tunnel(int client, std::function<void(const Tunnel*)> onClosed) : client_(client), onClosed_(std::move(onClosed)) {}
  ~Tunnel() {
    if (ssl_) SSL_free(ssl_);
    if (server_ >= 0) ::close(server_);
    if (client_ >= 0) ::close(client_);
  }

  // On a worker: the connection to the proxy and the handshake; then the
  // bytes move on the reactor. A failure closes the client's end.
  void setUp(SSL_CTX* context, const std::string& host, int port) {
    server_ = connectTo(host, port);
    if (server_ < 0) return fail("cannot connect to the proxy https://" + host + ":" + std::to_string(port) + ": " + std::strerror(errno));
    ssl_ = SSL_new(context);
    SSL_set_fd(ssl_, server_);
    unsigned char address[16];
    const bool literal = ::inet_pton(AF_INET, host.c_str(), address) == 1 || ::inet_pton(AF_INET6, host.c_str(), address) == 1;
    if (literal) {
      X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), host.c_str());
    } else {
      SSL_set_tlsext_host_name(ssl_, host.c_str());
      SSL_set1_host(ssl_, host.c_str());
    }
    ERR_clear_error();
    if (SSL_connect(ssl_) != 1) {
      long verified = SSL_get_verify_result(ssl_);
      std::string why = verified != X509_V_OK ? X509_verify_cert_error_string(verified) : sslError();
      return fail("no TLS with the proxy https://" + host + ":" + std::to_string(port) + ": " + why);
    }
    setTimeouts(server_, 0);
    setNonBlocking(server_);
    setNonBlocking(client_);
    executor().defer([self = shared_from_this()] { self->pump(); });
  }

 private:
  enum Watch { clientRead, clientWrite, serverRead, serverWrite, kWatches };

  void fail(const std::string& why) {
    log(LogLevel::warn, why);
    executor().defer([self = shared_from_this()] { self->close(); });
  }

  // On the reactor: moves bytes until nothing moves, then waits for what would.
  void pump() {
    if (closed_) return;
    bool wantServerRead = false, wantServerWrite = false, wantClientWrite = false;
    auto tls = [&](int result) {
      int error = SSL_get_error(ssl_, result);
      if (error == SSL_ERROR_WANT_READ) {
        wantServerRead = true;
      } else if (error == SSL_ERROR_WANT_WRITE) {
        wantServerWrite = true;
      } else {
        serverEnded_ = true;  // closed by the proxy, or broken
      }
    };
    char buffer[16 * 1024];
    for (bool moved = true; moved;) {
      moved = false;
      wantServerRead = wantServerWrite = wantClientWrite = false;
      if (!clientEnded_ && up_.size() < kBuffer) {
        ssize_t n = ::read(client_, buffer, sizeof buffer);
        if (n > 0) up_.append(buffer, static_cast<size_t>(n));
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) clientEnded_ = true;
        moved = moved || n >= 0;
      }
      if (!up_.empty() && !serverEnded_) {
        ERR_clear_error();  // SSL_get_error reads this thread's queue
        int n = SSL_write(ssl_, up_.data(), static_cast<int>(up_.size()));
        if (n > 0) up_.erase(0, static_cast<size_t>(n)); else tls(n);
        moved = moved || n > 0;
      }
      if (!serverEnded_ && down_.size() < kBuffer) {
        ERR_clear_error();
        int n = SSL_read(ssl_, buffer, sizeof buffer);
        if (n > 0) down_.append(buffer, static_cast<size_t>(n)); else tls(n);
        moved = moved || n > 0 || serverEnded_;
      }
      if (!down_.empty()) {
        ssize_t n = ::send(client_, down_.data(), down_.size(), MSG_NOSIGNAL);
        if (n > 0) down_.erase(0, static_cast<size_t>(n));
        if (n < 0 && errno != EAGAIN && errno != EINTR) return close();
        wantClientWrite = n < 0;
        moved = moved || n > 0;
      }
    }
    // The client hung up (it has all it wanted), or the proxy did and the client has all it sent.
    if (clientEnded_ || (serverEnded_ && down_.empty())) return close();
    arm(clientRead, client_, exec::FdWatch::Ready::read, up_.size() < kBuffer);
    arm(clientWrite, client_, exec::FdWatch::Ready::write, wantClientWrite);
    arm(serverRead, server_, exec::FdWatch::Ready::read, wantServerRead);
    arm(serverWrite, server_, exec::FdWatch::Ready::write, wantServerWrite);
  }

  void arm(Watch which, int fd, exec::FdWatch::Ready ready, bool wanted) {
    if (!wanted || armed_[which]) return;
    armed_[which] = true;
    watches_[which] = exec::FdWatch::start(executor(), fd, ready, [weak = weak_from_this(), which] {
      if (auto self = weak.lock()) {
        self->armed_[which] = false;
        self->pump();
      }
    });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    for (auto& watch : watches_) watch.stop();
    if (client_ >= 0) ::shutdown(client_, SHUT_RDWR);
    onClosed_(this);  // the relay lets go of it
  }

  int client_ = -1;
  int server_ = -1;
  SSL* ssl_ = nullptr;
  std::function<void(const Tunnel*)> onClosed_;
  // The reactor's, once set up.
  std::string up_, down_;
  bool clientEnded_ = false, serverEnded_ = false, closed_ = false;
  bool armed_[kWatches] = {};
  exec::FdWatch watches_[kWatches];
};

class Relay : public std::enable_shared_from_this<Relay> {
 public:
  Relay(std::string host, int port) : host_(std::move(host)), port_(port) {}

  // The socket's name, or empty when it cannot listen.
  std::string listen() {
    context_ = SSL_CTX_new(TLS_client_method());
    if (!context_) return failed("no TLS context: " + sslError());
    SSL_CTX_set_verify(context_, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_default_verify_paths(context_);
    static std::atomic<int> relays{0};
    name_ = std::string(1, '\0') + "lathe-proxy-" + std::to_string(::getpid()) + "-" + std::to_string(++relays);
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name_.data(), name_.size());
    auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name_.size());
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(listener_, 64) != 0) {
      return failed(std::string("cannot listen for the proxy relay: ") + std::strerror(errno));
    }
    executor().defer([self = shared_from_this()] { self->awaitClients(); });
    return name_;
  }

 private:
  std::string failed(const std::string& why) {
    log(LogLevel::error, "the https proxy " + host_ + ":" + std::to_string(port_) + " cannot be used: " + why);
    return "";
  }

  void awaitClients() {
    accepting_ = exec::FdWatch::start(executor(), listener_, exec::FdWatch::Ready::read, [self = shared_from_this()] {
      self->acceptAll();
      self->awaitClients();
    });
  }

  // On the reactor.
  void acceptAll() {
    for (;;) {
      int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) return;
      ucred peer{};
      socklen_t size = sizeof peer;
      if (::getsockopt(client, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || peer.pid != ::getpid()) {
        ::close(client);  // another process: the proxy's credentials are not theirs to use
        continue;
      }
      auto tunnel = std::make_shared<Tunnel>(client, [self = shared_from_this()](const Tunnel* gone) {
        std::erase_if(self->tunnels_, [gone](const auto& held) { return held.get() == gone; });
      });
      tunnels_.insert(tunnel);
      executor().post([tunnel, context = context_, host = host_, port = port_] { tunnel->setUp(context, host, port); });
    }
  }

  std::string host_;
  int port_;
  std::string name_;
  SSL_CTX* context_ = nullptr;
  int listener_ = -1;
  exec::FdWatch accepting_;                     // the reactor's
  std::set<std::shared_ptr<Tunnel>> tunnels_;  // the reactor's: alive until closed
};

}  // namespace

std::string tlsProxyRelay(const std::string& host, int port) {
  static std::mutex mutex;
  static std::map<std::string, std::string> names;  // host:port -> socket name
  std::lock_guard lock(mutex);
  const std::string key = host + ":" + std::to_string(port);
  if (auto it = names.find(key); it != names.end()) return it->second;
  auto relay = std::make_shared<Relay>(host, port);  // kept alive by its reactor callbacks
  std::string name = relay->listen();
  if (!name.empty()) names[key] = name;
  return name;
}

}  // namespace lathe::http
