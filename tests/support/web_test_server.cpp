// The routes are fixed; /slow waits on a condition so stop() never waits for it.
#include "tests/support/web_test_server.h"

#include <httplib.h>
#include <signal.h>

#include <chrono>

#include "tests/support/local_http_server.h"

namespace lathe::testing {

const char* const kWebTestPage = R"(<!DOCTYPE html>
<html><head><title>Lathe Test Page</title>
<style>body { color: red; } .secret-style {}</style>
<script>var secretScript = "do not show";</script>
</head>
<body>
<nav><a href="/docs/intro.html">Intro</a> | <a href="https://example.org/abs">Absolute</a></nav>
<h1>Release notes</h1>
<p>Version <b>2.0</b> brings   faster
   builds. See <a href="changes.html">the changes</a>.</p>
<script type="text/javascript">document.write("hidden script text");</script>
<ul><li>First item</li><li>Second item</li></ul>
<table>
  <thead><tr><th>Name</th><th>Speed</th></tr></thead>
  <tbody><tr><td>lathe</td><td>fast</td></tr><tr><td>other</td><td>slow</td></tr></tbody>
</table>
<pre>line one
  indented line</pre>
<noscript>enable javascript</noscript>
</body></html>)";

namespace {

void ignoreSigpipe() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
}

}  // namespace

WebTestServer::WebTestServer() = default;
WebTestServer::~WebTestServer() { stop(); }

std::string WebTestServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<std::string> WebTestServer::paths() const {
  std::lock_guard lock(mutex_);
  return paths_;
}

bool WebTestServer::waitForSlowRequest(std::chrono::milliseconds bound) {
  std::unique_lock lock(mutex_);
  return slowArrived_.wait_for(lock, bound, [this] { return slowHeld_ > 0; });
}

Status WebTestServer::start() {
  ignoreSigpipe();
  server_ = std::make_unique<httplib::Server>();
  server_->set_logger([this](const httplib::Request& req, const httplib::Response&) {
    std::lock_guard lock(mutex_);
    paths_.push_back(req.path);
  });
  auto& s = *server_;
  s.Get("/page.html", [](const httplib::Request&, httplib::Response& res) { res.set_content(kWebTestPage, "text/html; charset=utf-8"); });
  s.Get("/r1", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/r2", 302); });
  s.Get("/r2", [this](const httplib::Request&, httplib::Response& res) { res.set_redirect(url("/r3"), 301); });
  s.Get("/r3", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("page.html", 307); });
  s.Get("/loop", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/loop", 302); });
  s.Get("/to-private", [](const httplib::Request&, httplib::Response& res) {
    res.set_redirect("http://10.255.255.1/secret", 302);
  });
  s.Get("/to-metadata", [](const httplib::Request&, httplib::Response& res) {
    res.set_redirect("http://169.254.169.254/latest/meta-data/", 302);
  });
  s.Get("/slow", [this](const httplib::Request&, httplib::Response& res) {
    std::unique_lock lock(mutex_);
    ++slowHeld_;
    slowArrived_.notify_all();
    stopping_.wait_for(lock, std::chrono::seconds(5), [this] { return stopped_; });
    res.set_content("too late", "text/plain");
  });
  s.Get("/big", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content_provider(kBigPageBytes, "text/plain", [this](size_t offset, size_t length, httplib::DataSink& sink) {
      static const std::string block(64 * 1024, 'x');
      size_t n = std::min(length, block.size());
      if (!sink.write(block.data(), n)) return false;
      bigBytesSent_ += static_cast<int64_t>(n);
      (void)offset;
      return true;
    });
  });
  s.Get("/notes.txt", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("Plain notes: <b>not html</b>\nsecond line\n", "text/plain; charset=utf-8");
  });
  s.Get("/data.json", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"answer": 42})", "application/json");
  });
  s.Get("/image.png", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "image/png");
  });
  s.Get("/missing", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content("not here", "text/plain");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) {
    server_.reset();
    return makeError(Errc::io, "web test server could not bind 127.0.0.1");
  }
  listener_ = listenInBackground(*server_);
  return {};
}

void WebTestServer::stop() {
  if (!server_) return;
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  stopping_.notify_all();
  server_->stop();
  if (listener_.joinable()) listener_.join();
  server_.reset();
}

}  // namespace lathe::testing
