// web_fetch through the person's proxy (a forward proxy written for the test,
// on 127.0.0.1): the proxy resolves the target, so a name without an address
// here goes through it by name; the address rules still apply to the target:
// private literals, private-network names and names that resolve here to a
// special address are refused, redirects included, and never reach the proxy.
#include <catch2/catch.hpp>

#include "tests/support/scoped_env.h"
#include "tests/support/test_proxy.h"
#include "tests/support/web_test_server.h"
#include "tests/tools/web/table_resolver.h"
#include "tools/web/page_fetch.h"

using namespace lathe;
using namespace lathe::testing;
using namespace lathe::tools;
using namespace std::chrono_literals;

TEST_CASE("web proxy: a page is fetched through the proxy by name, and the address rules still hold", "[web]") {
  WebTestServer site;
  REQUIRE(site.start());
  TestProxy proxy({.routes = {{"docs.invalid", "127.0.0.1:" + std::to_string(site.port())}}});
  ScopedEnv env;
  env.set("HTTP_PROXY", proxy.url());
  auto resolver = std::make_shared<TableResolver>(std::map<std::string, http::Addresses>{{"sneaky.example", {"192.168.7.7"}}});
  WebFetchOptions options;
  options.timeout = 5000ms;
  options.resolver = resolver;

  auto page = web::fetchPage("http://docs.invalid/page.html", options, CancelToken());
  INFO((page ? "" : page.error().message));
  REQUIRE(page);
  CHECK(page->contentType == "text/html");
  CHECK(page->body == kWebTestPage);
  CHECK(proxy.requestLines() == std::vector<std::string>{"GET http://docs.invalid:80/page.html"});
  CHECK(resolver->asked() == std::vector<std::string>{"docs.invalid"});  // looked up here too: no address, so on it goes

  for (const char* refused : {"http://10.1.2.3/x", "http://169.254.169.254/latest/meta-data/", "http://wiki/start",
                              "http://db.internal/", "http://sneaky.example/"}) {
    INFO(refused);
    auto denied = web::fetchPage(refused, options, CancelToken());
    REQUIRE_FALSE(denied);
    CHECK(denied.error().code == Errc::forbidden);
    CHECK(denied.error().message.find("tools.webFetch.allowPrivateHosts") != std::string::npos);
  }
  auto redirected = web::fetchPage("http://docs.invalid/to-metadata", options, CancelToken());
  REQUIRE_FALSE(redirected);
  CHECK(redirected.error().code == Errc::forbidden);
  CHECK(proxy.requestLines() == std::vector<std::string>{"GET http://docs.invalid:80/page.html", "GET http://docs.invalid:80/to-metadata"});

  options.allowPrivateHosts = {"wiki"};  // the person's own exception
  auto allowed = web::fetchPage("http://wiki/start", options, CancelToken());
  REQUIRE_FALSE(allowed);  // the proxy has no route for it: its 502, not a refusal
  CHECK(allowed.error().code == Errc::http);
  CHECK(proxy.requestLines().back() == "GET http://wiki:80/start");
}
