// Plain sockets: httplib's server writes its headers whole. Shutting the
// listening socket down wakes accept() when the server stops.
#include "tests/support/trickle_server.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace lathe::testing {
namespace {

std::string trickledResponse(size_t headerBytes) {
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                     std::to_string(std::strlen(TrickleServer::kBody)) + "\r\nConnection: close\r\n";
  while (head.size() + 2 < headerBytes) head += "X-Slow: " + std::string(std::min<size_t>(40, headerBytes), 'a') + "\r\n";
  return head + "\r\n" + TrickleServer::kBody;
}

}  // namespace

TrickleServer::TrickleServer(std::chrono::milliseconds pause, size_t headerBytes)
    : pause_(pause), response_(trickledResponse(headerBytes)) {}

TrickleServer::~TrickleServer() { stop(); }

std::string TrickleServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

int TrickleServer::connections() const {
  std::lock_guard lock(mutex_);
  return connections_;
}

Status TrickleServer::start() {
  listenFd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  if (listenFd_ < 0 || bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listenFd_, 8) != 0 || getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &size) != 0) {
    return makeError(Errc::io, std::string("trickle server could not listen on 127.0.0.1: ") + std::strerror(errno));
  }
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
  return {};
}

void TrickleServer::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  stopping_.notify_all();
  if (listenFd_ >= 0) shutdown(listenFd_, SHUT_RDWR);
  if (thread_.joinable()) thread_.join();
  if (listenFd_ >= 0) close(listenFd_);
  listenFd_ = -1;
}

void TrickleServer::serve() {
  for (;;) {
    int fd = accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;  // stopped
    {
      std::lock_guard lock(mutex_);
      ++connections_;
    }
    answer(fd);
    close(fd);
  }
}

void TrickleServer::answer(int fd) {
  char request[4096];
  std::string seen;
  while (seen.find("\r\n\r\n") == std::string::npos) {
    ssize_t n = recv(fd, request, sizeof request, 0);
    if (n <= 0) return;
    seen.append(request, static_cast<size_t>(n));
  }
  size_t headEnd = response_.size() - std::strlen(kBody);
  for (size_t i = 0; i < response_.size();) {
    size_t n = i < headEnd ? 1 : response_.size() - i;  // the body goes in one piece
    if (send(fd, response_.data() + i, n, MSG_NOSIGNAL) <= 0) return;  // the client went away
    i += n;
    std::unique_lock lock(mutex_);
    if (i < headEnd && stopping_.wait_for(lock, pause_, [this] { return stopped_; })) return;
  }
}

}  // namespace lathe::testing
