// Proxies from the environment: which variable applies, NO_PROXY, loopback,
// and model requests (the shared client) and plain exchanges (token
// endpoints, MCP HTTP) really going through a local fake proxy; https://
// proxies (TLS to the proxy, its certificate checked) for plain targets and
// CONNECT tunnels, through a forward proxy written for the tests.
#include <catch2/catch.hpp>

#include <httplib.h>
#include <stdlib.h>

#include <map>
#include <mutex>
#include <thread>

#include "protocol/http/exchange.h"
#include "protocol/http/http_client.h"
#include "protocol/http/proxy.h"
#include "tests/support/local_http_server.h"
#include "tests/support/test_certificates.h"
#include "tests/support/test_proxy.h"
#include "tests/support/scoped_env.h"

using namespace lathe;
using namespace lathe::http;
using lathe::testing::ScopedEnv;

namespace {

ProxyEnv envOf(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

// A plain-HTTP forward proxy that answers every request itself, saying what it was asked.
struct FakeProxy {
  std::mutex mutex;
  std::vector<std::string> targets;
  std::vector<std::string> authorizations;
  lathe::testing::LocalHttpServer http;  // last: stopped before the records go
  FakeProxy() {
    auto answer = [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex);
      targets.push_back(req.target);
      authorizations.push_back(req.get_header_value("Proxy-Authorization"));
      res.set_content(R"({"via":"proxy"})", "application/json");
    };
    http.server.Get(".*", answer);
    http.server.Post(".*", answer);
    REQUIRE(http.start());
  }
};

}  // namespace

TEST_CASE("proxy variables: https and http apart, ALL_PROXY, NO_PROXY, loopback never proxied") {
  auto env = envOf({{"HTTPS_PROXY", "http://user:p%40ss@corp-proxy:3128"}, {"http_proxy", "plain-proxy:8080"},
                    {"NO_PROXY", "internal.example, .corp.example,api.example:8443"}});
  auto https = proxyFor("https", "generativelanguage.googleapis.com", 443, env);
  REQUIRE(https);
  CHECK(https->host == "corp-proxy");
  CHECK(https->port == 3128);
  CHECK(https->user == "user");
  CHECK(https->password == "p@ss");
  auto http = proxyFor("http", "example.org", 80, env);
  REQUIRE(http);
  CHECK(http->host == "plain-proxy");
  CHECK(http->port == 8080);
  CHECK_FALSE(proxyFor("https", "internal.example", 443, env));
  CHECK_FALSE(proxyFor("https", "a.internal.example", 443, env));
  CHECK_FALSE(proxyFor("https", "corp.example", 443, env));
  CHECK_FALSE(proxyFor("https", "x.corp.example", 443, env));
  CHECK_FALSE(proxyFor("https", "api.example", 8443, env));
  CHECK(proxyFor("https", "api.example", 443, env));  // another port
  CHECK(proxyFor("https", "notinternal.example", 443, env));
  CHECK_FALSE(proxyFor("https", "127.0.0.1", 443, env));
  CHECK_FALSE(proxyFor("http", "localhost", 80, env));
  CHECK_FALSE(proxyFor("https", "example.org", 443, envOf({{"HTTPS_PROXY", "http://p:1"}, {"no_proxy", "*"}})));
  auto all = proxyFor("https", "example.org", 443, envOf({{"ALL_PROXY", "http://all:9"}}));
  REQUIRE(all);
  CHECK(all->host == "all");
  CHECK_FALSE(proxyFor("https", "example.org", 443, envOf({})));
  auto tls = parseProxyUrl("https://tls-proxy:8443");
  REQUIRE(tls);
  CHECK(tls->tls);
  CHECK(tls->port == 8443);
  CHECK(parseProxyUrl("https://tls-proxy")->port == 443);
  CHECK_FALSE(parseProxyUrl("http://plain")->tls);
  CHECK_FALSE(parseProxyUrl("http://host:99999"));
  CHECK_FALSE(proxyFor("https", "example.org", 443, envOf({{"HTTPS_PROXY", "socks5://s:1"}})));
}

TEST_CASE("model requests and plain exchanges go through HTTP_PROXY, except hosts NO_PROXY names") {
  FakeProxy proxy;
  ScopedEnv env;
  env.set("HTTP_PROXY", "http://me:secret@127.0.0.1:" + std::to_string(proxy.http.port));
  env.set("NO_PROXY", "direct.invalid");

  auto endpoint = parseBaseUrl("http://model.invalid:8080", "test base URL");
  REQUIRE(endpoint);
  Client::Options options;
  options.retry.maxAttempts = 1;
  Client client(*endpoint, options);
  auto body = client.post("/v1beta/models/m:generateContent", "{}", {}, CancelToken());
  REQUIRE(body);
  CHECK(*body == R"({"via":"proxy"})");

  RawRequest token;
  token.url = "http://token.invalid/token";
  token.body = "grant_type=x";
  int status = 0;
  auto head = exchange(token, [&](const ResponseHead& h) { status = h.status; return true; }, {}, CancelToken());
  REQUIRE(head);
  CHECK(status == 200);

  {
    std::lock_guard lock(proxy.mutex);
    REQUIRE(proxy.targets.size() == 2);
    CHECK(proxy.targets[0] == "http://model.invalid:8080/v1beta/models/m:generateContent");
    CHECK(proxy.targets[1] == "http://token.invalid:80/token");
    CHECK(proxy.authorizations[0] == "Basic bWU6c2VjcmV0");
  }

  RawRequest direct;
  direct.url = "http://direct.invalid/x";
  direct.connectTimeout = std::chrono::milliseconds(2000);
  auto failed = exchange(direct, {}, {}, CancelToken());
  CHECK_FALSE(failed);  // not through the proxy: the name does not resolve
  std::lock_guard lock(proxy.mutex);
  CHECK(proxy.targets.size() == 2);
}

TEST_CASE("an https:// proxy: TLS to the proxy, then plain requests and CONNECT tunnels through it") {
  const auto& certs = lathe::testing::testCertificates();
  lathe::testing::LocalHttpServer plain;
  plain.server.Post(".*", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(R"({"from":"plain )" + req.path + R"("})", "application/json");
  });
  REQUIRE(plain.start());
  httplib::SSLServer secure(certs.certFile.c_str(), certs.keyFile.c_str());
  secure.Post(".*", [](const httplib::Request&, httplib::Response& res) { res.set_content(R"({"from":"tls"})", "application/json"); });
  const int securePort = secure.bind_to_any_port("127.0.0.1");
  REQUIRE(securePort > 0);
  std::thread secureThread = lathe::testing::listenInBackground(secure);
  struct Join {
    httplib::Server& server;
    std::thread& thread;
    ~Join() {
      server.stop();
      thread.join();
    }
  } joinSecure{secure, secureThread};
  lathe::testing::TestProxy proxy({.routes = {{"plain.invalid", "127.0.0.1:" + std::to_string(plain.port)},
                                              {"model.invalid", "127.0.0.1:" + std::to_string(securePort)}},
                                   .tls = true});
  ScopedEnv env;
  env.set("SSL_CERT_FILE", certs.caFile);  // the test's authority signed the proxy's and the server's certificates
  const std::string proxyUrl = "https://me:secret@127.0.0.1:" + std::to_string(proxy.port());
  env.set("HTTP_PROXY", proxyUrl);
  env.set("HTTPS_PROXY", proxyUrl);

  Client::Options options;
  options.retry.maxAttempts = 1;
  auto http = parseBaseUrl("http://plain.invalid:" + std::to_string(plain.port), "test base URL");
  REQUIRE(http);
  auto plainBody = Client(*http, options).post("/v1/models/m:generateContent", "{}", {}, CancelToken());
  INFO((plainBody ? "" : plainBody.error().message));
  REQUIRE(plainBody);
  CHECK(*plainBody == R"({"from":"plain /v1/models/m:generateContent"})");

  auto https = parseBaseUrl("https://model.invalid:" + std::to_string(securePort), "test base URL");
  REQUIRE(https);
  auto tlsBody = Client(*https, options).post("/v1/models/m:generateContent", "{}", {}, CancelToken());
  INFO((tlsBody ? "" : tlsBody.error().message));
  REQUIRE(tlsBody);
  CHECK(*tlsBody == R"({"from":"tls"})");

  auto lines = proxy.requestLines();
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "POST http://plain.invalid:" + std::to_string(plain.port) + "/v1/models/m:generateContent");
  CHECK(lines[1] == "CONNECT model.invalid:" + std::to_string(securePort));
  CHECK(proxy.authorizations() == std::vector<std::string>{"Basic bWU6c2VjcmV0", "Basic bWU6c2VjcmV0"});
  CHECK(proxy.tlsHandshakes() == 2);
}

TEST_CASE("an https:// proxy whose certificate is not trusted is not used, and nothing goes around it") {
  lathe::testing::TestProxy proxy({.routes = {{"plain.invalid", "127.0.0.1:9"}}, .tls = true});
  ScopedEnv env;
  env.set("SSL_CERT_FILE", "/nonexistent/ca.pem");  // nobody vouches for the proxy
  env.set("HTTP_PROXY", "https://127.0.0.1:" + std::to_string(proxy.port()));
  auto endpoint = parseBaseUrl("http://plain.invalid:8080", "test base URL");
  REQUIRE(endpoint);
  Client::Options options;
  options.retry.maxAttempts = 1;
  auto body = Client(*endpoint, options).post("/x", "{}", {}, CancelToken());
  CHECK_FALSE(body);
  CHECK(proxy.tlsHandshakes() == 0);
  CHECK(proxy.requestLines().empty());
}
